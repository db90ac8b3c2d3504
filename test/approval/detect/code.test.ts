/**
 * Detection for interpreter source text (REPL input, scripts a command runs),
 * per language: code that deletes files, runs programs, signals processes,
 * loads code by a computed name, or writes where other programs run it is
 * dangerous; shell-like string literals are judged by the shell rules (a
 * hardline one makes code that can run programs hardline); comments and
 * imports alone are not findings; ordinary code stays quiet.
 */
import { describe, expect, it } from "@effect/vitest"
import { detectCode } from "../../../src/layers/approval/detect/code/detectCode.js"
import { CODE_DESCRIPTIONS, codeDescription, D, UNREADABLE_SCRIPT_DESCRIPTION } from "../../../src/layers/approval/detect/descriptions.js"
import type { DetectionEnv } from "../../../src/layers/approval/detect/detect.js"
import type { CodeLanguage } from "../../../src/services/Approval.js"
import { pythonHelperSource } from "../../../src/layers/code/pythonHelper.js"

const ENV: DetectionEnv = { home: "/home/agent", hermesHome: "/home/agent/.hermes-effect", env: {} }
const ROOT_DELETE = "recursive delete of root filesystem"
const SHUTDOWN = "system shutdown/reboot"

type Kind = Parameters<typeof codeDescription>[1]

const check = (language: Exclude<CodeLanguage, "shell">, rows: ReadonlyArray<readonly [string, Kind]>) => {
  for (const [code, kind] of rows) {
    expect([code, detectCode(language, code, ENV).description]).toEqual([code, codeDescription(language, kind)])
  }
}
const quiet = (language: Exclude<CodeLanguage, "shell">, rows: ReadonlyArray<string>) => {
  for (const code of rows) {
    expect([code, detectCode(language, code, ENV)]).toEqual([code, { dangerous: false, description: null, hardline: false, hardline_description: null }])
  }
}
const hardline = (language: CodeLanguage, code: string) => detectCode(language, code, ENV).hardline_description

describe("python", () => {
  it("deleting, running, signalling, loading by computed name, writing implicitly executed files", () => {
    check("python", [
      ["import shutil\nshutil.rmtree('/tmp/x')", "delete"],
      ["shutil.rmtree(path)", "delete"],
      ["import shutil as s\ns.rmtree(p)", "delete"],
      ["from shutil import rmtree as r\nr(p)", "delete"],
      ["import os\nos.remove('a.txt')", "delete"],
      ["os.unlink(p); os.rmdir(d)", "delete"],
      ["import os\nos.replace('a', 'b')", "delete"],
      ["from os import *\nremovedirs('a/b')", "delete"],
      ["import os\nos.system('ls')", "run"],
      ["import subprocess\nsubprocess.run(['ls'])", "run"],
      ["from subprocess import check_output\ncheck_output(cmd)", "run"],
      ["import subprocess as sp\nsp.Popen(args)", "run"],
      ["os.execvp('sh', ['sh'])", "run"],
      ["os.posix_spawn('/bin/sh', [], {})", "run"],
      ["import pty; pty.spawn('/bin/sh')", "run"],
      ["__import__('os').system('id')", "run"],
      ["import importlib\nimportlib.import_module('subprocess').call(x)", "run"],
      ["getattr(os, 'sys' + 'tem')('id')", "run"],
      // A module held in a variable: the attribute's name says what it does.
      ["m = __import__('sh' + 'util')\ngetattr(m, 'rm' + 'tree')(p)", "delete"],
      ["mod = importlib.import_module('os')\ngetattr(mod, 'system')('id')", "run"],
      // The module a loader returns inside getattr, named by a (glued) literal.
      ["getattr(__import__('sh' + 'util'), 'rm' + 'tree')(p)", "delete"],
      ["getattr(importlib.import_module('os'), 'system')('id')", "run"],
      ["from pathlib import Path\nfor p in Path(d).iterdir(): p.unlink()", "delete"],
      ["Path(tmp).rmdir()", "delete"],
      // A dangerous function taken as a value is called later under another name.
      ["import shutil as s\nf = s.rmtree\nf(p)", "delete"],
      ["from shutil import rmtree\nlist(map(rmtree, paths))", "delete"],
      ["import os\nrun = os.system\n[run(c) for c in cmds]", "run"],
      ["import shutil\nactions = {'clean': shutil.rmtree}\nactions[a](p)", "delete"],
      ["import shutil\nshutil.rmtree.__call__(p)", "delete"],
      ["import os\nos.__getattribute__('system')('id')", "run"],
      ["import operator, os\noperator.methodcaller('system', 'id')(os)", "run"],
      ["os.kill(pid, 9)", "process"],
      ["import os\nos.chmod('/etc/shadow', 0o777)", "process"],
      ["eval(input())", "load"],
      ["exec(open('x.py').read())", "load"],
      ["mod = __import__(name)", "load"],
      ["importlib.import_module(name)", "load"],
      ["getattr(os, name)(arg)", "load"],
      ["getattr(__import__('os'), n)()", "load"],
      ["import ctypes\nctypes.CDLL('libc.so.6')", "load"],
      ["open(os.path.expanduser('~/.bashrc'), 'a').write('x')", "write"],
      ["with open('.git/hooks/pre-commit', 'w') as f:\n    f.write('#!/bin/sh')", "write"],
      ["from pathlib import Path\nPath('~/.ssh/authorized_keys').expanduser().write_text(key)", "write"],
      ["Path('.envrc').write_text('x')", "write"],
      ["shutil.copy('evil', '/usr/local/bin/git')", "write"],
      ["open('/etc/cron.d/job', mode='w')", "write"]
    ])
  })

  it("the runtime's home, read or written", () => {
    for (const code of ["open('/home/agent/.hermes-effect/config.yaml').read()", "p = os.environ['HERMES_EFFECT_HOME']", "open(os.path.expanduser('~/.hermes-effect/config.yaml'), 'w')"]) {
      expect(detectCode("python", code, ENV).description, code).toBe(D.runtimeHome)
    }
  })

  it("shell text in the code is judged by the shell rules; hardline text makes it hardline", () => {
    expect(detectCode("python", "import os\nos.system('rm -rf /')", ENV)).toMatchObject({ dangerous: true, hardline: true, hardline_description: ROOT_DELETE })
    expect(hardline("python", "import os\nos.system(\"\\x72\\x6d -rf /\")")).toBe(ROOT_DELETE)
    expect(hardline("python", "import os\nos.system('r' + 'm -rf /')")).toBe(ROOT_DELETE)
    expect(hardline("python", "import subprocess\nsubprocess.run(['rm', '-rf', '/'])")).toBe(ROOT_DELETE)
    expect(hardline("python", "import subprocess\nsubprocess.call(['reboot'])")).toBe(SHUTDOWN)
    expect(detectCode("python", "import os\nos.system('git reset --hard')", ENV).description).toBe("git reset --hard (destroys uncommitted changes)")
    // Evaluated literals are read as python.
    expect(detectCode("python", "exec('import os; os.system(\"reboot\")')", ENV)).toMatchObject({ hardline_description: SHUTDOWN, description: codeDescription("python", "run") })
    expect(detectCode("python", "eval('1 + 1')", ENV).dangerous).toBe(false)
  })

  it("comments, imports alone and ordinary scripts stay quiet", () => {
    quiet("python", [
      "# os.system('rm -rf /')\nprint('hi')",
      '"""\nshutil.rmtree(x)\n"""\nprint(1)',
      "import os, sys, subprocess, shutil",
      "print('hello')",
      "import json\nprint(json.dumps({'a': 1}, indent=2))",
      "import os\nprint(os.getcwd())",
      "import os\nprint(os.listdir('.'))",
      "import os\nos.makedirs('build', exist_ok=True)",
      "open('out.txt', 'w').write('x')",
      "with open('results.json', 'w') as f:\n    json.dump(r, f)",
      "with open('/etc/hosts') as f:\n    print(f.read())",
      "import requests\nr = requests.get('https://example.com')\nprint(r.status_code)",
      "x = [1, 2]\nx.remove(1)\ns = 'a'.replace('a', 'b')",
      "import platform\nprint(platform.system())",
      "import re\npattern = re.compile(r'\\d+')",
      "print('Shutdown complete')",
      "status = 'reboot'",
      "value = getattr(args, key)",
      "handler = getattr(self, 'on_' + event)",
      "fmt = getattr(record, 'levelname')",
      "import os\nbase = os.path.join(root, name)\nprint(os.sep, os.environ.get('HOME'))",
      "import subprocess\nERR = subprocess.CalledProcessError",
      "sh = book.sheet_by_index(0)\nprint(sh.cell(0, 0))",
      "from pathlib import Path\nPath('out/report.txt').write_text(text)",
      "import pandas as pd\ndf = pd.read_csv('x.csv')\nprint(df.describe())",
      "def remove(x):\n    return x\nremove(1)",
      "import os\npath = os.path.join(os.path.dirname(__file__), 'data')"
    ])
  })
})

describe("node", () => {
  it("child_process, fs deletes, kills, computed loading, sensitive writes", () => {
    check("node", [
      ["require('child_process').execSync('ls')", "run"],
      ["const cp = require('node:child_process')", "run"],
      ["import { exec } from 'child_process'", "run"],
      ["const { spawn } = await import('child_process')", "run"],
      ["require('fs').rmSync('/tmp/x', { recursive: true })", "delete"],
      ["const fs = require('fs'); fs.unlink('a', () => {})", "delete"],
      ["import { rm } from 'node:fs/promises'\nawait fs.rm(dir)", "delete"],
      ["fs.unlinkSync(p)", "delete"],
      ["const del = require('fs').rmSync\ndel(p, { recursive: true })", "delete"],
      ["const fs = require('fs')\npaths.forEach(fs.unlinkSync)", "delete"],
      ["process.kill(1)", "process"],
      ["fs.writeFileSync(process.env.HOME + '/.bashrc', 'x')", "write"],
      ["fs.appendFileSync('.git/hooks/pre-commit', 'x')", "write"],
      ["require('fs').copyFileSync('x', '/usr/local/bin/node')", "write"]
    ])
    for (const code of ["eval(code)", "new Function(body)()", "require(name)", "import(name)", "globalThis['ev' + 'al']('1')", "require('vm').runInThisContext(s)", "fs[method](p)"]) {
      expect(detectCode("node", code, ENV).description, code).toBe(codeDescription("node", "load"))
    }
    expect(hardline("node", "const { execSync } = require('child_process'); execSync('reboot')")).toBe(SHUTDOWN)
  })

  it("ordinary code stays quiet", () => {
    quiet("node", [
      "console.log(1 + 2)",
      "const fs = require('fs'); console.log(fs.readFileSync('a.txt', 'utf8'))",
      "fs.writeFileSync('out.json', JSON.stringify({ a: 1 }))",
      "const x = a / b / c // rm -rf /",
      "/* child_process */ [1, 2].map((x) => x * 2)",
      "const path = require('path'); console.log(path.join('a', 'b'))",
      "fetch('https://example.com').then((r) => r.json()).then(console.log)",
      "const re = /rm -rf \\//; console.log(re.test(s))",
      "import { readFile } from 'node:fs/promises'\nconsole.log(await readFile('x', 'utf8'))"
    ])
  })
})

describe("perl", () => {
  it("system, backticks, qx, piped open, unlink, string eval", () => {
    check("perl", [
      ["system('ls')", "run"],
      ["system 'ls', '-l';", "run"],
      ["exec('/bin/sh')", "run"],
      ["my $x = `ls`;", "run"],
      ["my $x = qx(ls);", "run"],
      ["open(my $fh, '-|', 'ls')", "run"],
      ["open(FH, \"| mail x\")", "run"],
      ["unlink 'a.txt';", "delete"],
      ["use File::Path qw(rmtree); rmtree('/tmp/x');", "delete"],
      ["kill 9, $pid;", "process"],
      ["eval $code;", "load"],
      ["do $file;", "load"],
      ["open(my $fh, '>>', \"$ENV{HOME}/.bashrc\")", "write"]
    ])
    expect(hardline("perl", "system('rm -rf /')")).toBe(ROOT_DELETE)
    expect(hardline("perl", "`reboot`")).toBe(SHUTDOWN)
  })

  it("ordinary code stays quiet", () => {
    quiet("perl", [
      "print \"hello\\n\";",
      "eval { die 'x' }; print $@;",
      "my %h = (system => 1); print $h{system};",
      "my $n = $#array;  # system('rm -rf /')",
      "open(my $fh, '<', 'data.txt') or die; print <$fh>;",
      "my @w = split /,/, $line;",
      "=pod\n\nsystem('x')\n\n=cut\nprint 1;"
    ])
  })
})

describe("ruby", () => {
  it("system, backticks, %x, popen, FileUtils, eval, send", () => {
    check("ruby", [
      ["system('ls')", "run"],
      ["system 'ls'", "run"],
      ["x = `ls`", "run"],
      ["%x(ls)", "run"],
      ["IO.popen('ls')", "run"],
      ["require 'open3'\nOpen3.capture2('ls')", "run"],
      ["open('|ls')", "run"],
      ["FileUtils.rm_rf('/tmp/x')", "delete"],
      ["File.delete('a')", "delete"],
      ["Process.kill('KILL', pid)", "process"],
      ["eval(code)", "load"],
      ["obj.send(name)", "load"],
      ["Object.const_get(name)", "load"],
      ["require name", "load"],
      ["File.write(File.expand_path('~/.zshrc'), 'x')", "write"]
    ])
    expect(hardline("ruby", "%x(reboot)")).toBe(SHUTDOWN)
  })

  it("ordinary code stays quiet", () => {
    quiet("ruby", [
      "puts 'hello'",
      "[1, 2].each { |x| puts x }",
      "h = { system: 1 }",
      "obj.send(:to_s)",
      "require 'json'\nputs JSON.generate({ a: 1 })",
      "File.read('data.txt')",
      "=begin\nsystem('x')\n=end\nputs 1",
      "x.instance_eval { @y }"
    ])
  })
})

describe("php", () => {
  it("exec family, backticks, unlink, eval, variable functions, computed includes", () => {
    check("php", [
      ["<?php system('ls'); ?>", "run"],
      ["echo shell_exec('ls');", "run"],
      ["$x = `ls`;", "run"],
      ["passthru($cmd);", "run"],
      ["proc_open('ls', $d, $p);", "run"],
      ["call_user_func('system', 'id');", "run"],
      ["unlink('a.txt');", "delete"],
      ["posix_kill($pid, 9);", "process"],
      ["eval($code);", "load"],
      ["$f = 'system'; $f('id');", "load"],
      ["include $file;", "load"],
      ["call_user_func($fn);", "load"],
      ["file_put_contents('/home/agent/.bashrc', 'x');", "write"]
    ])
    expect(hardline("php", "<?php SYSTEM('rm -rf /');")).toBe(ROOT_DELETE)
  })

  it("ordinary code and inline text stay quiet", () => {
    quiet("php", [
      "echo 'hello';",
      "<html><p>system('rm -rf /') in prose</p><?php echo strlen('x'); ?></html>",
      "$a = array_map(fn($x) => $x * 2, [1]);",
      "function system_info() { return php_uname(); }",
      "$obj->exec();",
      "include 'config.php';",
      "// system('x')\n# exec('y')\n/* unlink('z') */\necho 1;"
    ])
  })
})

describe("shell and descriptions", () => {
  it("shell text goes to the shell rules", () => {
    expect(detectCode("shell", "rm -rf /", ENV)).toMatchObject({ hardline_description: ROOT_DELETE })
    expect(detectCode("shell", "ls", ENV).dangerous).toBe(false)
  })

  it("loaders of data that can run code: a planted pickle or YAML file is a planted script", () => {
    check("python", [
      ["import pickle\nwith open('d.pkl', 'rb') as f:\n    x = pickle.load(f)", "unpickle"],
      ["import pickle as pk\npk.loads(blob)", "unpickle"],
      ["from pickle import Unpickler\nUnpickler(f).load()", "unpickle"],
      ["import pandas as pd\ndf = pd.read_pickle('frame.pkl')", "unpickle"],
      ["import joblib\nmodel = joblib.load('m.joblib')", "unpickle"],
      ["import shelve\ndb = shelve.open('cache')", "unpickle"],
      ["import yaml\nyaml.load(f, Loader=yaml.Loader)", "unpickle"],
      ["import yaml\nyaml.unsafe_load(f)", "unpickle"],
      ["import yaml\nyaml.load(f)", "unpickle"],
      ["import numpy as np\nnp.load('a.npy', allow_pickle=True)", "unpickle"],
      ["import torch\ntorch.load('m.pt', weights_only=False)", "unpickle"],
      ["import pickle\nread = pickle.loads\nread(blob)", "unpickle"]
    ])
    check("ruby", [["Marshal.load(File.binread('x'))", "unpickle"], ["YAML.unsafe_load_file('c.yml')", "unpickle"]])
    quiet("python", [
      "import pickle\npickle.dump(x, f)",
      "import yaml\nyaml.safe_load(f)",
      "import yaml\nyaml.load(f, Loader=yaml.SafeLoader)",
      "import yaml\nyaml.load(f, yaml.CSafeLoader)",
      "import numpy as np\nnp.load('a.npy')",
      "import torch\ntorch.load('m.pt')",
      "import json\njson.load(f)"
    ])
    quiet("ruby", ["YAML.load(s)", "JSON.parse(s)"])
  })

  it("code descriptions are published", () => {
    expect(CODE_DESCRIPTIONS).toContain("python code runs a program")
    expect(CODE_DESCRIPTIONS).toContain("code loads code by a computed name")
  })

  it("a huge input fails closed", () => {
    expect(detectCode("python", "x = 1\n".repeat(200_000), ENV).dangerous).toBe(true)
  })
})

describe("code that writes a module, then loads code", () => {
  // The module is not there when the code is judged, and its text is a string: what runs cannot be read first.
  it("python: a file named like code (or by a computed name) written, and any load anywhere", () => {
    check("python", [
      ["import importlib\nwith open('plugin.py', 'w') as f:\n    f.write(src)\nimportlib.import_module('plugin')", "rewrite"],
      ["from pathlib import Path\nPath('pkg').mkdir()\n(Path('pkg') / '__init__.py').write_text(body)\nimport pkg", "rewrite"],
      ["import io\nio.open('tools.py', mode='w').write(body)\ndef go():\n    import tools\ngo()", "rewrite"],
      ["import codecs\ncodecs.open('x.pyw', 'a', 'utf-8').write(body)\nimport x", "rewrite"],
      ["import shutil\nshutil.copyfile('/tmp/blob', 'util.py')\nfrom util import run", "rewrite"],
      ["import shutil\nshutil.move(src, dst='lib/__init__.py')\nimport lib", "delete"],
      ["import runpy\nopen('job.py', 'x').write(body)\nrunpy.run_path('job.py')", "load"],
      ["import json\nopen('extra.pth', 'w').write('import os')\nimport site", "rewrite"],
      ["open('fast.so', 'wb').write(blob)\nimport fast", "rewrite"],
      // A bytecode cache is also a file Python runs implicitly.
      ["open('__pycache__/m.cpython-311.pyc', 'wb').write(blob)\nimport m", "write"],
      // A computed name: a variable, a joined name, a decoded string, an f-string field.
      ["import sys\nname = sys.argv[1]\nopen(name, 'w').write(body)\nimport json", "rewrite"],
      ["import os\nopen(os.path.join(here, mod), 'w').write(body)\n__import__('plugin')", "rewrite"],
      ["import base64\nopen(base64.b64decode(b'bS5weQ==').decode(), 'w').write(body)\nimport m", "rewrite"],
      ["n = 'agent'\nopen(f'{n}', 'w').write(body)\nimport agent", "rewrite"],
      ["from pathlib import Path\np = Path(d) / stem\np.write_bytes(blob)\nimport helper", "rewrite"],
      ["import os\nwith open(tmp, 'w') as f:\n    f.write(body)\nos.replace(tmp, 'cfg.py')\nimport cfg", "delete"],
      ["import zipfile\nzipfile.ZipFile('mods.zip').extractall()\nimport mod", "rewrite"],
      ["import exec_helper\nopen(target, 'w').write(body)\nexec(compile(open(target).read(), target, 'exec'))", "load"],
      // A key or an index picks a value the scan does not know.
      ["import json\nopen(cfg['out'], 'w').write(body)\nimport plugin", "rewrite"],
      ["import sys\nopen(sys.argv[2], 'w').write(body)\nimport plugin", "rewrite"]
    ])
  })

  it("python: data files, reads and named names stay quiet", () => {
    quiet("python", [
      "import json\nwith open('out.json', 'w') as f:\n    json.dump(data, f)",
      "import json, os\nwith open(os.path.join(out_dir, 'report.txt'), 'w') as f:\n    f.write(text)",
      "import csv\npath = 'rows.csv'\nwith open(path, 'w', newline='') as f:\n    csv.writer(f).writerow([1])",
      "import json\nfrom pathlib import Path\nPath(out, 'result.json').write_text(json.dumps(r))",
      "import json\nwith open(name + '.json', 'w') as f:\n    f.write('{}')",
      "import json\nwith open('helper.py') as f:\n    print(len(f.read()))",
      "import helper\nprint(helper.VERSION)",
      "import re\ns = text.replace('.py', '.txt')\nprint(re.sub('a', 'b', s))",
      // Code that writes a module but loads nothing: the file is judged when something runs it.
      "open('gen.py', 'w').write('print(1)\\n')",
      "import zipfile\nzipfile.ZipFile('a.zip').extractall('unpacked')",
      // A name built from a counter: a number ends no name in `.py`.
      "import os\n_seq = 0\ndef send(d, payload):\n    global _seq\n    _seq += 1\n    name = '%06d' % _seq\n    with open(os.path.join(d, 'req_' + name), 'wb') as f:\n        f.write(payload)"
    ])
    // The tools module every execute_code script imports (it writes its requests to files on some backends).
    quiet("python", [pythonHelperSource(["terminal", "read_file", "write_file", "patch", "search_files", "web_extract"])])
  })

  it("node: a file named like code (or computed) written, and a load a file can provide", () => {
    check("node", [
      ["const fs = require('fs')\nfs.writeFileSync('plugin.js', src)\nrequire('./plugin')", "rewrite"],
      ["const { appendFileSync } = require('fs')\nappendFileSync('lib/index.mjs', src)\nconst m = require('./lib')", "rewrite"],
      ["import { writeFile } from 'node:fs/promises'\nawait writeFile('x.cjs', src)\nimport('./x.cjs')", "rewrite"],
      // (A write into node_modules is a write where code runs since round 9: that finding comes first.)
      ["const fse = require('fs-extra')\nfse.outputFileSync('node_modules/left-pad/index.js', src)\nrequire('left-pad')", "write"],
      ["const fs = require('fs')\nfs.renameSync(tmp, 'main.js')\nrequire('./main.js')", "rewrite"],
      ["const fs = require('fs')\nfs.writeFileSync(target, src)\nrequire('./x')", "rewrite"]
    ])
    quiet("node", [
      "const fs = require('fs')\nfs.writeFileSync('out.json', JSON.stringify(data))\nconsole.log(require('path').basename('a'))",
      "const fs = require('fs')\nfs.writeFileSync(p, text)\nconst os = require('node:os')",
      "const fs = require('fs')\nfs.writeFileSync('bundle.js', code)"
    ])
  })

  it("the finding is the unreadable script's description", () => {
    expect(codeDescription("python", "rewrite")).toBe(UNREADABLE_SCRIPT_DESCRIPTION)
    expect(CODE_DESCRIPTIONS).toContain(UNREADABLE_SCRIPT_DESCRIPTION)
  })
})
