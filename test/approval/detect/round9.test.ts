/**
 * Round 9: the remainders of rounds 5, 6 and 8 closed by class. A variable that makes programs load or run code set
 * by the shell's other ways of assigning (an expansion, a loop, an element) and exported by a later call of a
 * persistent shell; a capitalising attribute is in test/terminal/persistentShell.test.ts. Python's calls of a method
 * named like a function that runs programs on an object the rules cannot name (IPython's shell, a module held in a
 * variable) and the consoles a script starts. Each table holds several members of its class; ordinary forms stay quiet.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { judgeIn, world } from "../../support/judgeWorld.js"
import type { DetectionEnv } from "../../../src/layers/approval/detect/detect.js"
import { detectCommand } from "../../../src/layers/approval/detect/detect.js"
import { detectCode } from "../../../src/layers/approval/detect/code/detectCode.js"
import { implicitlyExecuted, LIBRARY_DESCRIPTION } from "../../../src/layers/approval/detect/implicitExec.js"

const ENV: DetectionEnv = { home: "/home/agent", hermesHome: "/home/agent/.hermes-effect", env: {} }
const EXPORTS = { PATH: "/usr/bin:/bin", HOME: "/home/agent", PAGER: "less" }
/** A later call of a persistent shell: its exports are known, any other name may hold what an earlier call left. */
const PERSISTENT: DetectionEnv = { ...ENV, variables: EXPORTS, shellKeepsVariables: true, shellFunctions: [] }
const asks = (command: string, env: DetectionEnv = ENV) => [command, detectCommand(command, env).dangerous]

describe("variables that make programs run code, set by the shell's other assignments", () => {
  it("asks for an assigning expansion, a loop variable and an element, as for NAME=value", () => {
    for (const command of [
      ": ${LD_PRELOAD:=./x.so}; export LD_PRELOAD; ls",
      ": \"${PIP_PYTHON:=./x.sh}\"",
      "echo ${CC=./x} >/dev/null; export CC; make hello",
      "cat < /dev/null > ${BASH_ENV:=x.sh}",
      ": ${MAKEFLAGS:=CC=./x}",
      ": ${NODE_OPTIONS:=--require=./x.js}",
      ": ${PS4:='$(touch x)'}",
      "for LD_PRELOAD in ./x.so; do export LD_PRELOAD; done; ls",
      "for PIP_PYTHON in ./x.sh; do :; done",
      "select MAKEFLAGS in CC=./x; do break; done",
      "for PAGER; do :; done",
      "for EDITOR in $(cat f); do :; done",
      "PS4[0]='$(touch x) '; set -x; :",
      "PIP_PYTHON[0]=./x.sh",
      "declare BASH_ENV[0]=./x.sh",
      "EXECIGNORE='/usr/bin/*:/bin/*'",
      "echo $(( ${BASH_ENV:=10} ))",
      "(( ${BASH_ENV:=10} ))",
      "r=BASH_ENV; : ${!r:=./x.sh}",
      "exec {BASH_ENV}>/dev/null; export BASH_ENV",
      "exec {LD_PRELOAD}</dev/null",
      "echo \"${BASH_ENV:=$(pwd)/x.sh}\"",
      "cat <<EOF\n${BASH_ENV:=x.sh}\nEOF"
    ]) {
      expect(asks(command)).toEqual([command, true])
    }
  })

  it("stays quiet for ordinary defaults and loops", () => {
    for (const command of [": ${FOO:=bar}", "echo ${HOME:-/tmp}", ": ${CC:=gcc}", "for f in *.txt; do echo $f; done", "for PAGER in less more; do echo $PAGER; done", "x[0]=1; echo ${x[0]}", "exec {fd}>/tmp/x; echo hi >&$fd", "echo '${BASH_ENV:=x}'", "echo ${x:-${HOME}}", ": ${XDG_CONFIG_HOME:=$HOME/.config}", ": ${EDITOR:=vim}"]) {
      expect(asks(command)).toEqual([command, false])
    }
  })
})

describe("a persistent shell: exporting a value an earlier call left unexported", () => {
  it("asks for a bare export of such a variable the exports do not hold", () => {
    for (const command of ["export PIP_PYTHON", "export LD_PRELOAD", "export CC", "export MAKEFLAGS", "declare -x PIP_PYTHON", "typeset -gx BASH_ENV", "export -- FOO NODE_OPTIONS", "local -x PYTHONSTARTUP"]) {
      expect(asks(command, PERSISTENT)).toEqual([command, true])
    }
  })

  it("stays quiet for other names, for names the exports hold, and without a persistent shell", () => {
    for (const command of ["export FOO", "export PATH", "export PAGER", "export -n PIP_PYTHON", "declare -r CC", "export FOO=bar"]) {
      expect(asks(command, PERSISTENT)).toEqual([command, false])
    }
    expect(asks("export PIP_PYTHON", { ...ENV, variables: EXPORTS })).toEqual(["export PIP_PYTHON", false])
  })

  it.effect("where the judge looks the exports up, one they hold is quiet and one they lack asks", () =>
    Effect.gen(function*() {
      const surroundings = { ...world({ "/w/x": "x" }, EXPORTS), shellFunctions: Effect.succeed<ReadonlyArray<string> | undefined>([]) }
      for (const [command, dangerous] of [["export PAGER", false], ["export PATH", false], ["export PIP_PYTHON", true], ["declare -x BASH_ENV", true]] as const) {
        expect([command, (yield* judgeIn(command, surroundings)).detection.dangerous]).toEqual([command, dangerous])
      }
    }))
})

const code = (text: string) => [text, detectCode("python", text, ENV).dangerous]

describe("python: a method named like a function that runs programs, on an object the rules cannot name", () => {
  it("asks for IPython's shell under any name, a module held in a variable, and consoles a script starts", () => {
    for (const text of [
      "sh = get_ipython()\nsh.system(cmd)",
      "ip = get_ipython()\nip.getoutput(cmd)",
      "shell.system_raw(cmd)",
      "get_ipython().run_line_magic('system', cmd)",
      "get_ipython().run_cell(cell)",
      "shell.run_cell_magic('bash', '', text)",
      "o = __import__('os')\no.system(cmd)",
      "import importlib as il\nm = il.import_module('shutil')\nm.rmtree(d)",
      "from importlib import import_module\nm = import_module('subprocess')\nm.run(args)",
      "import os\no = os\no.system(cmd)",
      "x = 1; import os as o\no.system(cmd)",
      "try: import subprocess as sp\nexcept ImportError: pass\nsp.call(args)",
      "import IPython\nIPython.embed()",
      "from IPython import embed as e\ne()",
      "from IPython.terminal.embed import InteractiveShellEmbed\nInteractiveShellEmbed()()",
      "import code\ncode.interact(local={})",
      "import code as c\nc.InteractiveConsole().interact()",
      "import code as c\nf = c.interact\nf()",
      "import code\nvars(code)['interact']()",
      "import code\ngetattr(code, 'inter' + 'act')()",
      "breakpoint()",
      "import pdb; pdb.set_trace()",
      "import ipdb\nipdb.set_trace()",
      "dbg.set_trace()",
      "from ptpython.repl import embed\nembed(globals(), locals())",
      "o = __import__('os', globals(), locals(), [], 0)\no.remove(p)",
      "import importlib\ns = importlib.import_module('shutil', None)\ns.move(a, b)",
      "from invoke import run\nrun(cmd)",
      "from plumbum.cmd import rm\nrm('-rf', d)",
      "import pip\npip.main(['install', '.'])",
      "from pip._internal.cli.main import main\nmain(['install', '-e', '.'])",
      "import _posixsubprocess\n_posixsubprocess.fork_exec(a)",
      "from fabric import Connection\nConnection('h').run(cmd)",
      "import marshal, types\nf = types.FunctionType(marshal.loads(data), globals())\nf()"
    ]) {
      expect(code(text)).toEqual([text, true])
    }
  })

  it("stays quiet for platform.system(), a module's attribute held in a variable, and embeddings", () => {
    for (const text of ["import platform\nprint(platform.system())", "import os\npath = os.path\nprint(path.join('a', 'b'))", "import json\nj = json\nprint(j.dumps({}))", "vectors = model.embed(texts)", "print(sys.argv)", "j = __import__('json', {})\nprint(j.dumps(1))"]) {
      expect(code(text)).toEqual([text, false])
    }
  })
})

describe("a project's node_modules: a file written there by hand runs at the next require", () => {
  it("asks for writes into it, by any writer; reading it and linking to it stay quiet", () => {
    for (const path of ["/w/node_modules/lodash/index.js", "/w/app/node_modules/.bin/jest"]) {
      expect([path, implicitlyExecuted(path, { home: "/home/agent" })]).toEqual([path, LIBRARY_DESCRIPTION])
    }
    for (const command of ["cp x.js node_modules/lodash/index.js", "echo 'module.exports = 1' > node_modules/left-pad/index.js", "tee node_modules/.bin/jest < x"]) {
      expect(asks(command)).toEqual([command, true])
    }
    expect(code("open('node_modules/lodash/index.js', 'w').write(src)")).toEqual(["open('node_modules/lodash/index.js', 'w').write(src)", true])
    for (const command of ["ls node_modules", "cat node_modules/x/package.json", "ln -s node_modules/.bin/tsc tsc", "npm install"]) expect(asks(command)).toEqual([command, false])
  })
})
