/** What every CLI command shares: the runtime on embedded defaults, and list options. */
import { writeSync } from "node:fs"
import { Options } from "@effect/cli"
import { Data, Effect, Option } from "effect"
import { errnoCode } from "../../lib/platformErrors.js"
import { runtimeLayer } from "./lazy.js"

/** Whoever read our stdout has gone (`hermes-effect batch … | head`): the program stops quietly (see main.ts). */
export class StdoutClosed extends Data.TaggedError("StdoutClosed")<{}> {}

/**
 * One line to `fd` (1 is stdout), written before this returns. A stdout whose reader has gone ends the program as
 * a StdoutClosed defect, so nothing is run for a reader that will never see it; any other failure is a defect as is.
 */
export const writeLineSync = (fd: number, line: string): Effect.Effect<void> =>
  Effect.sync(() => {
    try {
      writeAllSync(fd, Buffer.from(line, "utf8"))
    } catch (error) {
      throw fd === 1 && errnoCode(error) === "EPIPE" ? new StdoutClosed() : error
    }
  })

/** A cell nobody notifies: waiting on it is a pause without the event loop (one for the module, not one a pause). */
const PAUSE_CELL = new Int32Array(new SharedArrayBuffer(4))

/** A pause of `ms` without the event loop: the caller promised the line is written before it returns. */
const pauseMs = (ms: number) => void Atomics.wait(PAUSE_CELL, 0, 0, ms)

/**
 * All of `data` to `fd`. A pipe whose file description is non-blocking (the reader's side may have made it so, or a
 * process sharing it) takes part of a line, or none with EAGAIN, while its reader is behind: the rest is written once
 * there is room, rather than lost or ending the program (a batch on a loaded machine died of EAGAIN this way).
 */
const writeAllSync = (fd: number, data: Buffer): void => {
  let written = 0
  while (written < data.length) {
    try {
      written += writeSync(fd, data, written)
    } catch (error) {
      if (errnoCode(error) !== "EAGAIN") throw error
      pauseMs(1)
    }
  }
}

/**
 * The runtime on embedded defaults; nobody is asked for approval (batch, scripts).
 * CLI commands wait for each MCP server's first connection attempt, so a
 * one-shot command sees the servers' tools (a no-op without `mcp_servers`).
 */
export const withRuntime = <A, E, R>(program: Effect.Effect<A, E, R>) =>
  Effect.provide(program, runtimeLayer({ mcp: { awaitStartup: true } }))

/**
 * For commands that only read the catalogue (tools, toolsets, plugins): the same runtime on a private in-memory
 * state database, so listing neither opens nor creates `state.db` (and works while that file is locked or damaged);
 * that one is only made if something runs a statement, which listing does not.
 */
export const withCatalogueRuntime = <A, E, R>(program: Effect.Effect<A, E, R>) =>
  Effect.provide(
    program,
    runtimeLayer(async () => ({
      mcp: { awaitStartup: true },
      database: (await import("../../layers/sql/StateDatabase.js")).StateDatabaseMemoryOnDemand
    }))
  )

/** The batch runtime: every call and result is recorded as a `batch` session (see `sessions list`). */
export const withBatchRuntime = <A, E, R>(program: Effect.Effect<A, E, R>) =>
  Effect.provide(program, runtimeLayer({ mcp: { awaitStartup: true }, recordSessions: { source: "batch" } }))

/** Same, but a person at a terminal answers approvals and clarify questions. */
export const withInteractiveRuntime = <A, E, R>(program: Effect.Effect<A, E, R>) => {
  const tty = process.stdin.isTTY === true
  return Effect.provide(
    program,
    runtimeLayer(async () => {
      const [{ ApproverTerminal }, { ApproverNonInteractive }, prompters] = await Promise.all([
        import("../../layers/approval/approvers/ApproverTerminal.js"),
        import("../../layers/approval/approvers/ApproverNonInteractive.js"),
        import("../../layers/Prompters.js")
      ])
      return {
        mcp: { awaitStartup: true },
        recordSessions: { source: "cli" },
        approver: tty ? ApproverTerminal : ApproverNonInteractive,
        prompter: tty ? prompters.PrompterTerminal : prompters.PrompterNonInteractive
      }
    })
  )
}

export const splitList = (value: Option.Option<string>): ReadonlyArray<string> | undefined =>
  Option.match(value, {
    onNone: () => undefined,
    onSome: (text) => text.split(",").map((s) => s.trim()).filter((s) => s.length > 0)
  })

export const toolsetsOption = Options.text("toolsets").pipe(
  Options.withDescription("Comma-separated toolsets to enable (default: config `toolsets`, else all)"),
  Options.optional
)

export const disableOption = Options.text("disable").pipe(
  Options.withDescription("Comma-separated toolsets to disable (subtracted last)"),
  Options.optional
)

export const jsonOption = Options.boolean("json").pipe(Options.withDescription("Print JSON instead of a table"))

export const writeOut = (text: string) => Effect.sync(() => void process.stdout.write(text.endsWith("\n") ? text : `${text}\n`))

export const writeErr = (text: string) => Effect.sync(() => void process.stderr.write(text.endsWith("\n") ? text : `${text}\n`))

/** Pad columns for a plain-text table. */
export const table = (rows: ReadonlyArray<ReadonlyArray<string>>): string => {
  const widths = rows.reduce<Array<number>>((w, row) => row.map((cell, i) => Math.max(w[i] ?? 0, cell.length)), [])
  return rows.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join("  ")).join("\n")
}
