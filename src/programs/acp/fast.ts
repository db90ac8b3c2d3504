/**
 * The fast path of `hermes-effect acp`: editors wait for the `initialize`
 * answer, and loading the runtime takes about a second. So the first stdin
 * line, when it is `initialize`, is answered from config.yaml read as text;
 * then the full program is loaded and serves the rest (handoff.ts). Anything
 * this path cannot answer for certain is left to the full program.
 */
import { readFileSync } from "node:fs"
import { homedir } from "node:os"
import { join } from "node:path"
import { quickModelProvider } from "../../lib/quickModelProvider.js"
import { version } from "../version.js"
import { handOver } from "./handoff.js"
import { initializeResult } from "./initialize.js"

const configText = (): string | undefined => {
  const fromEnv = process.env["HERMES_EFFECT_HOME"]
  const home = fromEnv !== undefined && fromEnv !== "" ? fromEnv : join(homedir(), ".hermes-effect")
  try {
    return readFileSync(join(home, "config.yaml"), "utf8")
  } catch {
    return undefined
  }
}

/** The JSON-RPC answer to `line` with its id, or undefined when the full program should answer. */
const answerFor = (line: string): { readonly id: string | number; readonly text: string } | undefined => {
  let message: unknown
  try {
    message = JSON.parse(line)
  } catch {
    return undefined
  }
  if (message === null || typeof message !== "object" || !("method" in message) || message.method !== "initialize" || !("id" in message)) return undefined
  const id = message.id
  if (typeof id !== "string" && typeof id !== "number") return undefined
  const params = "params" in message ? message.params : undefined
  if (params === null || typeof params !== "object" || !("protocolVersion" in params) || typeof params.protocolVersion !== "number") return undefined
  const provider = quickModelProvider(configText())
  if (provider.kind === "unsure") return undefined
  const result = provider.kind === "provider"
    ? initializeResult("hermes-effect", version, provider.provider, provider.vision)
    : initializeResult("hermes-effect", version, undefined, false)
  return { id, text: `${JSON.stringify({ jsonrpc: "2.0", id, result })}\n` }
}

/** Answer `initialize` if it comes first, then `load` the full program with the unread input handed over. */
export const answerInitialize = (load: () => Promise<unknown>) => {
  const stdin = process.stdin
  const chunks: Array<Buffer> = []
  let done = false
  const finish = () => {
    if (done) return
    done = true
    stdin.off("data", onData)
    stdin.off("end", finish)
    stdin.pause()
    const all = Buffer.concat(chunks)
    const newline = all.indexOf(10)
    const answer = newline < 0 ? undefined : answerFor(all.subarray(0, newline).toString("utf8"))
    if (answer !== undefined) process.stdout.write(answer.text)
    handOver({ input: all, answered: answer?.id })
    // The full program reports its own failures (main.ts); this only starts it.
    load().catch((error: unknown) => {
      process.stderr.write(`hermes-effect: ${String(error)}\n`)
      process.exitCode = 1
    })
  }
  const onData = (data: Buffer) => {
    chunks.push(data)
    if (data.includes(10)) finish()
  }
  stdin.on("data", onData)
  stdin.on("end", finish)
}
