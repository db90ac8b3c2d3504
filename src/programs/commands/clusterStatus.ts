/** `hermes-effect cluster status --cluster <url>`: runners, shards and the progress of cluster batches. */
import { Command, Options } from "@effect/cli"
import { Effect } from "effect"
import { clusterSettings } from "./clusterSettings.js"
import { clusterOption } from "./runner.js"

const statusCommand = Command.make(
  "status",
  { cluster: clusterOption, json: Options.boolean("json").pipe(Options.withDescription("One JSON object instead of tables")) },
  (opts) =>
    Effect.gen(function*() {
      const { url } = yield* clusterSettings(opts)
      const { clusterStatus } = yield* Effect.promise(() => import("../cluster/status.js"))
      return yield* clusterStatus(url, opts.json)
    })
).pipe(Command.withDescription("Runners (live or gone, shards held, prompts running and done) and done / running / failed prompts per batch"))

export const clusterCommand = Command.make("cluster").pipe(
  Command.withDescription("Scale-out of prompt batches on @effect/cluster with Postgres (see docs/scale-out.md)"),
  Command.withSubcommands([statusCommand])
)
