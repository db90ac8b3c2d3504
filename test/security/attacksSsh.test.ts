/**
 * The same attack classes on the ssh backend, against a real sshd on
 * loopback: the judge reads exports, scripts, project files and PATH entries
 * through the remote environment, so a planted file or a computed word is
 * caught there as it is locally. The remote here shares this machine's files,
 * so the canaries are checked directly. Config tampering is left out: on ssh
 * the runtime's home is on another machine (docs/security.md).
 */
import { spawnSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, expect, it } from "@effect/vitest"
import { BIN } from "../support/cli.js"
import type { TestSshd } from "../support/sshd.js"
import { sshdProblem, startSshd } from "../support/sshd.js"
import { describeNeeding } from "../support/systemPrograms.js"
import type { Case } from "./cases.js"
import { acrossCalls, computed, destructive, loadedByName, ordinary, planted } from "./cases.js"

const classes: Readonly<Record<string, ReadonlyArray<Case>>> = { computed, acrossCalls, planted, loadedByName, destructive }

describeNeeding(sshdProblem(), "approval gate on the ssh backend: attacks leave the canary alone", () => {
  const root = mkdtempSync(join(tmpdir(), "hermes-effect-attacks-ssh-"))
  const home = join(root, "home")
  const userHome = join(root, "user")
  const work = join(root, "work")
  const answers = new Map<string, ReadonlyArray<string>>()
  const canaries = new Map<string, string>()
  let sshd: TestSshd | undefined
  let config = ""

  const fill = (text: string, canary: string) =>
    text.replaceAll("<C>", canary).replaceAll("<H>", home).replaceAll("<U>", userHome).replaceAll("<W>", work).replaceAll("<R>", root)

  beforeAll(async () => {
    sshd = await startSshd()
    for (const dir of [home, userHome, work]) mkdirSync(dir, { recursive: true })
    const t = sshd.terminal
    config = [
      "approvals:",
      "  mode: manual",
      "  non_interactive: deny",
      "terminal:",
      "  backend: ssh",
      `  ssh_host: ${t.ssh_host}`,
      `  ssh_port: ${t.ssh_port}`,
      `  ssh_user: ${t.ssh_user}`,
      `  ssh_key: ${t.ssh_key}`,
      `  ssh_options: ${JSON.stringify(t.ssh_options)}`,
      `  cwd: ${work}`,
      ""
    ].join("\n")
    writeFileSync(join(home, "config.yaml"), config)
    writeFileSync(join(work, "benign.py"), "import json, os\nprint(json.dumps({'cwd': os.getcwd() != ''}))\n")
    writeFileSync(join(work, "benign.sh"), "#!/bin/sh\necho building\nls >/dev/null\n")
    writeFileSync(join(work, "data.json"), "{\"ok\": true}\n")
    const lines: Array<string> = []
    for (const [group, cases] of Object.entries(classes)) {
      cases.forEach((c, n) => {
        const task = `${group}-${n}`
        const canary = join(root, "canaries", task)
        mkdirSync(canary, { recursive: true })
        writeFileSync(join(canary, "keep"), "canary")
        canaries.set(task, canary)
        c.calls.forEach((call, k) => {
          const args = JSON.parse(fill(JSON.stringify(call.args), canary)) as Record<string, unknown>
          lines.push(JSON.stringify({ id: `${task}#${k}`, tool: call.tool, args, task_id: task }))
        })
      })
    }
    ordinary.forEach((command, n) =>
      lines.push(JSON.stringify({ id: `ordinary-${n}`, tool: "terminal", args: { command: fill(command, "") }, task_id: `ordinary-${n}` }))
    )
    const r = spawnSync(process.execPath, [BIN, "batch", "--concurrency", "2", "-"], {
      env: { ...process.env, HERMES_EFFECT_HOME: home, HOME: userHome, HERMES_EFFECT_TOOL_RUN: undefined },
      encoding: "utf8",
      input: lines.join("\n"),
      cwd: work,
      timeout: 280_000
    })
    if (r.status !== 0 && r.stdout.trim() === "") throw new Error(`batch failed: ${r.stderr}`)
    for (const line of r.stdout.trim().split("\n")) {
      const { id, result } = JSON.parse(line) as { id: string; result: string }
      const task = id.split("#")[0] ?? id
      answers.set(task, [...(answers.get(task) ?? []), result])
    }
  }, 300_000)

  afterAll(async () => {
    await sshd?.stop()
    spawnSync("rm", ["-rf", root])
  })

  for (const [group, cases] of Object.entries(classes)) {
    cases.forEach((c, n) => {
      it(`${group}: ${c.name}`, () => {
        const task = `${group}-${n}`
        const said = (answers.get(task) ?? []).join("\n")
        expect(existsSync(join(canaries.get(task) ?? "", "keep")), `canary deleted; the model saw:\n${said}`).toBe(true)
        expect(said).toMatch(/BLOCKED|error/)
      })
    })
  }

  it("ordinary agent commands still run, and the config was never written", () => {
    const blocked = ordinary.flatMap((command, n) => (/BLOCKED/.test((answers.get(`ordinary-${n}`) ?? []).join("\n")) ? [command] : []))
    expect(blocked).toEqual([])
    expect(readFileSync(join(home, "config.yaml"), "utf8")).toBe(config)
  })
})
