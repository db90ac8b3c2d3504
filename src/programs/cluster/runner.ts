/**
 * `hermes-effect runner --cluster <postgres-url>`: joins the cluster as a
 * runner, takes shards and runs the `Prompt` messages on them through the
 * agent runtime of this machine (its config, its model or `--script`, its
 * session database), until interrupted.
 */
import { createServer } from "node:net"
import { Effect, Layer } from "effect"
import { PromptRunnerLive } from "../../layers/cluster/PromptRunnerLive.js"
import { runnerSharding } from "../../layers/cluster/shardingLayer.js"
import { ClusterStorePg, pgClientLayer } from "../../layers/sql/pg/ClusterStorePg.js"
import { agentRuntime } from "../commands/run.js"

export interface RunnerProgramOptions {
  readonly url: string
  readonly host: string
  /** 0: a free port. */
  readonly port: number
  readonly concurrency: number
  readonly script: string | undefined
}

/** A port nobody listens on right now (the runner's address must be a real port others can dial). */
const freePort = (host: string) =>
  Effect.async<number, Error>((resume) => {
    const server = createServer()
    server.once("error", (e) => resume(Effect.fail(e)))
    server.listen(0, host, () => {
      const address = server.address()
      const port = address !== null && typeof address === "object" ? address.port : 0
      server.close(() => resume(Effect.succeed(port)))
    })
  })

export const runRunner = (options: RunnerProgramOptions) =>
  Effect.gen(function*() {
    const port = options.port === 0 ? yield* freePort(options.host) : options.port
    const address = `${options.host}:${port}`
    process.stderr.write(`runner: ${address} joining the cluster (pid ${process.pid})\n`)
    const pg = pgClientLayer(options.url)
    const runner = PromptRunnerLive({ address, concurrency: options.concurrency }).pipe(
      Layer.provide(runnerSharding(options.url, options.host, port)),
      Layer.provide(ClusterStorePg.pipe(Layer.provide(pg))),
      Layer.provide(agentRuntime(options.script, false))
    )
    return yield* Layer.launch(runner)
  })
