/**
 * `hermes-effect runner --cluster <postgres-url>`: this process joins a
 * cluster as a runner of prompt batches (see docs/scale-out.md). The cluster
 * code is imported only when the command runs, so other commands never load it.
 */
import { Command, Options } from "@effect/cli"
import { Effect, Option } from "effect"
import { clusterSettings } from "./clusterSettings.js"
import { scriptOption } from "./run.js"

export const clusterOption = Options.text("cluster").pipe(
  Options.withDescription("Postgres URL of the cluster (postgres://user@host:port/db): its runner, message and result storage (default: cluster.url)"),
  Options.optional
)

export const runnerCommand = Command.make(
  "runner",
  {
    cluster: clusterOption,
    host: Options.text("host").pipe(Options.withDescription("Address other runners reach this one at (default cluster.host, 127.0.0.1)"), Options.optional),
    port: Options.integer("port").pipe(Options.withDescription("Port to listen on for other runners (default cluster.port; 0: a free one)"), Options.optional),
    concurrency: Options.integer("concurrency").pipe(Options.withDescription("Prompts this runner runs at once (default cluster.concurrency, 4)"), Options.optional),
    script: scriptOption
  },
  (opts) =>
    Effect.gen(function*() {
      const settings = yield* clusterSettings(opts)
      const { runRunner } = yield* Effect.promise(() => import("../cluster/runner.js"))
      return yield* runRunner({ ...settings, script: Option.getOrUndefined(opts.script) })
    })
).pipe(Command.withDescription("Join a cluster as a runner: take shards and run their prompts (from `batch --cluster`) until stopped"))
