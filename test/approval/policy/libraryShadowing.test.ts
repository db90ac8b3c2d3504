/**
 * Files named like a module of the interpreter's own library, in a folder
 * searched before that library: the library code a program imports loads
 * them by name (argparse → gettext.py, logging → traceback.py, File::Temp →
 * File/Path.pm), so they run though the program never names them. Beside a
 * Python script, in the working directory of `python -m`, on PYTHONPATH and
 * on PERL5LIB / `-I`. Project modules with other names are not read for it.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { PERL_LIBRARY_MODULES, PYTHON_LIBRARY_MODULES } from "../../../src/layers/approval/detect/code/libraryModules.js"
import { UNREADABLE_SCRIPT_DESCRIPTION } from "../../../src/layers/approval/policy/judge.js"
import type { CommandSurroundings } from "../../../src/services/Approval.js"
import { judgeIn, world } from "../../support/judgeWorld.js"

const judged = (command: string, surroundings: CommandSurroundings) =>
  judgeIn(command, surroundings).pipe(Effect.map((v) => ({ description: v.detection.description, note: v.note ?? "" })))

const EVIL_PY = "import shutil\nshutil.rmtree('/home/agent/project')\n"
const EVIL_PM = "package X; BEGIN { system('rm', '-rf', '/home/agent/project') } 1;\n"
const ARGPARSE_APP = "import argparse\nprint(argparse.ArgumentParser().parse_args([]))\n"

describe("modules named like the interpreter's own library, planted where it looks first", () => {
  it("knows the library's names (Python's stdlib, perl's core modules), and nothing a project would call its own", () => {
    expect(["gettext", "traceback", "difflib", "locale", "email", "json", "_strptime", "tomllib"].every((n) => PYTHON_LIBRARY_MODULES.has(n))).toBe(true)
    expect(["helper", "app", "requests", "utils"].some((n) => PYTHON_LIBRARY_MODULES.has(n))).toBe(false)
    expect(["Exporter", "File::Basename", "File::Path", "Carp", "Scalar::Util", "strict"].every((n) => PERL_LIBRARY_MODULES.has(n))).toBe(true)
    expect(PERL_LIBRARY_MODULES.has("My::App")).toBe(false)
  })

  it.effect("beside a python script: a library-named module runs though the script only imports the library", () =>
    Effect.gen(function*() {
      const plain = yield* judged("python3 app.py", world({ "/w/app.py": ARGPARSE_APP, "/w/gettext.py": EVIL_PY }))
      expect(plain.description).toBe("python code deletes or moves files")
      expect(plain.note).toContain("gettext.py")
      // Run from elsewhere, by path: the script's own folder is searched, not the working directory.
      expect((yield* judged("python3 /p/app.py", world({ "/p/app.py": "import logging\n", "/p/traceback.py": EVIL_PY }))).description)
        .toBe("python code deletes or moves files")
      // A whole package by a library package's name: every module in it is the library's.
      expect((yield* judged("python3 app.py", world({ "/w/app.py": "import smtplib\n", "/w/email/__init__.py": "", "/w/email/utils.py": EVIL_PY }))).description)
        .toBe("python code deletes or moves files")
    }))

  it.effect("a compiled module by a library name stands for code that cannot be read", () =>
    Effect.gen(function*() {
      expect((yield* judged("python3 app.py", world({ "/w/app.py": ARGPARSE_APP, "/w/gettext.cpython-311-x86_64-linux-gnu.so": "\u0000ELF" }))).description)
        .toBe(UNREADABLE_SCRIPT_DESCRIPTION)
    }))

  it.effect("python -m puts the working directory first: a library-named module there runs", () =>
    Effect.gen(function*() {
      expect((yield* judged("python3 -m json.tool data.json", world({ "/w/data.json": "{}", "/w/gettext.py": EVIL_PY }))).description)
        .toBe("python code deletes or moves files")
      expect((yield* judged("python3 -m calendar 2025", world({ "/w/locale.py": EVIL_PY }))).description).toBe("python code deletes or moves files")
    }))

  it.effect("on PYTHONPATH, exported or inline", () =>
    Effect.gen(function*() {
      const files = { "/p/app.py": "import unittest\n", "/w/lib/difflib.py": EVIL_PY }
      expect((yield* judged("python3 /p/app.py", world(files, { PYTHONPATH: "/w/lib" }))).description).toBe("python code deletes or moves files")
      expect((yield* judged("PYTHONPATH=lib python3 /p/app.py", world(files))).description).toBe("python code deletes or moves files")
    }))

  it.effect("perl: core module files (nested too) on PERL5LIB or -I", () =>
    Effect.gen(function*() {
      const basename = { "/w/ok.pl": "use File::Basename;\nprint basename('/a/b');\n", "/w/lib/Exporter.pm": EVIL_PM }
      expect((yield* judged("PERL5LIB=lib perl ok.pl", world(basename))).description).toBe("recursive delete")
      const temp = { "/w/ok.pl": "use File::Temp qw(tempfile);\n", "/w/lib/File/Path.pm": EVIL_PM }
      expect((yield* judged("perl -Ilib ok.pl", world(temp))).description).toBe("recursive delete")
    }))

  it.effect("more library-named files than can be read: the command is asked about", () =>
    Effect.gen(function*() {
      const decoys = Object.fromEntries([...PYTHON_LIBRARY_MODULES].filter((n) => /^[a-z]\w+$/.test(n)).slice(0, 60).map((n) => [`/w/${n}.py`, "x = 1\n"]))
      expect((yield* judged("python3 app.py", world({ "/w/app.py": ARGPARSE_APP, ...decoys }))).description).toBe(UNREADABLE_SCRIPT_DESCRIPTION)
    }))

  it.effect("ordinary projects stay quiet: other module names, harmless library-named files, perl without a lib folder", () =>
    Effect.gen(function*() {
      const project = { "/w/app.py": ARGPARSE_APP, "/w/cleanup.py": EVIL_PY, "/w/helpers.py": "def f():\n    return 1\n" }
      expect((yield* judged("python3 app.py", world(project))).description).toBe(null)
      expect((yield* judged("python3 app.py", world({ ...project, "/w/types.py": "Point = tuple\n" }))).description).toBe(null)
      expect((yield* judged("python3 -m json.tool data.json", world({ "/w/data.json": "{}" }))).description).toBe(null)
      expect((yield* judged("perl ok.pl", world({ "/w/ok.pl": "use File::Basename;\n", "/w/lib/Exporter.pm": EVIL_PM }))).description).toBe(null)
    }))
})

describe("folders a perl script puts before the library itself", () => {
  it.effect("use lib 'lib' / use lib qw(lib): core module files there run", () =>
    Effect.gen(function*() {
      for (const script of ["use lib 'lib';\nuse File::Temp;\n", "use lib qw(lib t/lib);\nuse File::Temp;\n", "use lib \"lib\", 'x';\nuse File::Temp;\n"]) {
        expect([script, (yield* judged("perl ok.pl", world({ "/w/ok.pl": script, "/w/lib/File/Path.pm": EVIL_PM }))).description])
          .toEqual([script, "recursive delete"])
      }
      expect((yield* judged("perl ok.pl", world({ "/w/ok.pl": "use lib 'lib';\nuse File::Temp;\n", "/w/lib/My/App.pm": "package My::App; 1;\n" }))).description).toBe(null)
    }))
})

describe("modules named like an installed package's", () => {
  // python3 on PATH, its installation's site-packages holding requests and what it imports.
  const installation = {
    "/usr/bin/python3": "\u0000ELF",
    "/usr/lib/python3.12/site-packages/requests/__init__.py": "",
    "/usr/lib/python3.12/site-packages/idna/__init__.py": "",
    "/usr/lib/python3.12/site-packages/six.py": "",
    "/usr/lib/python3.12/site-packages/charset_normalizer/md.cpython-312-x86_64-linux-gnu.so": "\u0000ELF",
    "/usr/lib/python3.12/site-packages/requests-2.32.0.dist-info/METADATA": ""
  }
  const PATH = { PATH: "/usr/bin:/bin" }

  it.effect("a file or folder by an installed package's name beside a script runs when the package imports it", () =>
    Effect.gen(function*() {
      const app = { "/w/app.py": "import requests\n" }
      expect((yield* judged("python3 app.py", world({ ...installation, ...app, "/w/idna.py": EVIL_PY }, PATH))).description).toBe("python code deletes or moves files")
      expect((yield* judged("python3 app.py", world({ ...installation, ...app, "/w/six.py": EVIL_PY }, PATH))).description).toBe("python code deletes or moves files")
      expect((yield* judged("python3 app.py", world({ ...installation, ...app, "/w/charset_normalizer/__init__.py": EVIL_PY }, PATH))).description)
        .toBe("python code deletes or moves files")
      // Under python -m, in the working directory.
      expect((yield* judged("python3 -m requests.help", world({ ...installation, "/w/idna.py": EVIL_PY }, PATH))).description).toBe("python code deletes or moves files")
    }))

  it.effect("behind a version manager's shim (pyenv): the packages of every version it installed", () =>
    Effect.gen(function*() {
      const pyenv = {
        "/opt/pyenv/shims/python3": "#!/usr/bin/env bash\nexec pyenv exec python3 \"$@\"\n",
        "/opt/pyenv/versions/3.11.7/lib/python3.11/site-packages/pluggy/__init__.py": "",
        "/w/app.py": "import pytest\n",
        "/w/pluggy.py": EVIL_PY
      }
      expect((yield* judged("python3 app.py", world(pyenv, { PATH: "/opt/pyenv/shims:/usr/bin:/bin" }))).description).toBe("python code deletes or moves files")
    }))

  it.effect("names no installed package has stay unread; nothing installed, nothing more is read", () =>
    Effect.gen(function*() {
      const app = { "/w/app.py": "import requests\n", "/w/cleanup.py": EVIL_PY }
      expect((yield* judged("python3 app.py", world({ ...installation, ...app }, PATH))).description).toBe(null)
      expect((yield* judged("python3 app.py", world({ ...app, "/w/idna.py": EVIL_PY }, PATH))).description).toBe(null)
    }))
})
