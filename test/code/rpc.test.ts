/**
 * The execute_code RPC channel on its own: length-prefixed frames survive any
 * split, and the generated Python helper gets a 1 MB result whole over the
 * socket (Hermes' newline framing cuts results whose 64 KiB read ends on "\n").
 */
import { execFile } from "node:child_process"
import { createHash } from "node:crypto"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { encodeFrame, makeFrameReader } from "../../src/layers/code/frames.js"
import { pythonHelperSource } from "../../src/layers/code/pythonHelper.js"
import { makeScriptCalls } from "../../src/layers/code/scriptCalls.js"
import { serveSocket } from "../../src/layers/code/socketChannel.js"
import type { ToolExecutorService } from "../../src/services/ToolExecutor.js"
import { describeNeeding, programProblem } from "../support/systemPrograms.js"

describe("execute_code frames", () => {
  it("reassemble whatever the chunking, newlines included", () => {
    const payloads = ["{}", "a\nb\n", "x".repeat(70_000) + "\n", "é✓"]
    const wire = Buffer.concat(payloads.map(encodeFrame))
    for (const size of [1, 3, 4, 5, 65_535, wire.length]) {
      const reader = makeFrameReader()
      const out: Array<string> = []
      for (let i = 0; i < wire.length; i += size) out.push(...(reader.push(wire.subarray(i, i + size)) ?? []))
      expect(out).toEqual(payloads)
    }
  })

  it("refuse an oversized frame", () => {
    const header = Buffer.alloc(4)
    header.writeUInt32BE(0xffffffff, 0)
    expect(makeFrameReader().push(header)).toBeUndefined()
  })
})

describe("execute_code request checks", () => {
  it.effect("token, allowed list, cap (refusals free), terminal parameters dropped, outer call id not passed on", () =>
    Effect.gen(function*() {
      const dispatched: Array<unknown> = []
      const executor: ToolExecutorService = {
        dispatch: (call, options) => Effect.sync(() => {
          dispatched.push({ call, context: options?.context })
          return "{\"ok\": true}"
        }),
        execute: () => Effect.die("unused"),
        executeBatch: () => Effect.die("unused")
      }
      const calls = makeScriptCalls({ executor, context: { taskId: "t", sessionId: "s", toolCallId: "outer" }, allowed: ["terminal", "read_file"], maxToolCalls: 1, token: "secret" })
      const ask = (body: Record<string, unknown>) => Effect.map(calls.answer(JSON.stringify(body)), (s) => JSON.parse(s) as unknown)
      expect(yield* ask({ tool: "terminal", args: {}, token: "wrong" })).toEqual({ error: "Unauthorized RPC request" })
      expect(yield* ask({ tool: "memory", args: {}, token: "secret" })).toEqual({
        error: "Tool 'memory' is not available in execute_code. Available: read_file, terminal"
      })
      expect(yield* ask({ tool: "terminal", args: { command: "ls", background: true, pty: true }, token: "secret" })).toEqual({ ok: true })
      expect(yield* ask({ tool: "terminal", args: { command: "ls" }, token: "secret" })).toEqual({
        error: "Tool call limit reached (1). No more tool calls allowed in this execution."
      })
      expect(calls.made()).toBe(1)
      expect(dispatched).toEqual([{ call: { tool: "terminal", args: { command: "ls" } }, context: { taskId: "t", sessionId: "s" } }])
    }))
})

const runPython = (script: string, env: Record<string, string>) =>
  Effect.async<string, Error>((resume) => {
    const child = execFile("python3", [script], { env: { ...process.env, ...env }, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      resume(error === null ? Effect.succeed(stdout) : Effect.fail(new Error(`${error.message}\n${stderr}`))))
    return Effect.sync(() => child.kill("SIGKILL"))
  })

describeNeeding(programProblem("python3"), "execute_code RPC over a Unix socket", () => {
  it.live("a 1 MB result with newlines at the 64 KiB boundaries arrives whole", () =>
    Effect.scoped(Effect.gen(function*() {
      const dir = mkdtempSync(join(tmpdir(), "hermes-rpc-"))
      // Lines of 64 bytes: every 64 KiB read of the old framing would end on "\n".
      const line = `${"y".repeat(63)}\n`
      const big = line.repeat((1024 * 1024) / 64)
      const result = JSON.stringify({ output: big, exit_code: 0 })
      const seen: Array<string> = []
      yield* serveSocket(join(dir, "rpc.sock"), (request) =>
        Effect.sync(() => {
          seen.push(request)
          return result
        }))
      writeFileSync(join(dir, "hermes_tools.py"), pythonHelperSource(["terminal"]))
      writeFileSync(join(dir, "script.py"), [
        "import hashlib",
        "from hermes_tools import terminal",
        "for _ in range(2):",
        "    r = terminal('produce')",
        "    print(len(r['output']), hashlib.sha256(r['output'].encode()).hexdigest())"
      ].join("\n"))
      const out = yield* runPython(join(dir, "script.py"), {
        PYTHONPATH: dir,
        HERMES_RPC_SOCKET: join(dir, "rpc.sock"),
        HERMES_RPC_TOKEN: "t0k"
      })
      const expected = `${big.length} ${createHash("sha256").update(big).digest("hex")}`
      expect(out.trim().split("\n")).toEqual([expected, expected])
      expect(seen.map((s) => JSON.parse(s) as unknown)).toEqual([
        { tool: "terminal", args: { command: "produce" }, token: "t0k" },
        { tool: "terminal", args: { command: "produce" }, token: "t0k" }
      ])
    })))
})
