/**
 * Interpreter code reaching a function without naming it as `module.function(…)`: Python's namespace mappings
 * (`vars(os)[…]`, `globals()[…]`, `sys.modules[…]`, `__builtins__`), loaders and evaluators taken as values, the
 * introspection walks sandbox escapes end in, and writes whose path the call does not spell; Node's evaluators as
 * values, members fetched by reflection, workers evaluating strings and native addons; Ruby's `send`/`method`
 * by name and capable modules held in variables; Perl's code references, symbolic calls and builtins the call scan
 * does not read as calls; PHP's calls by a string, callbacks and reflection. Each class keeps its ordinary
 * spellings quiet.
 */
import { describe, expect, it } from "@effect/vitest"
import { detectCode } from "../../../src/layers/approval/detect/code/detectCode.js"
import { codeDescription } from "../../../src/layers/approval/detect/descriptions.js"
import type { DetectionEnv } from "../../../src/layers/approval/detect/detect.js"

const ENV: DetectionEnv = { home: "/home/agent", hermesHome: "/home/agent/.hermes-effect", env: {} }
type Kind = Parameters<typeof codeDescription>[1]
type Language = "python" | "node" | "perl" | "ruby" | "php"

const check = (language: Language, rows: ReadonlyArray<readonly [string, Kind]>) => {
  for (const [code, kind] of rows) expect([code, detectCode(language, code, ENV).description]).toEqual([code, codeDescription(language, kind)])
}
const quiet = (language: Language, rows: ReadonlyArray<string>) => {
  for (const code of rows) expect([code, detectCode(language, code, ENV).dangerous]).toEqual([code, false])
}

describe("python: functions reached through a namespace", () => {
  it("a module's namespace by a literal key is the attribute it names; a computed key is a computed name", () => {
    check("python", [
      ["import os\nvars(os)['system']('x')", "run"],
      ["import os\nvars(os)['sys' + 'tem']('x')", "run"],
      ["import shutil as s\nvars(s)['rmtree']('d')", "delete"],
      ["import os\nk = input()\nvars(os)[k]('x')", "load"],
      ["import os\nos.__dict__[input()]('x')", "load"],
      ["import sys\nsys.modules[input()].getcwd()", "load"],
      ["import sys\nsys.modules['os'].system('x')", "run"]
    ])
  })

  it("the file's own names: globals() and locals() hold the modules it imported", () => {
    check("python", [
      ["import os\nglobals()['os'].system('x')", "run"],
      ["import os as q\nglobals()['q'].system('x')", "run"],
      ["from shutil import rmtree\nglobals()['rmtree']('d')", "delete"],
      ["globals()['ev' + 'al'](input())", "load"],
      ["locals()[name]()", "load"]
    ])
  })

  it("the builtins module under its implementation name, and the walks to another module's globals", () => {
    check("python", [
      ["__builtins__.exec(input())", "load"],
      ["b = __builtins__\nb.eval(input())", "load"],
      ["__builtins__.__dict__['__imp' + 'ort__']('os').getcwd()", "load"],
      ["globals()['__builtins__'].exec('y')", "load"],
      ["for c in ().__class__.__base__.__subclasses__():\n  c.__init__.__globals__['system']('x')", "run"],
      ["import sys\nsys._getframe().f_globals['os'].getcwd()", "load"],
      ["import inspect\ninspect.currentframe().f_back.f_locals.get('os')", "load"]
    ])
  })

  it("loaders and evaluators taken as values, and a function's __call__", () => {
    check("python", [
      ["e = eval\ne(input())", "load"],
      ["run = exec\nrun(code)", "load"],
      ["imp = __import__\nimp('os').getcwd()", "load"],
      ["list(map(exec, codes))", "load"],
      ["import builtins\nf = builtins.exec\nf(code)", "load"],
      ["import os\nf = os.system.__call__\nf('x')", "run"]
    ])
  })

  it("loaders by file, addons, archives unpacked where files run, links, a browser, other deleters", () => {
    check("python", [
      ["import importlib.util\ns = importlib.util.spec_from_file_location('m', 'x.py')", "load"],
      ["spec.loader.exec_module(m)", "load"],
      ["import cffi\ncffi.FFI().dlopen(None)", "load"],
      ["import zipfile\nzipfile.ZipFile('a.zip').extractall('.git/hooks')", "write"],
      ["import shutil\nshutil.unpack_archive('a.zip', '/home/agent/.config/autostart')", "write"],
      ["import tarfile\ntarfile.open('a.tar').extractall(path='/home/agent')", "write"],
      ["import os\nos.symlink('/tmp/evil', '.git/hooks/pre-commit')", "write"],
      ["import webbrowser\nwebbrowser.open('http://localhost')", "run"],
      ["from distutils.dir_util import remove_tree\nremove_tree('d')", "delete"],
      ["import send2trash\nsend2trash.send2trash('d')", "delete"]
    ])
  })

  it("a write whose path is held in a variable or joined to the home", () => {
    check("python", [
      ["p = '/home/agent/.bash' + 'rc'\nopen(p, 'a').write('x')", "write"],
      ["import os\np = os.path.expanduser('~/.bashrc')\nwith open(p, 'a') as f: f.write('x')", "write"],
      ["import os\np = os.path.expanduser('~') + '/.profile'\nopen(p, 'w').write('x')", "write"],
      ["import os, pathlib\npathlib.Path(os.environ['HOME'], '.bashrc').write_text('x')", "write"],
      ["m = 'a'\nopen('/home/agent/.bashrc', m).write('x')", "write"],
      ["import pathlib\npathlib.Path('.git/hooks/pre-commit').open('w').write('x')", "write"],
      ["import pathlib\n(pathlib.Path.home() / '.profile').open('a').write('x')", "write"],
      ["from shutil import copyfile\ncopyfile('x', '.git/hooks/pre-commit')", "write"],
      ["from os import symlink\nsymlink('/tmp/x', '.git/hooks/pre-commit')", "write"],
      ["from shutil import unpack_archive\nunpack_archive('a.zip', '.git/hooks')", "write"]
    ])
  })

  it("ordinary code stays quiet", () => {
    quiet("python", [
      "import argparse\nargs = argparse.ArgumentParser().parse_args()\nprint(vars(args)['x'])",
      "print(vars())",
      "d = {}\nd[input()] = 1",
      "class A: pass\na = A()\na.__dict__[input()] = 1",
      "import platform\nprint(platform.system())",
      "model.eval()",
      "import re\nfrom re import escape, compile\np = compile('a')",
      "import sys\nmod = sys.modules[__name__]",
      "import traceback, linecache\nlinecache.getline(f.f_code.co_filename, 1, f.f_globals)",
      "out = 'report.txt'\nopen(out, 'w').write('done')",
      "import json\nwith open('data.json', 'w') as f: json.dump({}, f)",
      "import os\nprint(os.path.expanduser('~'))\nopen('notes.txt', 'a').write('x')",
      "import zipfile\nzipfile.ZipFile('a.zip').extractall('build')",
      "def f(eval=False):\n  pass"
    ])
  })
})

describe("node: functions reached without their name", () => {
  it("evaluators as values, reflection on modules, workers evaluating strings, addons, computed paths", () => {
    check("node", [
      ["const e = eval; e(process.argv[2])", "load"],
      ["(0, eval)(code)", "load"],
      ["const F = Function; F(body)()", "load"],
      ["Reflect.get(require('fs'), 'rmSync')('d')", "load"],
      ["const fs = require('fs'); Object.getOwnPropertyDescriptor(fs, k).value('d')", "load"],
      ["const { Worker } = require('worker_threads'); new Worker(code, { eval: true })", "load"],
      ["require('./addon.node')", "load"],
      ["const p = require('path').join(require('os').homedir(), '.bashrc'); require('fs').appendFileSync(p, 'x')", "write"],
      ["const { writeFile } = require('fs/promises'); writeFile('.git/hooks/pre-commit', 'x')", "write"],
      ["import { writeFileSync } from 'node:fs';\nwriteFileSync('.git/hooks/pre-commit', 'x')", "write"],
      ["const f = [].constructor.constructor; f(code)()", "load"],
      ["({}).constructor.constructor('return process')()", "load"],
      ["require('inspector').open()", "load"],
      ["const { Worker } = require('worker_threads'); new Worker(process.argv[2])", "load"]
    ])
  })

  it("ordinary code stays quiet", () => {
    quiet("node", [
      "console.log(1)",
      "const x = JSON.parse(require('fs').readFileSync('a', 'utf8')); console.log(x)",
      "const { apply } = Function.prototype",
      "if (f instanceof Function) f()",
      "const opts = { eval: false }",
      "const { Worker } = require('worker_threads'); new Worker('./w.js')",
      "class A { constructor() { this.x = 1 } }\nconsole.log(new A().constructor.name)",
      "function writeFile(p) { return p }\nwriteFile('.git/hooks/pre-commit')",
      "require('fs').writeFileSync('out.json', '{}')",
      "Object.entries({ a: 1 }).forEach(([k, v]) => console.log(k, v))"
    ])
  })
})

describe("ruby, perl, php: functions called by a name given as data", () => {
  it("ruby: send and method by name, capable modules held in a variable, run and delete methods on any receiver", () => {
    check("ruby", [
      ["Kernel.send(:system, 'x')", "run"],
      ["send(:system, 'x')", "run"],
      ["Kernel.public_send('sys' + 'tem', 'x')", "run"],
      ["__send__(ARGV[0], 'x')", "load"],
      ["m = method(:system)\nm.call('x')", "run"],
      ["k = Kernel\nk.system('x')", "run"],
      ["Object.const_get('Kernel').system('x')", "run"],
      ["require 'fileutils'\nFileUtils.send(:rm_rf, 'd')", "delete"],
      ["p = '.git/hooks/pre-commit'\nFile.write(p, 'x')", "write"]
    ])
    quiet("ruby", ["puts 1", "obj.send(:name)", "conn.exec('select 1')", "x = Kernel.rand(3)"])
  })

  it("perl: references to builtins, symbolic calls, CORE:: names, builtins without parentheses", () => {
    check("perl", [
      ["my $f = \\&CORE::system; $f->('x');", "run"],
      ["&{'CORE::system'}('x');", "load"],
      ["my $n = 'sys' . 'tem'; &$n('x');", "load"],
      ["*x = \\&CORE::unlink; x('f');", "delete"],
      ["CORE::system('x');", "run"],
      ["CORE::GLOBAL::unlink('f');", "delete"],
      ["exec { 'rm' } 'rm', '-rf', 'd';", "run"],
      ["unlink glob('*');", "delete"],
      ["map { unlink } glob('*');", "delete"],
      ["my $p = \"$ENV{HOME}/.bashrc\"; open(my $fh, '>>', $p);", "write"]
    ])
    quiet("perl", ["print \"hi\\n\";", "my %h = (unlink => 1); print $h{unlink};", "print $self->{system};", "my $x = $a & $b;", "sub move { return 1 }"])
  })

  it("php: calls by a string, callbacks, reflection, assert of a value, unserialize", () => {
    check("php", [
      ["<?php (\"sys\" . \"tem\")(\"x\");", "run"],
      ["<?php \"unlink\"(\"f\");", "delete"],
      ["<?php array_map($argv[1], glob(\"*\"));", "load"],
      ["<?php array_walk($files, \"unlink\");", "delete"],
      ["<?php $r = new ReflectionFunction(\"system\"); $r->invoke(\"x\");", "run"],
      ["<?php (new ReflectionFunction($argv[1]))->invoke(\"x\");", "load"],
      ["<?php assert($argv[1]);", "load"],
      ["<?php unserialize(file_get_contents(\"f\"));", "unpickle"],
      ["<?php $p = \".git/hooks/pre-commit\"; file_put_contents($p, \"x\");", "write"]
    ])
    quiet("php", ["<?php echo \"hi\";", "<?php array_map(function ($x) { return $x * 2; }, [1, 2]);", "<?php usort($a, fn($x, $y) => $x <=> $y);", "<?php array_map(\"strtoupper\", $a);"])
  })
})

describe("writers reached without a call by name, in code that then loads code", () => {
  // The file a writer held in a value writes is unknown: with a load anywhere, the module may be what it wrote.
  it("python and node: a writer taken as a value, fetched by getattr, or through builtins", () => {
    check("python", [
      ["w = open\nw('m2.py', 'w').write(src)\nimport m2", "rewrite"],
      ["from pathlib import Path\nsave = getattr(Path('m3.py'), 'write_text')\nsave(src)\nimport m3", "rewrite"],
      ["import shutil\ncp = shutil.copy2\ncp(a, b)\nimport plugin", "rewrite"],
      ["import builtins\nbuiltins.open('m4.py', 'w').write(src)\nimport m4", "rewrite"]
    ])
    check("node", [
      ["const fs = require('fs')\nconst put = fs.writeFileSync\nput('y.js', src)\nrequire('./y')", "rewrite"],
      ["const fs = require('fs')\nfs['writeFileSync']('z.js', src)\nrequire('./z')", "rewrite"]
    ])
  })

  it("ordinary spellings stay quiet", () => {
    quiet("python", [
      "import json\nwith open('a.json') as f:\n    data = json.load(f)",
      "import webbrowser\nprint(dict(open=True))",
      "import json\nclass Door:\n    def open(self):\n        return json.dumps({'state': 'open'})"
    ])
    quiet("node", ["const { writeFileSync } = require('fs')\nwriteFileSync('out.txt', 'x')\nconst path = require('path')"])
  })
})
