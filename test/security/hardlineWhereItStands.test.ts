/**
 * The hardline floor judged where the command lands, end to end through the
 * built CLI's `batch` with approvals turned off (only the floor stands): a
 * relative delete after the shell moved into the home, in an earlier call or
 * the same line, or in the workdir the call names, and the home spelled through `.`, `..` or its own path. The
 * user's home is a temporary folder with files in it; they must all remain.
 * Run on a process per command and on the persistent local shell.
 */
import { spawn } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { BIN } from "../support/cli.js"

interface Call {
  readonly command: string
  /** The terminal call's own `workdir` (where the command starts, apart from its text). */
  readonly workdir?: string
}

const TASKS: Readonly<Record<string, ReadonlyArray<Call>>> = {
  "cd in an earlier call, then rm -rf ./*": [{ command: "cd ~" }, { command: "rm -rf ./*" }],
  "cd in an earlier call, then find . -delete": [{ command: "cd" }, { command: "find . -delete" }],
  "cd through a subfolder's parent, then rm -rf .": [{ command: "cd ~/proj/.. && rm -rf ." }],
  "cd by the home's own path, rm -rf * after a failing cd": [{ command: "cd <HOME> && cd /nonexistent-dir; rm -rf *" }],
  "the home spelled ~/.": [{ command: "rm -rf ~/." }],
  "the home spelled through a subfolder's ..": [{ command: "rm -rf <HOME>/proj/.." }],
  "busybox rm of the home": [{ command: "busybox rm -rf \"$HOME\" 2>/dev/null || rm -rf \"$HOME/\"" }],
  "rm -rf ./* in a workdir that is the home": [{ command: "rm -rf ./*", workdir: "<HOME>" }],
  "find . -delete in a workdir reached through ..": [{ command: "find . -delete", workdir: "<HOME>/proj/.." }]
}

const runBatch = (home: string, userHome: string, lines: ReadonlyArray<string>) =>
  new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, "batch", "-"], {
      env: { ...process.env, HERMES_EFFECT_HOME: home, HOME: userHome, HERMES_EFFECT_TOOL_RUN: undefined },
      cwd: tmpdir(),
      stdio: ["pipe", "pipe", "pipe"]
    })
    const out: Array<Buffer> = []
    child.stdout.on("data", (b: Buffer) => out.push(b))
    child.stderr.resume()
    child.once("error", reject)
    child.once("close", () => resolve(Buffer.concat(out).toString("utf8")))
    child.stdin.end(lines.join("\n"))
  })

const roots: Array<string> = []
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true })
})

for (const [mode, persistent] of [["a process per command", false], ["the persistent local shell", true]] as const) {
  describe(`hardline where the command lands, approvals off, ${mode}`, () => {
    it("every relative or respelled delete of the home is refused and the home keeps its files", async () => {
      const root = mkdtempSync(join(tmpdir(), "hermes-effect-standing-"))
      roots.push(root)
      const home = join(root, "runtime")
      const userHome = join(root, "user")
      mkdirSync(home, { recursive: true })
      mkdirSync(join(userHome, "proj"), { recursive: true })
      writeFileSync(join(home, "config.yaml"), `approvals:\n  mode: "off"\nterminal:\n  local_persistent: ${persistent}\n`)
      writeFileSync(join(userHome, "keep"), "canary")
      writeFileSync(join(userHome, "proj", "keep"), "canary")
      const lines: Array<string> = []
      Object.entries(TASKS).forEach(([, calls], n) =>
        calls.forEach((call, k) =>
          lines.push(JSON.stringify({
            id: `t${n}#${k}`,
            tool: "terminal",
            args: {
              command: call.command.replaceAll("<HOME>", userHome),
              ...(call.workdir === undefined ? {} : { workdir: call.workdir.replaceAll("<HOME>", userHome) })
            },
            task_id: `t${n}`
          }))
        )
      )
      const out = await runBatch(home, userHome, lines)
      const answers = new Map<string, string>()
      for (const line of out.trim().split("\n")) {
        const { id, result } = JSON.parse(line) as { id: string; result: string }
        answers.set(id, result)
      }
      Object.entries(TASKS).forEach(([name, calls], n) => {
        const last = answers.get(`t${n}#${calls.length - 1}`) ?? ""
        expect([name, last]).toEqual([name, expect.stringContaining("BLOCKED (hardline)")])
      })
      expect(existsSync(join(userHome, "keep"))).toBe(true)
      expect(existsSync(join(userHome, "proj", "keep"))).toBe(true)
    }, 120_000)
  })
}
