/**
 * One run of the attack tables through the built CLI's `batch`, as the model
 * would send them: the suite's folders and fixtures, one canary directory per
 * case (its task id is `<class>-<n>`), the ordinary commands as tasks
 * `ordinary-<n>`, and every answer the model saw, by task.
 */
import { spawn } from "node:child_process"
import { existsSync, mkdirSync, writeFileSync } from "node:fs"
import { basename, join } from "node:path"
import { expect, it } from "@effect/vitest"
import { BIN } from "../support/cli.js"
import type { Case } from "./cases.js"

export interface AttackFolders {
  /** Everything lives under it (`<R>`). */
  readonly root: string
  /** The runtime's home (`<H>`), holding `config.yaml`. */
  readonly home: string
  /** The user's home (`<U>`). */
  readonly userHome: string
  /** Where the CLI runs (`<W>`). */
  readonly work: string
}

export interface AttackRun {
  readonly answers: ReadonlyMap<string, ReadonlyArray<string>>
  readonly canaries: ReadonlyMap<string, string>
  /** How the batch ended when it did not answer every line (its exit, the end of its stderr): a case without answers says it. */
  readonly ended?: string | undefined
}

export const foldersUnder = (root: string): AttackFolders => ({
  root,
  home: join(root, "home"),
  userHome: join(root, "user"),
  work: join(root, "work")
})

/** The placeholders filled in, then `<B64>…</B64>` encoded: an attack's hidden text names the real canary. */
export const fillPlaceholders = (folders: AttackFolders) => (text: string, canary: string): string =>
  text.replaceAll("<C>", canary).replaceAll("<CN>", basename(canary)).replaceAll("<H>", folders.home).replaceAll("<U>", folders.userHome)
    .replaceAll("<W>", folders.work).replaceAll("<R>", folders.root)
    .replace(/<B64>([\s\S]*?)<\/B64>/g, (_m, inner: string) => Buffer.from(inner).toString("base64"))

export const runAttacks = async (
  folders: AttackFolders,
  config: string,
  classes: Readonly<Record<string, ReadonlyArray<Case>>>,
  ordinary: ReadonlyArray<string>,
  /** How long the whole batch may take; the caller's hook timeout must leave room above it. */
  timeoutMs = 280_000
): Promise<AttackRun> => {
  const { home, userHome, work, root } = folders
  const fill = fillPlaceholders(folders)
  for (const dir of [home, userHome, work]) mkdirSync(dir, { recursive: true })
  writeFileSync(join(home, "config.yaml"), config)
  writeFileSync(join(work, "benign.py"), "import json, os\nprint(json.dumps({'cwd': os.getcwd() != ''}))\n")
  writeFileSync(join(work, "benign.sh"), "#!/bin/sh\necho building\nls >/dev/null\n")
  writeFileSync(join(work, "data.json"), "{\"ok\": true}\n")
  writeFileSync(join(work, "schema.sql"), "create table t(a);\ninsert into t values(1);\n.headers on\nselect * from t;\n")
  writeFileSync(join(work, "shebang.py"), "#!/usr/bin/env python3\nprint(1)\n", { mode: 0o755 })
  // A project as users have them: package scripts, a local dependency and a workspace, a build.ninja, a test list,
  // an env file; all harmless (the ordinary table runs them).
  const proj = join(work, "proj")
  for (const dir of ["dep", "packages/a"]) mkdirSync(join(proj, dir), { recursive: true })
  writeFileSync(join(proj, "package.json"), JSON.stringify({
    name: "proj", version: "1.0.0", private: true, workspaces: ["packages/*"],
    scripts: { prepack: "echo packing", test: "echo tested", preversion: "echo versioning" },
    dependencies: { dep: "file:./dep" }
  }) + "\n")
  writeFileSync(join(proj, "dep", "package.json"), JSON.stringify({ name: "dep", version: "1.0.0", scripts: { postinstall: "echo built" } }) + "\n")
  writeFileSync(join(proj, "packages", "a", "package.json"), JSON.stringify({ name: "a", version: "1.0.0", scripts: { install: "echo a" } }) + "\n")
  writeFileSync(join(proj, "build.ninja"), "cflags = -O2\nrule copy\n  command = cp $in $out\nbuild out.txt: copy in.txt\ndefault out.txt\n")
  writeFileSync(join(proj, "in.txt"), "in\n")
  writeFileSync(join(proj, "CTestTestfile.cmake"), "# CMake generated Testfile\nadd_test(t \"true\")\nset_tests_properties(t PROPERTIES  ENVIRONMENT \"LANG=C\")\n")
  writeFileSync(join(proj, ".env"), "GREETING=hello\n# a comment\nexport MODE=\"dev\"\n")
  writeFileSync(join(proj, "ok.js"), "console.log(process.env.GREETING)\n")
  // A Python project: a harmless setup.py, requirements of plain names (and the project itself), tests with a conftest.
  const pyproj = join(work, "pyproj")
  mkdirSync(join(pyproj, "tests", "unit"), { recursive: true })
  writeFileSync(join(pyproj, "setup.py"), "from setuptools import setup\nsetup(name='pyproj', version='0.1')\n")
  writeFileSync(join(pyproj, "requirements.txt"), "# runtime\nrequests>=2.0\nclick==8.1.7 ; python_version >= \"3.8\"\n")
  writeFileSync(join(pyproj, "requirements-dev.txt"), "-r requirements.txt\n-c constraints.txt\n-e .\npytest[testing]>=7  # the runner\n")
  writeFileSync(join(pyproj, "constraints.txt"), "urllib3<3\n")
  writeFileSync(join(pyproj, "tests", "conftest.py"), "import pytest\n\n\n@pytest.fixture\ndef answer():\n    return 42\n")
  writeFileSync(join(pyproj, "tests", "unit", "test_a.py"), "def test_a(answer):\n    assert answer == 42\n")
  mkdirSync(join(work, "tests"), { recursive: true })
  writeFileSync(join(work, "tests", "test_ok.py"), "import json\nimport unittest\n\n\nclass Ok(unittest.TestCase):\n    def test_ok(self):\n        self.assertEqual(json.loads('1'), 1)\n")
  const canaries = new Map<string, string>()
  const lines: Array<string> = []
  for (const [group, cases] of Object.entries(classes)) {
    cases.forEach((c, n) => {
      const task = `${group}-${n}`
      const canary = join(root, "canaries", task)
      mkdirSync(canary, { recursive: true })
      writeFileSync(join(canary, "keep"), "canary")
      canaries.set(task, canary)
      c.calls.forEach((call, k) => {
        const args = Object.fromEntries(Object.entries(call.args).map(([k, v]) => [k, typeof v === "string" ? fill(v, canary) : v]))
        lines.push(JSON.stringify({ id: `${task}#${k}`, tool: call.tool, args, task_id: task }))
      })
    })
  }
  ordinary.forEach((command, n) =>
    lines.push(JSON.stringify({ id: `ordinary-${n}`, tool: "terminal", args: { command: fill(command, "") }, task_id: `ordinary-${n}` }))
  )
  // Asynchronously: a worker blocked for minutes in spawnSync cannot answer vitest's RPC, which then times out.
  const r = await new Promise<{ readonly status: number | null; readonly stdout: string; readonly stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, "batch", "--concurrency", "2", "-"], {
      env: { ...process.env, HERMES_EFFECT_HOME: home, HOME: userHome, HERMES_EFFECT_TOOL_RUN: undefined },
      cwd: work,
      stdio: ["pipe", "pipe", "pipe"]
    })
    const out: Array<Buffer> = []
    const err: Array<Buffer> = []
    child.stdout.on("data", (b: Buffer) => out.push(b))
    child.stderr.on("data", (b: Buffer) => err.push(b))
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs)
    child.once("error", (e) => {
      clearTimeout(timer)
      reject(e)
    })
    child.once("close", (status) => {
      clearTimeout(timer)
      resolve({ status, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") })
    })
    child.stdin.end(lines.join("\n"))
  })
  if (r.status !== 0 && r.stdout.trim() === "") throw new Error(`batch failed: ${r.stderr}`)
  const answers = new Map<string, ReadonlyArray<string>>()
  const answered = r.stdout.trim().split("\n")
  for (const line of answered) {
    const { id, result } = JSON.parse(line) as { id: string; result: string }
    const task = id.split("#")[0] ?? id
    answers.set(task, [...(answers.get(task) ?? []), result])
  }
  const ended = answered.length < lines.length ? `the batch answered ${answered.length} of ${lines.length} lines, exit ${r.status}; stderr ends: ${r.stderr.slice(-2000)}` : undefined
  return { answers, canaries, ended }
}

/** One test per case (`<class>: <name>`): its canary is still there, and the model was told no. */
export const attackCaseTests = (classes: Readonly<Record<string, ReadonlyArray<Case>>>, run: () => AttackRun): void => {
  for (const [group, cases] of Object.entries(classes)) {
    cases.forEach((c, n) => {
      it(`${group}: ${c.name}`, () => {
        const task = `${group}-${n}`
        const said = (run().answers.get(task) ?? []).join("\n")
        expect(existsSync(join(run().canaries.get(task) ?? "", "keep")), `canary deleted; the model saw:\n${said}`).toBe(true)
        expect(said, run().ended).toMatch(/BLOCKED|error/)
      })
    })
  }
}
