/**
 * The execute_code RPC server on a Unix socket (local and sandbox backends):
 * length-prefixed frames (`frames.ts`), requests of one connection answered
 * in order. Closing the scope closes the server and every connection and
 * interrupts calls still running, so a script outliving its run finds its
 * channel gone.
 */
import { chmodSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import type { Socket } from "node:net"
import { Effect, FiberSet } from "effect"
import type { Scope } from "effect"
import { TerminalError } from "../../services/TerminalBackend.js"
import { encodeFrame, makeFrameReader } from "./frames.js"

export const serveSocket = (
  path: string,
  handle: (request: string) => Effect.Effect<string>
): Effect.Effect<void, TerminalError, Scope.Scope> =>
  Effect.gen(function*() {
    const run = yield* FiberSet.makeRuntime<never, string, never>()
    const sockets = new Set<Socket>()
    const server = createServer((socket) => {
      sockets.add(socket)
      const reader = makeFrameReader()
      const pending: Array<string> = []
      let busy = false
      const pump = () => {
        const next = pending.shift()
        if (busy || next === undefined) return
        busy = true
        run(handle(next)).addObserver((exit) => {
          busy = false
          if (exit._tag === "Success" && !socket.destroyed) socket.write(encodeFrame(exit.value))
          if (exit._tag === "Failure") socket.destroy()
          else pump()
        })
      }
      socket.on("data", (chunk) => {
        const frames = reader.push(chunk)
        if (frames === undefined) return socket.destroy()
        pending.push(...frames)
        pump()
      })
      socket.on("error", () => socket.destroy())
      socket.on("close", () => sockets.delete(socket))
    })
    yield* Effect.acquireRelease(
      Effect.async<void, TerminalError>((resume) => {
        server.once("error", (error) => resume(Effect.fail(new TerminalError({ message: `execute_code RPC socket: ${error.message}` }))))
        server.listen(path, () => {
          chmodSync(path, 0o600)
          resume(Effect.void)
        })
      }),
      () =>
        Effect.sync(() => {
          for (const socket of sockets) socket.destroy()
          server.close()
          rmSync(path, { force: true })
        })
    )
  })
