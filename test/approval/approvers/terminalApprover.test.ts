/**
 * The terminal approver, driven as a person would: the CLI runs in a real
 * pseudo-terminal, the test reads the prompt and types the answer.
 */
import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { spawn } from "@lydell/node-pty"
import { describe, expect, it } from "@effect/vitest"
import { BIN } from "../../support/cli.js"
import { tempHome } from "../../support/runtime.js"

const askAndAnswer = (answer: string | undefined, home: string, cwd: string) =>
  new Promise<string>((resolve, reject) => {
    const term = spawn(process.execPath, [BIN, "call", "terminal", JSON.stringify({ command: "git reset --hard 2>/dev/null; echo ran-it" })], {
      cols: 200,
      rows: 40,
      cwd,
      env: { ...process.env, HERMES_EFFECT_HOME: home }
    })
    let screen = ""
    let answered = false
    const timer = setTimeout(() => {
      term.kill()
      reject(new Error(`no result; screen so far:\n${screen}`))
    }, 20_000)
    term.onData((data) => {
      screen += data
      if (!answered && answer !== undefined && screen.includes("Allow this command?")) {
        answered = true
        term.write(`${answer}\r`)
      }
    })
    term.onExit(() => {
      clearTimeout(timer)
      resolve(screen)
    })
  })

const resultOf = (screen: string) => {
  const line = screen.split(/\r?\n/).find((l) => l.startsWith("{\"output\""))
  if (line === undefined) throw new Error(`no result line in:\n${screen}`)
  return JSON.parse(line) as Record<string, unknown>
}

describe("terminal approver (a person at a TTY)", () => {
  const home = tempHome("hermes-effect-tty-")
  const cwd = join(home, "work")
  mkdirSync(cwd)

  it("asks with the rule description and runs the command once approved", async () => {
    const screen = await askAndAnswer("o", home, cwd)
    expect(screen).toContain("git reset --hard (destroys uncommitted changes)")
    expect(screen).toContain("[o]nce / [s]ession / [a]lways / [d]eny")
    expect(resultOf(screen)["output"]).toContain("ran-it")
  })

  it("a denial is final and says so", async () => {
    const result = resultOf(await askAndAnswer("d", home, cwd))
    expect(result).toMatchObject({ exit_code: -1, status: "blocked" })
    expect(String(result["error"])).toMatch(/^BLOCKED: User denied this command/)
  })
})
