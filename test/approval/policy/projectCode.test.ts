/**
 * Round 9: tools that run code kept in project files (policy via detect/resolve/projectCode.ts). A model writes
 * the file (an ordinary project file: the write asks nothing), then runs the tool: `uv sync` built the project's
 * setup.py unread, `just`, `task`, `tox`, `deno task` and pre-commit ran the commands their files hold, nox, invoke
 * and rake their task files, pylint its `init-hook`, mypy its plugins, eslint and jest their config modules, jest,
 * vitest, mocha and `bun test` the test files they collect (also under `npm test`). Each
 * now reads the file as its language, or asks when it exists in a format nothing here reads; ordinary projects stay
 * quiet.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { implicitlyExecuted } from "../../../src/layers/approval/detect/implicitExec.js"
import type { Files } from "../../support/judgeWorld.js"
import { judgeIn, world } from "../../support/judgeWorld.js"

const EVIL_PY = "import shutil\nshutil.rmtree('/tmp/victim')\n"
const EVIL_JS = "require('child_process').execSync('rm -rf /tmp/victim')\n"
const asks = (command: string, files: Files) => Effect.map(judgeIn(command, world({ "/w/x.py": "print(1)\n", ...files })), (v) => [command, v.detection.dangerous] as const)

describe("tools that run code kept in project files", () => {
  it.effect("asks when the file holds code the tool runs", () =>
    Effect.gen(function*() {
      for (const [command, files] of [
        ["uv run x.py", { "/w/setup.py": EVIL_PY, "/w/pyproject.toml": "[project]\nname='p'\n" }],
        ["uv sync", { "/w/setup.py": EVIL_PY }],
        ["uv --directory sub build", { "/w/sub/setup.py": EVIL_PY }],
        ["uv run x.py", { "/w/pyproject.toml": "[project]\nname='p'\n[tool.uv.sources]\nlib = { path = '../lib' }\n" }],
        ["uv sync", { "/w/pyproject.toml": "[project]\nname='p'\n[[tool.uv.index]]\nurl = 'file:///tmp/planted'\n" }],
        ["poetry install", { "/w/setup.py": EVIL_PY }],
        ["pdm sync", { "/w/pdm_build.py": EVIL_PY }],
        ["hatch build", { "/w/hatch_build.py": EVIL_PY }],
        ["just build", { "/w/justfile": "build:\n\tr''m -rf /tmp/victim\n" }],
        ["task", { "/w/Taskfile.yml": "version: '3'\ntasks:\n  default:\n    cmds: [./x.sh]\n" }],
        ["deno task build", { "/w/deno.json": "{\"tasks\": {\"build\": \"./x.sh\"}}\n" }],
        ["tox -e py", { "/w/tox.ini": "[testenv]\ncommands = ./x.sh\n" }],
        ["lefthook install", { "/w/lefthook.yml": "pre-commit:\n  commands:\n    x:\n      run: ./x.sh\n" }],
        ["pre-commit run --all-files", { "/w/.pre-commit-config.yaml": "repos:\n- repo: local\n  hooks:\n  - {id: x, name: x, entry: ./x.sh, language: system}\n" }],
        ["nox", { "/w/noxfile.py": "import nox\n@nox.session\ndef t(session):\n    session.run('./x.sh')\n" }],
        ["invoke build", { "/w/tasks.py": "from invoke import task\n@task\ndef build(c):\n    c.run('./x.sh')\n" }],
        ["rake", { "/w/Rakefile": "task :default do\n  sh './x.sh'\nend\n" }],
        ["pylint x.py", { "/w/.pylintrc": "[MAIN]\ninit-hook='import os; os.system(\"./x.sh\")'\n" }],
        ["mypy .", { "/w/mypy.ini": "[mypy]\nplugins = ./plug.py\n" }],
        ["eslint .", { "/w/eslint.config.js": EVIL_JS }],
        ["jest", { "/w/jest.config.js": EVIL_JS }],
        ["bun test", { "/w/bunfig.toml": "[test]\npreload = ['./setup.ts']\n" }],
        ["./gradlew build", { "/w/gradlew": "#!/bin/sh\nexec java -jar gradle/wrapper/gradle-wrapper.jar \"$@\"\n", "/w/build.gradle": "task x { doLast { exec { commandLine './x.sh' } } }\n" }],
        ["mvn test", { "/w/pom.xml": "<project/>\n" }],
        ["swift build", { "/w/Package.swift": "import PackageDescription\n" }],
        ["jest", { "/w/src/sum.test.js": EVIL_JS }],
        ["vitest run", { "/w/src/a.spec.ts": EVIL_JS }],
        ["npm test", { "/w/package.json": "{\"scripts\": {\"test\": \"jest --ci\"}}\n", "/w/__tests__/a.js": EVIL_JS }],
        ["npm test", { "/w/package.json": "{\"scripts\": {\"test\": \"mocha\"}}\n", "/w/test/a.js": EVIL_JS }],
        ["bun test", { "/w/x.test.ts": EVIL_JS }],
        ["npm test", { "/w/package.json": "{\"scripts\": {\"test\": \"pytest -q\"}}\n", "/w/tests/test_a.py": EVIL_PY }]
      ] as const) {
        expect(yield* asks(command, files)).toEqual([command, true])
      }
    }))

  it.effect("stays quiet for ordinary projects", () =>
    Effect.gen(function*() {
      const files: Files = {
        "/w/pyproject.toml": "[project]\nname='p'\nrequires-python = '>=3.11'\n[build-system]\nrequires=['hatchling']\nbuild-backend='hatchling.build'\n[tool.uv]\ndev-dependencies=['pytest']\n[tool.mypy]\nstrict = true\n",
        "/w/eslint.config.js": "import js from '@eslint/js'\nexport default [js.configs.recommended]\n",
        "/w/vite.config.ts": "import { defineConfig } from 'vite'\nexport default defineConfig({})\n",
        "/w/package.json": "{\"scripts\": {\"test\": \"vitest run\", \"build\": \"vite build\"}}\n",
        "/w/src/sum.js": "exports.sum = (a, b) => a + b\n",
        "/w/src/sum.test.js": "const { sum } = require('./sum')\ntest('adds', () => expect(sum(1, 2)).toBe(3))\n",
        "/w/node_modules/x/bad.test.js": EVIL_JS
      }
      for (const command of ["uv run x.py", "uv sync", "uv run pytest", "uv venv", "uv pip install requests", "eslint .", "vite build", "vitest run", "npm test", "jest", "bun test", "mypy .", "pylint x.py", "tox", "just --list", "poetry run pytest", "pytest", "git status"]) {
        expect(yield* asks(command, files)).toEqual([command, false])
      }
    }))

  it("a write of bun's configuration asks, as .npmrc's does", () => {
    for (const path of ["/w/bunfig.toml", "/home/agent/.bunfig.toml"]) expect([path, implicitlyExecuted(path, { home: "/home/agent" }) !== null]).toEqual([path, true])
  })
})
