/** What the MCP tests share: the demo server's entry points, waiting on server states, looking at pids. */
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { Effect, Option, Stream } from "effect"
import type { HermesConfigInput } from "../../src/services/Config.js"
import { Mcp } from "../../src/services/Mcp.js"
import type { McpServerStatus } from "../../src/services/Mcp.js"
import { ToolExecutor } from "../../src/services/ToolExecutor.js"

export const STDIO_SERVER = fileURLToPath(new URL("../support/mcpServers/stdio-server.mjs", import.meta.url))

export type ServerEntry = NonNullable<HermesConfigInput["mcp_servers"]>[string]

/** A `mcp_servers` entry that runs the demo server over stdio with `flags`. */
export const stdioEntry = (flags: ReadonlyArray<string> = [], extra: Partial<ServerEntry> = {}): ServerEntry => ({
  command: process.execPath,
  args: [STDIO_SERVER, ...flags],
  ...extra
})

/** The first status of `server` that satisfies `predicate` (now or later). */
export const waitFor = (server: string, predicate: (s: McpServerStatus) => boolean) =>
  Effect.flatMap(Mcp, (mcp) =>
    mcp.changes.pipe(
      Stream.map((all) => all.find((s) => s.name === server)),
      Stream.filter((s): s is McpServerStatus => s !== undefined && predicate(s)),
      Stream.runHead,
      Effect.map(Option.getOrThrow)
    ))

export const connected = (server: string) => waitFor(server, (s) => s.state === "connected")

export type Json = Record<string, unknown>
export const parse = (text: string): Json => JSON.parse(text) as Json

/** Dispatch one call and parse the result. */
export const call = (tool: string, args: unknown = {}) =>
  Effect.map(Effect.flatMap(ToolExecutor, (r) => r.dispatch({ tool, args })), parse)

export const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** The pid a demo server wrote with `--pid-file`. */
export const pidFrom = (dir: string, name: string): number | undefined => {
  const file = join(dir, `${name}.pid`)
  return existsSync(file) ? Number(readFileSync(file, "utf8")) : undefined
}

/** A process we started may take a moment to be reaped after the runtime closed it. */
export const gone = (pid: number, ms = 5000) =>
  Effect.promise(async () => {
    const deadline = Date.now() + ms
    while (isAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
    return !isAlive(pid)
  })
