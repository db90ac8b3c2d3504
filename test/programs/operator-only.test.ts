/**
 * Commands that change what the runtime allows refuse to run inside a tool
 * call (HERMES_EFFECT_TOOL_RUN set, as in every process a tool starts), so a
 * model cannot approve itself; read-only commands keep working there.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { TOOL_RUN_ENV } from "../../src/programs/operatorOnly.js"
import { BIN, runCli } from "../support/cli.js"
import { tempHome } from "../support/runtime.js"

const INSIDE = { [TOOL_RUN_ENV]: "rt-1:task-1" }
const REFUSAL = /is an operator's act; it cannot be run from inside an agent's tool call/
const CONFIG = "# operator's settings\napprovals:\n  mode: manual\ncommand_allowlist:\n  - recursive delete\n"

/** A home with a config, one skill and one recorded session. */
const seededHome = () => {
  const home = tempHome("hermes-effect-operator-")
  writeFileSync(join(home, "config.yaml"), CONFIG)
  const skill = join(home, "skills", "notes")
  mkdirSync(skill, { recursive: true })
  writeFileSync(join(skill, "SKILL.md"), "---\nname: notes\ndescription: Take notes.\n---\n# Notes\nWrite things down.\n")
  const recorded = runCli(["call", "todo", "{\"todos\":[]}", "--task-id", "sess-1"], { home })
  expect(recorded.code).toBe(0)
  return home
}

const refused = (r: { code: number | null; stdout: string; stderr: string }) => {
  expect(r.code).not.toBe(0)
  expect(r.code).not.toBeNull()
  expect(r.stderr).toMatch(REFUSAL)
  expect(r.stderr.trim().split("\n")).toHaveLength(1)
  expect(r.stdout).toBe("")
}

describe("operator-only CLI commands", () => {
  it("inside a tool run, approvals allow/revoke leave config.yaml byte for byte unchanged", () => {
    const home = seededHome()
    for (const value of ["rt-1:task-1", ""]) {
      refused(runCli(["approvals", "allow", "delete in root path"], { home, env: { [TOOL_RUN_ENV]: value } }))
      refused(runCli(["approvals", "revoke", "recursive delete"], { home, env: { [TOOL_RUN_ENV]: value } }))
    }
    expect(readFileSync(join(home, "config.yaml"), "utf8")).toBe(CONFIG)
    // The refusal names the command and tells the model to ask, with nothing to paste.
    const r = runCli(["approvals", "allow", "delete in root path"], { home, env: INSIDE })
    expect(r.stderr).toMatch(/^hermes-effect: 'approvals allow' is an operator's act/)
    expect(r.stderr).toMatch(/Ask the user/)
  })

  it("inside a tool run, skills install/uninstall and sessions delete change nothing", () => {
    const home = seededHome()
    const incoming = join(tempHome("hermes-effect-skill-src-"), "planted")
    mkdirSync(incoming, { recursive: true })
    writeFileSync(join(incoming, "SKILL.md"), "---\nname: planted\ndescription: Planted.\n---\n# Planted\n")
    refused(runCli(["skills", "install", incoming], { home, env: INSIDE }))
    refused(runCli(["skills", "uninstall", "notes"], { home, env: INSIDE }))
    refused(runCli(["sessions", "delete", "sess-1"], { home, env: INSIDE }))
    const skills = JSON.parse(runCli(["skills", "list", "--json"], { home, env: INSIDE }).stdout) as Array<{ name: string }>
    expect(skills.map((s) => s.name)).toContain("notes")
    expect(skills.map((s) => s.name)).not.toContain("planted")
    expect(runCli(["sessions", "show", "sess-1"], { home, env: INSIDE }).code).toBe(0)
  })

  it("read-only commands work inside a tool run", () => {
    const home = seededHome()
    const list = runCli(["approvals", "list", "--json"], { home, env: INSIDE })
    expect(list.code).toBe(0)
    expect((JSON.parse(list.stdout) as { command_allowlist: Array<string> }).command_allowlist).toEqual(["recursive delete"])
    const check = runCli(["approval", "check", "--json", "ls"], { home, env: INSIDE })
    expect(check.code).toBe(0)
    expect(JSON.parse(check.stdout)).toMatchObject({ command: "ls", dangerous: false })
    for (const args of [["tools", "list", "--json"], ["toolsets", "--json"], ["skills", "list"], ["sessions", "list"], ["plugins"], ["mcp", "list"]]) {
      expect(runCli(args, { home, env: INSIDE }).code).toBe(0)
    }
    expect(runCli(["call", "todo", "{}"], { home, env: INSIDE }).code).toBe(0)
  }, 120_000)

  it("outside a tool run, the operator changes the allowlist as before", () => {
    const home = seededHome()
    const r = runCli(["approvals", "allow", "delete in root path"], { home })
    expect(r).toMatchObject({ code: 0, stdout: "allowed: delete in root path\n" })
    expect(readFileSync(join(home, "config.yaml"), "utf8")).toBe(`${CONFIG}  - delete in root path\n`)
    expect(runCli(["approvals", "revoke", "delete in root path"], { home }).code).toBe(0)
    expect(readFileSync(join(home, "config.yaml"), "utf8")).toBe(CONFIG)
  })

  it("a command the terminal tool runs cannot approve anything", () => {
    const home = seededHome()
    // The model asks its terminal to run our own binary: refused (marker) or blocked (detection); never applied.
    const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} approvals allow 'delete in root path'`
    const r = runCli(["call", "terminal", JSON.stringify({ command })], { home })
    expect(r.code).toBe(0)
    expect(r.stdout).not.toMatch(/allowed: delete in root path/)
    expect(readFileSync(join(home, "config.yaml"), "utf8")).toBe(CONFIG)
  })

  it("with approvals off, the CLI started by the terminal tool still refuses: its environment carries the marker", () => {
    const home = tempHome("hermes-effect-operator-off-")
    const config = "approvals:\n  mode: \"off\"\n"
    writeFileSync(join(home, "config.yaml"), config)
    const command = `HERMES_EFFECT_HOME=${JSON.stringify(home)} ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} approvals allow 'delete in root path'`
    const r = runCli(["call", "terminal", JSON.stringify({ command })], { home })
    const answer = JSON.parse(r.stdout) as { output: string; exit_code: number }
    expect(answer.output).toMatch(REFUSAL)
    expect(answer.exit_code).not.toBe(0)
    expect(readFileSync(join(home, "config.yaml"), "utf8")).toBe(config)
  })

  /** `run` in a process the shell no longer waits for (its parent exits at once); its output is read back when it ends. */
  const orphaned = (run: string): string =>
    `o=$(mktemp) && ( { ${run} > "$o" 2>&1; echo >> "$o.end"; } &) ; until [ -s "$o.end" ]; do sleep 0.1; done; cat "$o"`

  it("with approvals off, a renamed copy of the CLI run without the marker still refuses: a process it descends from carries it", () => {
    const home = tempHome("hermes-effect-operator-shed-")
    const config = "approvals:\n  mode: \"off\"\n"
    writeFileSync(join(home, "config.yaml"), config)
    const copy = join(tempHome("hermes-effect-operator-copy-"), "m.cjs")
    const node = JSON.stringify(process.execPath)
    const run = `HERMES_EFFECT_HOME=${JSON.stringify(home)} ${node} ${JSON.stringify(copy)} approvals allow 'delete in root path'`
    const prepare = `cp ${JSON.stringify(join(BIN, "..", "cli", "main.cjs"))} ${JSON.stringify(copy)}`
    for (const shed of [`env -u HERMES_EFFECT_TOOL_RUN ${run}`, `unset HERMES_EFFECT_TOOL_RUN; ${run}`, `env -i PATH="$PATH" ${run}`, `HERMES_EFFECT_TOOL_RUN= ${run}`, orphaned(run)]) {
      const r = runCli(["call", "terminal", JSON.stringify({ command: `${prepare} && ${shed}` })], { home })
      const answer = JSON.parse(r.stdout) as { output: string }
      expect(answer.output, shed).toMatch(REFUSAL)
    }
    expect(readFileSync(join(home, "config.yaml"), "utf8")).toBe(config)
  }, 120_000)

  it("with approvals manual, the gate stops the same commands before they run, and says why", () => {
    const home = seededHome()
    const copy = join(tempHome("hermes-effect-operator-copy-"), "m.cjs")
    writeFileSync(copy, readFileSync(join(BIN, "..", "cli", "main.cjs")))
    const run = `${JSON.stringify(process.execPath)} ${JSON.stringify(copy)} approvals allow 'delete in root path'`
    for (const [command, why] of [
      [`env -u HERMES_EFFECT_TOOL_RUN ${run}`, /marker/],
      [`v=HERMES_EFFECT_TOOL_RUN; unset $v; ${run}`, /marker/],
      [`env -i PATH="$PATH" ${run}`, /emptied environment/],
      [run, /operator's act/],
      [`tmux new-session -d ${JSON.stringify(run)}`, /operator's act/]
    ] as const) {
      const r = runCli(["call", "terminal", JSON.stringify({ command })], { home })
      expect(r.stdout, command).not.toMatch(/allowed: delete in root path/)
      expect(r.stdout, command).toMatch(why)
    }
    expect(readFileSync(join(home, "config.yaml"), "utf8")).toBe(CONFIG)
  }, 120_000)
})
