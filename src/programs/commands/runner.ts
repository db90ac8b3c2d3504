/**
 * `hermes-effect runner --cluster <postgres-url>`: this process joins a
 * cluster as a runner of prompt batches (see docs/scale-out.md). The cluster
 * code is imported only when the command runs, so other commands never load it.
 */
import { Command, Options } from "@effect/cli"
import { Effect, Option } from "effect"
import { scriptOption } from "./run.js"

export const clusterOption = Options.text("cluster").pipe(
  Options.withDescription("Postgres URL of the cluster (postgres://user@host:port/db): its runner, message and result storage")
)

export const runnerCommand = Command.make(
  "runner",
  {
    cluster: clusterOption,
    host: Options.text("host").pipe(Options.withDescription("Address other runners reach this one at (default 127.0.0.1)"), Options.withDefault("127.0.0.1")),
    port: Options.integer("port").pipe(Options.withDescription("Port to listen on for other runners (default: a free one)"), Options.withDefault(0)),
    concurrency: Options.integer("concurrency").pipe(Options.withDescription("Prompts this runner runs at once"), Options.withDefault(4)),
    script: scriptOption
  },
  (opts) =>
    Effect.flatMap(
      Effect.promise(() => import("../cluster/runner.js")),
      ({ runRunner }) =>
        runRunner({ url: opts.cluster, host: opts.host, port: opts.port, concurrency: opts.concurrency, script: Option.getOrUndefined(opts.script) })
    )
).pipe(Command.withDescription("Join a cluster as a runner: take shards and run their prompts (from `batch --cluster`) until stopped"))
