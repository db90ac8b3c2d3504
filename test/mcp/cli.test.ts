/**
 * `hermes-effect mcp list` / `mcp test` end to end: the built binary, a config
 * in a temp home, real servers (stdio children of the CLI, and the Streamable
 * HTTP demo server in this process; hence an asynchronous spawn, so this
 * process can answer while the CLI runs).
 */
import { execFile } from "node:child_process"
import { existsSync, mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { demoHttpServer } from "../support/mcpServers/httpServer.js"
import { BIN } from "../support/cli.js"
import type { CliResult } from "../support/cli.js"
import { tempHome } from "../support/runtime.js"
import { gone, pidFrom, STDIO_SERVER } from "./helpers.js"

const runCli = (args: ReadonlyArray<string>, home: string) =>
  Effect.async<CliResult>((resume) => {
    if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run \`npm run build\` first (npm test does)`)
    const child = execFile(process.execPath, [BIN, ...args], {
      env: { ...process.env, HERMES_EFFECT_HOME: home, HERMES_EFFECT_LOG: "error" },
      encoding: "utf8",
      timeout: 60_000
    }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === "number" ? error.code : null
      resume(Effect.succeed({ code, stdout, stderr }))
    })
    return Effect.sync(() => void child.kill())
  })

const yamlList = (items: ReadonlyArray<string>) => `[${items.map((i) => JSON.stringify(i)).join(", ")}]`

const homeWith = (webUrl: string) => {
  const home = tempHome("hermes-effect-mcp-cli-")
  const pids = mkdtempSync(join(tmpdir(), "hermes-mcp-cli-pids-"))
  writeFileSync(join(home, "config.yaml"), [
    "# MCP servers under test",
    "mcp_servers:",
    "  alpha:",
    `    command: ${JSON.stringify(process.execPath)}`,
    `    args: ${yamlList([STDIO_SERVER, "--pid-file", join(pids, "alpha.pid")])}`,
    "    tools:",
    "      exclude: [crash]",
    "  broken:",
    `    command: ${JSON.stringify(process.execPath)}`,
    `    args: ${yamlList([STDIO_SERVER, "--exit-on-start"])}`,
    "  web:",
    `    url: ${webUrl}`,
    "    headers: { Authorization: Bearer cli-secret-token }",
    "  off:",
    `    command: ${JSON.stringify(process.execPath)}`,
    `    args: ${yamlList([STDIO_SERVER, "--pid-file", join(pids, "off.pid")])}`,
    "    enabled: false",
    ""
  ].join("\n"))
  return { home, pids }
}

describe("hermes-effect mcp", () => {
  it.scopedLive("mcp list: every server with its state, tool count and error; no server process outlives the command", () =>
    Effect.gen(function*() {
      const web = yield* demoHttpServer
      const { home, pids } = homeWith(web.url)
      const text = yield* runCli(["mcp", "list"], home)
      expect(text.code).toBe(0)
      const lines = text.stdout.split("\n")
      expect(lines[0]).toMatch(/^SERVER\s+STATE\s+TOOLS\s+TRANSPORT\s+DETAIL$/)
      expect(lines.find((l) => l.startsWith("alpha"))).toMatch(/^alpha\s+connected\s+15\s+stdio\s+.*stdio-server\.mjs .*\(3 warnings\)$/)
      expect(lines.find((l) => l.startsWith("broken"))).toMatch(/^broken\s+failed\s+0\s+stdio\s+the server closed the connection during initialize \(stderr: boom/)
      expect(lines.find((l) => l.startsWith("web"))).toMatch(/^web\s+connected\s+16\s+http\s+http:\/\/127\.0\.0\.1:\d+\/mcp/)
      expect(lines.find((l) => l.startsWith("off"))).toMatch(/^off\s+disabled\s+0\s+stdio/)
      expect(text.stdout).toContain("warning: alpha: tool 'weird.name-x': description asks to ignore earlier instructions")
      expect(yield* gone(pidFrom(pids, "alpha")!)).toBe(true)
      expect(pidFrom(pids, "off")).toBeUndefined()

      const json = yield* runCli(["mcp", "list", "--json"], home)
      expect(json.code).toBe(0)
      const statuses = JSON.parse(json.stdout) as ReadonlyArray<{ name: string; state: string; tools: ReadonlyArray<string>; error?: string }>
      expect(statuses.map((s) => [s.name, s.state])).toEqual([["alpha", "connected"], ["broken", "failed"], ["off", "disabled"], ["web", "connected"]])
      expect(statuses[0]?.tools).toContain("mcp__alpha__echo")
      expect(statuses[0]?.tools).not.toContain("mcp__alpha__crash")
      expect(web.headers.some((h) => h["authorization"] === "Bearer cli-secret-token")).toBe(true)
    }))

  it.scopedLive("mcp test <name>: connects, lists, reports timings; a failing or unknown server exits 1 with one line", () =>
    Effect.gen(function*() {
      const web = yield* demoHttpServer
      const { home } = homeWith(web.url)
      const ok = yield* runCli(["mcp", "test", "alpha"], home)
      expect(ok.code).toBe(0)
      expect(ok.stdout).toMatch(/^server {6}alpha \(stdio: .*stdio-server\.mjs/m)
      expect(ok.stdout).toMatch(/^result {6}ok$/m)
      expect(ok.stdout).toMatch(/^connect {5}\d+(\.\d+)? ms$/m)
      expect(ok.stdout).toMatch(/^tools\/list {2}\d+(\.\d+)? ms$/m)
      expect(ok.stdout).toMatch(/^reports {5}demo 1\.2\.3$/m)
      expect(ok.stdout).toMatch(/^offers {6}tools, resources, prompts$/m)
      expect(ok.stdout).toMatch(/^echo\s+mcp__alpha__echo/m)
      expect(ok.stdout).toMatch(/^crash\s+-\s+in tools\.exclude$/m)

      const disabled = yield* runCli(["mcp", "test", "off", "--json"], home)
      expect(disabled.code).toBe(0)
      expect(JSON.parse(disabled.stdout)).toMatchObject({ server: "off", ok: true, transport: "stdio" })

      const http = yield* runCli(["mcp", "test", "web", "--json"], home)
      expect(http.code).toBe(0)
      const report = JSON.parse(http.stdout) as { ok: boolean; serverInfo: { name: string }; tools: ReadonlyArray<{ registeredAs: string }> }
      expect(report.ok).toBe(true)
      expect(report.serverInfo.name).toBe("demo-http")
      expect(report.tools.map((t) => t.registeredAs)).toContain("mcp__web__add")

      const broken = yield* runCli(["mcp", "test", "broken"], home)
      expect(broken.code).toBe(1)
      expect(broken.stdout).toMatch(/^result {6}FAILED: the server closed the connection during initialize \(stderr: boom/m)
      expect(broken.stderr.trim()).toMatch(/^hermes-effect: MCP server 'broken' failed: .*boom: cannot start/)

      const unknown = yield* runCli(["mcp", "test", "nope"], home)
      expect(unknown.code).toBe(1)
      expect(unknown.stderr.trim()).toBe("hermes-effect: no MCP server named 'nope' under mcp_servers (configured: alpha, broken, off, web)")
    }))

  it.live("a malformed mcp_servers entry stops the program with the file, line and key", () =>
    Effect.gen(function*() {
      const home = tempHome("hermes-effect-mcp-cli-")
      writeFileSync(join(home, "config.yaml"), ["mcp_servers:", "  alpha:", "    command: node", "    timeout: soon", ""].join("\n"))
      const result = yield* runCli(["mcp", "list"], home)
      expect(result.code).toBe(1)
      expect(result.stderr).toMatch(/config\.yaml:4: mcp_servers\.alpha\.timeout: Expected number, actual "soon"/)
    }))

  it.live("no servers configured", () =>
    Effect.gen(function*() {
      const result = yield* runCli(["mcp", "list"], tempHome("hermes-effect-mcp-cli-"))
      expect(result).toMatchObject({ code: 0, stdout: "no MCP servers configured (mcp_servers in config.yaml)\n" })
    }))
})
