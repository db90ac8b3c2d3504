/**
 * Local code pip and pytest run, judged through the files they would read (red-team round 3, findings 4 and 5): a
 * project pip builds however it is named (requirement and constraint files, nested ones, `-e name`, `file:` URLs,
 * `name @ file:…`, a project's own local dependencies and in-tree backend), and every conftest.py pytest may import
 * from its root down to the paths it is given. A file that cannot be read, or that the command writes itself, asks.
 * Everyday commands on a harmless project stay quiet.
 */
import { posix } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { DetectionEnv } from "../../../src/layers/approval/detect/detect.js"
import { codeDescription } from "../../../src/layers/approval/detect/descriptions.js"
import { judgeRequest, UNREADABLE_SCRIPT_DESCRIPTION } from "../../../src/layers/approval/policy/judge.js"
import type { CommandSurroundings } from "../../../src/services/Approval.js"
import { JUDGE_DETECTORS } from "../../support/judgeWorld.js"

const ENV: DetectionEnv = { home: "/home/agent", hermesHome: "/home/agent/.hermes-effect", env: {} }
const DETECTORS = JUDGE_DETECTORS

type Files = Readonly<Record<string, string>>

/** Surroundings holding only these files (absolute paths); directories are the files' parents; the task is in /w. */
const world = (files: Files, variables: Readonly<Record<string, string>> = {}): CommandSurroundings => {
  const dirs = new Set(Object.keys(files).flatMap((p) => p.split("/").slice(1, -1).map((_, k, parts) => `/${parts.slice(0, k + 1).join("/")}`)))
  dirs.add("/")
  const entries = (dir: string) =>
    [...new Set([...Object.keys(files), ...dirs].filter((p) => p.startsWith(dir === "/" ? "/" : `${dir}/`) && p !== dir).map((p) => p.slice(dir === "/" ? 1 : dir.length + 1).split("/")[0] ?? ""))]
      .map((name) => ({ name, type: dirs.has(`${dir === "/" ? "" : dir}/${name}`) ? ("directory" as const) : ("file" as const) }))
  // `a/../b` is `b` (no symlinks here).
  const at = posix.normalize
  return {
    cwd: Effect.succeed("/w"),
    variables: Effect.succeed(variables),
    readText: (path) => Effect.succeed(Option.fromNullable(files[at(path)])),
    realPath: (path) => Effect.succeed(at(path)),
    listDir: (dir) => Effect.succeed(dirs.has(at(dir)) ? entries(at(dir)) : []),
    fileKind: (path) => Effect.succeed(files[at(path)] !== undefined ? "file" : dirs.has(at(path)) ? "directory" : "missing"),
    sharesHostFiles: true
  }
}

const judged = (command: string, files: Files, variables: Readonly<Record<string, string>> = {}) =>
  judgeRequest({ command, context: { taskId: "t" }, backend: { kind: "local", isolated: false }, path: "foreground", surroundings: world(files, variables) }, ENV, DETECTORS).pipe(
    Effect.map((v) => v.detection.description)
  )

const DELETES = codeDescription("python", "delete")
const EVIL = "import shutil\nshutil.rmtree('/w/victim')\n"
const EVIL_SETUP = `${EVIL}from setuptools import setup\nsetup(name='pkg', version='0.1')\n`
const SETUP = "from setuptools import setup\nsetup(name='app', version='0.1')\n"
const TEST = "def test_ok():\n    assert True\n"
const CONFTEST = "import pytest\n\n\n@pytest.fixture\ndef answer():\n    return 42\n"

/** A planted project /w/pkg and the given files. */
const withPkg = (files: Files): Files => ({ "/w/pkg/setup.py": EVIL_SETUP, ...files })

describe("pip: local projects named other than by a path operand are read", () => {
  it.effect("through requirement and constraint files, nested ones, and every spelling of a local project", () =>
    Effect.gen(function*() {
      const cases: ReadonlyArray<readonly [string, Files]> = [
        ["pip install --no-index -r requirements.txt", { "/w/requirements.txt": "# app\n./pkg\n" }],
        ["pip install -c c.txt -r r.txt", { "/w/c.txt": "pkg @ file:///w/pkg\n", "/w/r.txt": "pkg\n" }],
        ["pip install --requirement=reqs/dev.txt", { "/w/reqs/dev.txt": "-r base.txt\n", "/w/reqs/base.txt": "--editable=pkg\n" }],
        ["pip install -r r.txt", { "/w/r.txt": "-c file:///w/pins.txt\n", "/w/pins.txt": "pkg @ file:pkg\n" }],
        ["pip install -Ur r.txt", { "/w/r.txt": "-e file:./pkg#egg=pkg\n" }],
        ["pip install -e pkg", {}],
        ["pip install --editable=pkg", {}],
        ["pip install pkg", {}],
        ["pip install pkg[dev]", {}],
        ["pip install file:///w/pkg", {}],
        ["pip install file://localhost/w/pkg", {}],
        ["pip install 'pkg @ file:///w/pkg'", {}],
        ["pip wheel -w out -r r.txt", { "/w/r.txt": "-e pkg\n" }],
        ["python3 -m pip download -d dl -r r.txt", { "/w/r.txt": "file:pkg\n" }],
        ["pip install --dry-run pkg", {}],
        ["uv pip install -e pkg", {}],
        ["python3 -m build pkg", {}],
        // Paths in a requirements file count from where pip runs; nested files from the file naming them.
        ["cd sub && pip install -r ../r.txt", { "/w/r.txt": "./pkg\n", "/w/sub/pkg/setup.py": EVIL_SETUP }],
        // The project's own files make pip build more: a local dependency, an in-tree build backend, a setuptools attr.
        ["pip install ./app", { "/w/app/setup.py": SETUP, "/w/app/pyproject.toml": "[project]\ndependencies = [\"pkg @ file:///w/pkg\"]\n" }],
        ["pip install ./app", { "/w/app/setup.py": "from setuptools import setup\nsetup(install_requires=['pkg @ file:///w/pkg'])\n" }],
        ["pip install ./app", { "/w/app/pyproject.toml": "[build-system]\nrequires = []\nbuild-backend = \"backend\"\nbackend-path = [\".\"]\n", "/w/app/backend.py": EVIL }],
        ["pip install ./app", { "/w/app/setup.cfg": "[metadata]\nversion = attr: app.__version__\n", "/w/app/src/app/__init__.py": EVIL }]
      ]
      for (const [command, files] of cases) expect([command, yield* judged(command, withPkg(files))]).toEqual([command, DELETES])
    }))

  it.effect("a requirements file that cannot be read, or that the command writes, asks; so does a packed source", () =>
    Effect.gen(function*() {
      const cases: ReadonlyArray<readonly [string, Files]> = [
        ["pip install -r missing.txt", {}],
        ["pip install -r \"$(cat name.txt)\"", {}],
        ["pip install -r r.txt", { "/w/r.txt": "-r missing.txt\n" }],
        ["pip install -r r.txt", { "/w/r.txt": "-r https://example.com/r.txt\n" }],
        ["pip install -r r.txt", { "/w/r.txt": "${PROJECT}/pkg\n" }],
        ["printf './pkg\\n' > r.txt && pip install -r r.txt", {}],
        // What is there now is harmless; the command changes it before pip reads it.
        ["printf './pkg\\n' > base.txt && pip install -r r.txt", { "/w/r.txt": "-r base.txt\n", "/w/base.txt": "requests\n" }],
        ["cp /tmp/evil.py app/setup.py && pip install -r r.txt", { "/w/r.txt": "./app\n", "/w/app/setup.py": SETUP }],
        ["pip install \"$(cat name.txt)\"", {}],
        ["cd \"$(cat dir.txt)\" && pip install -e .", {}],
        ["pip install ./dist/pkg-1.0.tar.gz", { "/w/dist/pkg-1.0.tar.gz": "\u0000packed" }],
        ["pip install git+file:///w/repo", { "/w/repo/.git/HEAD": "ref: refs/heads/main\n" }],
        ["pip install -r r0.txt", Object.fromEntries(Array.from({ length: 40 }, (_, k) => [`/w/r${k}.txt`, `-r r${k + 1}.txt\n`]))]
      ]
      for (const [command, files] of cases) expect([command, yield* judged(command, files)]).toEqual([command, UNREADABLE_SCRIPT_DESCRIPTION])
    }))

  it.effect("a local place pip finds packages in (--find-links, a file: index, PIP_FIND_LINKS…) may hold a planted sdist: asks", () =>
    Effect.gen(function*() {
      const planted: Files = { "/w/dist/foo-0.1.tar.gz": "\u0000packed" }
      for (const command of [
        "pip install --no-index --no-build-isolation --find-links dist --target tgt foo", "pip install -f dist foo", "pip install --find-links=./dist/ foo",
        "pip install --index-url file:///w/dist foo", "pip install --extra-index-url file:dist foo", "pip download -d dl -f dist foo",
        "pip wheel -w out -i file:dist foo", "python3 -m pip install -f dist foo", "pip install -r r.txt"
      ]) {
        expect([command, yield* judged(command, { ...planted, "/w/r.txt": "--find-links ./dist\nfoo\n" })]).toEqual([command, UNREADABLE_SCRIPT_DESCRIPTION])
      }
      // Set in the line: the assignment itself asks first, naming a local place packages come from (programVariables.ts).
      for (const command of ["export PIP_FIND_LINKS=/w/dist; pip install foo", "PIP_FIND_LINKS=dist PIP_NO_INDEX=1 pip install foo", "env PIP_INDEX_URL=file:///w/dist pip install foo"]) {
        expect([command, yield* judged(command, planted)]).toEqual([command, expect.stringMatching(/^sets a variable naming a program/)])
      }
      // Exported by an earlier call.
      for (const [name, value] of [["PIP_FIND_LINKS", "/w/dist"], ["PIP_EXTRA_INDEX_URL", "https://x/simple file:///w/dist"]] as const) {
        expect([name, yield* judged("pip install --no-build-isolation --target tgt foo", planted, { [name]: value })]).toEqual([name, UNREADABLE_SCRIPT_DESCRIPTION])
      }
      // Remote places, and a local one that is not there: nothing of this machine's is built.
      for (const [command, variables] of [
        ["pip install -f https://download.pytorch.org/whl/torch_stable.html torch", {}], ["pip install --find-links missing foo", {}],
        ["pip install -i https://pypi.org/simple requests", {}], ["pip install requests", { PIP_INDEX_URL: "https://mirror.example/simple" }],
        // A wheelhouse: wheels are installed as they are, nothing is built.
        ["pip install -f wheels torch", {}], ["pip install torch", { PIP_FIND_LINKS: "/w/wheels" }]
      ] as const) {
        expect([command, yield* judged(command, { ...planted, "/w/wheels/torch-2.0-cp311-cp311-linux_x86_64.whl": "PK" }, variables)]).toEqual([command, null])
      }
      expect(yield* judged("pip install -f wheels torch", { "/w/wheels/torch-2.0-py3-none-any.whl": "PK", "/w/wheels/foo-0.1.tar.gz": "\u0000" })).toBe(UNREADABLE_SCRIPT_DESCRIPTION)
    }))

  it.effect("everyday pip commands on a harmless project stay quiet", () =>
    Effect.gen(function*() {
      const files: Files = {
        "/w/setup.py": SETUP,
        "/w/pyproject.toml": "[build-system]\nrequires = [\"setuptools\"]\nbuild-backend = \"setuptools.build_meta\"\n[tool.setuptools.dynamic]\nversion = {attr = \"app.__version__\"}\n",
        "/w/app/__init__.py": "__version__ = '0.1'\n",
        "/w/requirements.txt": "# runtime\nrequests>=2.0\nclick==8.1.7 ; python_version >= \"3.8\"\nnumpy --hash=sha256:abc\n",
        "/w/requirements-dev.txt": "-r requirements.txt\n-c constraints.txt\n-e .\npytest[testing]>=7\n",
        "/w/constraints.txt": "urllib3<3\n",
        "/w/a.txt": "-r b.txt\n",
        "/w/b.txt": "-r a.txt\nflask\n"
      }
      for (const command of [
        "pip install requests",
        "pip install -r requirements.txt",
        "pip install -e . -r requirements-dev.txt > install.log 2>&1",
        "python3 -m pip install --upgrade pip setuptools wheel",
        "pip install ./dist/app-0.1-py3-none-any.whl",
        "pip install -r a.txt",
        "pip list && pip freeze > frozen.txt && pip show requests"
      ]) {
        expect([command, yield* judged(command, files)]).toEqual([command, null])
      }
    }))
})

describe("pytest: every conftest.py from the root down to the paths it is given is read", () => {
  it.effect("a conftest.py between the root and a test file, a folder, a node id; above the working directory", () =>
    Effect.gen(function*() {
      const cases: ReadonlyArray<readonly [string, Files]> = [
        ["pytest -q a/b/test_x.py", { "/w/a/conftest.py": EVIL, "/w/a/b/test_x.py": TEST }],
        ["pytest -q a/b", { "/w/a/conftest.py": EVIL, "/w/a/b/test_x.py": TEST }],
        ["py.test a/b/c/", { "/w/a/conftest.py": EVIL, "/w/a/b/c/test_x.py": TEST }],
        ["python3 -m pytest -q src/pkg/sub/tests/test_x.py::test_ok", { "/w/src/pkg/conftest.py": EVIL, "/w/src/pkg/sub/tests/test_x.py": TEST }],
        ["pytest /w/a/b/test_x.py::T::test_ok", { "/w/a/conftest.py": EVIL, "/w/a/b/test_x.py": TEST }],
        ["cd proj && pytest --rootdir=.. -q t/test_x.py", { "/w/conftest.py": EVIL, "/w/proj/t/test_x.py": TEST }],
        ["cd proj && pytest -q test_x.py", { "/w/pytest.ini": "[pytest]\n", "/w/conftest.py": EVIL, "/w/proj/test_x.py": TEST }],
        // Plugins a config loads are found beside it, or where pytest runs (`python -m` puts that on sys.path).
        ["python3 -m pytest -c conf/p.ini test_x.py", { "/w/conf/p.ini": "[pytest]\naddopts = -p plug\n", "/w/plug.py": EVIL, "/w/test_x.py": TEST }],
        ["cd proj && python3 -m pytest test_x.py", { "/w/tox.ini": "[pytest]\naddopts = -p plug\n", "/w/proj/plug.py": EVIL, "/w/proj/test_x.py": TEST }]
      ]
      for (const [command, files] of cases) expect([command, yield* judged(command, files)]).toEqual([command, DELETES])
    }))

  it.effect("a conftest.py the command writes on the way, or a test folder only known when it runs, asks", () =>
    Effect.gen(function*() {
      // The conftests the line names are all there and harmless: the one it writes is found on the climb.
      const files: Files = { "/w/a/b/test_x.py": TEST, "/w/conftest.py": CONFTEST, "/w/tests/conftest.py": CONFTEST, "/w/test/conftest.py": CONFTEST, "/w/a/conftest.py": CONFTEST }
      for (const command of ["cp /tmp/evil.py a/conftest.py && pytest a/b/test_x.py", "pytest -q \"$(cat dir.txt)\""]) {
        expect([command, yield* judged(command, files)]).toEqual([command, UNREADABLE_SCRIPT_DESCRIPTION])
      }
    }))

  it.effect("tests with harmless conftests stay quiet", () =>
    Effect.gen(function*() {
      const files: Files = {
        "/w/conftest.py": CONFTEST,
        "/w/pyproject.toml": "[tool.pytest.ini_options]\naddopts = \"-q\"\n",
        "/w/tests/conftest.py": CONFTEST,
        "/w/tests/unit/conftest.py": CONFTEST,
        "/w/tests/unit/test_x.py": TEST,
        "/conftest.py": CONFTEST
      }
      for (const command of ["pytest -q tests/unit/test_x.py", "python3 -m pytest tests/unit/test_x.py::test_ok tests", "pytest", "cd tests && pytest unit"]) {
        expect([command, yield* judged(command, files)]).toEqual([command, null])
      }
    }))
})
