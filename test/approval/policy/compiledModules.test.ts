/**
 * Compiled code Python runs instead of the source the gate reads: a planted
 * bytecode cache that Python does not check against its source (unchecked
 * hash-based), a sourceless `.pyc` where an imported module's source is
 * missing, an extension module beside the source (found first), and writes
 * that plant any of them. A cache Python writes itself (timestamp-based, or
 * checked hash-based) is used only while it matches the source, which is
 * judged: a project's second run stays quiet.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { detectCommand } from "../../../src/layers/approval/detect/detect.js"
import { BYTECODE_DESCRIPTION, implicitlyExecuted } from "../../../src/layers/approval/detect/implicitExec.js"
import { cacheFor, extensionModuleFor, uncheckedHashPyc } from "../../../src/layers/approval/policy/compiledModules.js"
import { UNREADABLE_SCRIPT_DESCRIPTION } from "../../../src/layers/approval/policy/judge.js"
import type { CommandSurroundings } from "../../../src/services/Approval.js"
import { judgeIn, JUDGE_ENV as ENV, world } from "../../support/judgeWorld.js"

/** A `.pyc` header: a magic number, the flags word, then 8 bytes of source stamp or hash. */
const pyc = (flags: number): Uint8Array => {
  const b = new Uint8Array(16 + 8)
  b.set([0xa7, 0x0d, 0x0d, 0x0a])
  new DataView(b.buffer).setUint32(4, flags, true)
  return b
}
const UNCHECKED = pyc(0b01)
const CHECKED = pyc(0b11)
const TIMESTAMP = pyc(0)

const judged = (command: string, surroundings: CommandSurroundings) => judgeIn(command, surroundings).pipe(Effect.map((v) => v.detection.description))

const APP = "import helper\nhelper.hi()\n"
const HELPER = "def hi():\n    print('hi')\n"

describe("bytecode Python runs instead of a module's source", () => {
  it("reads the flags of a cache header and the names Python gives caches and extension modules", () => {
    expect([UNCHECKED, CHECKED, TIMESTAMP].map(uncheckedHashPyc)).toEqual([true, false, false])
    // Python rejects a header too short to hold the flags and the stamp, and compiles the source instead.
    expect(uncheckedHashPyc(UNCHECKED.slice(0, 8))).toBe(false)
    expect(["helper.cpython-311.pyc", "helper.cpython-312.opt-1.pyc", "helper2.cpython-311.pyc", "helper.pyc"].map((n) => cacheFor("helper", n))).toEqual([
      true, true, false, false
    ])
    expect(["helper.so", "helper.abi3.so", "helper.cpython-311-x86_64-linux-gnu.so", "helper.pyd", "helper.py", "helpers.so"].map((n) => extensionModuleFor("helper", n)))
      .toEqual([true, true, true, true, false, false])
  })

  it.effect("an unchecked hash-based cache of an imported module needs approval; a cache Python wrote itself does not", () =>
    Effect.gen(function*() {
      const base = { "/w/app.py": APP, "/w/helper.py": HELPER }
      expect(yield* judged("python3 app.py", world({ ...base, "/w/__pycache__/helper.cpython-311.pyc": UNCHECKED }))).toBe(UNREADABLE_SCRIPT_DESCRIPTION)
      expect(yield* judged("python3 app.py", world({ ...base, "/w/__pycache__/helper.cpython-313.opt-2.pyc": UNCHECKED }))).toBe(UNREADABLE_SCRIPT_DESCRIPTION)
      // A package's __init__, found through `from pkg import x`.
      const pkg = { "/w/main.py": "from tools import run\nrun()\n", "/w/tools/__init__.py": "def run():\n    pass\n" }
      expect(yield* judged("python3 main.py", world({ ...pkg, "/w/tools/__pycache__/__init__.cpython-312.pyc": UNCHECKED }))).toBe(UNREADABLE_SCRIPT_DESCRIPTION)
      // `python -m` runs a module through the import system, caches included.
      expect(yield* judged("python3 -m helper", world({ ...base, "/w/__pycache__/helper.cpython-311.pyc": UNCHECKED }))).toBe(UNREADABLE_SCRIPT_DESCRIPTION)
      // Python's own caches: timestamp-based, or hash-based checked against the source.
      expect(yield* judged("python3 app.py", world({ ...base, "/w/__pycache__/helper.cpython-311.pyc": TIMESTAMP, "/w/__pycache__/app.cpython-311.pyc": UNCHECKED })))
        .toBe(null)
      expect(yield* judged("python3 app.py", world({ ...base, "/w/__pycache__/helper.cpython-311.pyc": CHECKED }))).toBe(null)
      expect(yield* judged("python3 app.py", world(base))).toBe(null)
    }))

  it.effect("a task's PYTHONPYCACHEPREFIX moves the caches: they are looked for there too", () =>
    Effect.gen(function*() {
      const files = { "/w/app.py": APP, "/w/helper.py": HELPER, "/tmp/pyc/w/helper.cpython-311.pyc": UNCHECKED }
      expect(yield* judged("python3 app.py", world(files, { PYTHONPYCACHEPREFIX: "/tmp/pyc" }))).toBe(UNREADABLE_SCRIPT_DESCRIPTION)
      expect(yield* judged("python3 app.py", world(files))).toBe(null)
    }))

  it.effect("a sourceless .pyc or an extension module where Python looks for the module needs approval", () =>
    Effect.gen(function*() {
      expect(yield* judged("python3 app.py", world({ "/w/app.py": APP, "/w/helper.pyc": UNCHECKED }))).toBe(UNREADABLE_SCRIPT_DESCRIPTION)
      expect(yield* judged("python3 app.py", world({ "/w/app.py": APP, "/w/helper.py": HELPER, "/w/helper.pyc": TIMESTAMP }))).toBe(UNREADABLE_SCRIPT_DESCRIPTION)
      expect(yield* judged("python3 app.py", world({ "/w/app.py": APP, "/w/helper.py": HELPER, "/w/helper.cpython-311-x86_64-linux-gnu.so": "\u007fELF" })))
        .toBe(UNREADABLE_SCRIPT_DESCRIPTION)
      // Without a way to list, the usual extension names are still looked for, and a cache folder cannot be trusted.
      expect(yield* judged("python3 app.py", world({ "/w/app.py": APP, "/w/helper.py": HELPER, "/w/helper.abi3.so": "\u007fELF" }, {}, false)))
        .toBe(UNREADABLE_SCRIPT_DESCRIPTION)
      expect(yield* judged("python3 app.py", world({ "/w/app.py": APP, "/w/helper.py": HELPER, "/w/__pycache__/helper.cpython-311.pyc": TIMESTAMP }, {}, false)))
        .toBe(UNREADABLE_SCRIPT_DESCRIPTION)
      // An unrelated compiled file beside the script is not loaded for this import.
      expect(yield* judged("python3 app.py", world({ "/w/app.py": APP, "/w/helper.py": HELPER, "/w/other.pyc": UNCHECKED, "/w/libfoo.so": "\u007fELF" }))).toBe(null)
    }))

  it.effect("a script that writes a module and imports it needs approval, wherever it is run from", () =>
    Effect.gen(function*() {
      const writer = "import sys, os\nsys.path.insert(0, '.')\np = os.path.join(os.path.dirname(__file__), 'job.py')\nwith open(p, 'w') as f:\n    f.write(SRC)\nimport job\n"
      expect(yield* judged("python3 w.py", world({ "/w/w.py": writer }))).toBe(UNREADABLE_SCRIPT_DESCRIPTION)
      expect(yield* judged("python3 ok.py", world({ "/w/ok.py": "import json\nwith open('out.json', 'w') as f:\n    json.dump({}, f)\n" }))).toBe(null)
    }))

  it("writing a bytecode cache or any .pyc plants code, whichever tool writes it", () => {
    for (const path of ["/w/__pycache__/helper.cpython-311.pyc", "/w/pkg/__pycache__/x.cpython-312.opt-1.pyc", "/w/helper.pyc", "/w/old.pyo", "/w/__pycache__"]) {
      expect([path, implicitlyExecuted(path, { home: "/home/agent" })]).toEqual([path, BYTECODE_DESCRIPTION])
    }
    for (const command of [
      "mkdir -p __pycache__ && printf '\\x01' | base64 -d > __pycache__/util.cpython-312.pyc",
      "cp /tmp/blob.bin lib/__pycache__/core.cpython-311.pyc",
      "mv build/x.pyc ./util.pyc",
      "xxd -r -p blob.hex | tee __pycache__/a.cpython-311.pyc >/dev/null",
      "cp -r /tmp/cache __pycache__"
    ]) {
      expect([command, detectCommand(command, ENV).description]).toEqual([command, BYTECODE_DESCRIPTION])
    }
    for (const command of ["rm -rf __pycache__", "find . -name '*.pyc' -print", "ls __pycache__", "python3 -m py_compile app.py", "echo '__pycache__/' >> .gitignore"]) {
      expect([command, detectCommand(command, ENV).description === BYTECODE_DESCRIPTION]).toEqual([command, false])
    }
    // A script's own ordinary paths are not caches.
    expect(implicitlyExecuted("/w/pycache_notes.txt", { home: "/home/agent" })).toBe(null)
  })
})
