/**
 * `hermes-effect mcp list`: every server under `mcp_servers`, after its first
 * connection attempt: state, tool count, error.
 * `hermes-effect mcp test <name>`: one fresh connection to one server, timed,
 * with the tools it would register (exit 1 when it cannot connect).
 */
import { Args, Command } from "@effect/cli"
import { Data, Effect } from "effect"
import { Mcp } from "../../services/Mcp.js"
import type { McpServerStatus, McpTestReport } from "../../services/Mcp.js"
import { runtimeLayer } from "./lazy.js"
import { jsonOption, table, writeOut } from "./shared.js"

export class McpTestFailed extends Data.TaggedError("McpTestFailed")<{ readonly message: string }> {}

const detail = (s: McpServerStatus) => {
  const warnings = s.warnings.length === 0 ? "" : ` (${s.warnings.length} warning${s.warnings.length === 1 ? "" : "s"})`
  return `${s.error ?? s.target}${warnings}`
}

const list = Command.make("list", { json: jsonOption }, (opts) =>
  Effect.gen(function*() {
    const statuses = yield* Effect.flatMap(Mcp, (m) => m.awaitSettled)
    if (opts.json) return yield* writeOut(JSON.stringify(statuses, null, 2))
    if (statuses.length === 0) return yield* writeOut("no MCP servers configured (mcp_servers in config.yaml)")
    yield* writeOut(table([
      ["SERVER", "STATE", "TOOLS", "TRANSPORT", "DETAIL"],
      ...statuses.map((s) => [s.name, s.state, String(s.tools.length), s.transport ?? "-", detail(s)])
    ]))
    const warnings = statuses.flatMap((s) => s.warnings.map((w) => `warning: ${s.name}: ${w}`))
    if (warnings.length > 0) yield* writeOut(warnings.join("\n"))
  }).pipe(Effect.provide(runtimeLayer({ mcp: { awaitStartup: true } })))
).pipe(Command.withDescription("MCP servers from config: state after the first connection attempt, tool counts, errors"))

const ms = (value: number | undefined) => (value === undefined ? "-" : `${value} ms`)

const render = (r: McpTestReport): string => {
  const offers = Object.entries(r.capabilities).filter(([, on]) => on).map(([what]) => what)
  const head = [
    `server      ${r.server} (${r.transport ?? "?"}: ${r.target})`,
    `result      ${r.ok ? "ok" : `FAILED: ${r.error ?? "unknown error"}`}`,
    `connect     ${ms(r.connectMs)}`,
    `tools/list  ${ms(r.listMs)}`,
    ...(r.serverInfo === undefined ? [] : [`reports     ${r.serverInfo.name} ${r.serverInfo.version}`]),
    ...(r.ok ? [`offers      ${offers.length === 0 ? "nothing" : offers.join(", ")}`] : [])
  ]
  if (r.tools.length === 0) return head.join("\n")
  const rows = table([
    ["TOOL", "REGISTERS AS", "NOTE"],
    ...r.tools.map((t) => [t.tool, t.skipped === undefined ? t.registeredAs : "-", t.skipped ?? t.warnings.join("; ")])
  ])
  return `${head.join("\n")}\n\n${rows}`
}

const test = Command.make(
  "test",
  { json: jsonOption, name: Args.text({ name: "name" }).pipe(Args.withDescription("A server under mcp_servers")) },
  (opts) =>
    Effect.gen(function*() {
      const report = yield* Effect.flatMap(Mcp, (m) => m.test(opts.name))
      yield* writeOut(opts.json ? JSON.stringify(report, null, 2) : render(report))
      if (!report.ok) {
        return yield* Effect.fail(new McpTestFailed({ message: `MCP server '${report.server}' failed: ${report.error ?? "unknown error"}` }))
      }
    }).pipe(Effect.provide(runtimeLayer({ mcp: { connect: false } })))
).pipe(Command.withDescription("Connect to one MCP server, list its tools, report timing and errors (even when disabled)"))

export const mcpCommand = Command.make("mcp").pipe(
  Command.withDescription("Model Context Protocol servers (mcp_servers in config.yaml)"),
  Command.withSubcommands([list, test])
)
