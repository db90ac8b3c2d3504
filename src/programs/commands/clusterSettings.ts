/**
 * The cluster settings a command runs with: its flags, else `cluster:` in
 * config.yaml. Reads only the config (no runtime, no database).
 */
import { Effect, Option } from "effect"
import { Config } from "../../services/Config.js"
import type { ConfigError } from "../../services/Config.js"
import { BatchInputError } from "./batchShared.js"
import { configLayer } from "./lazy.js"

export interface ClusterFlags {
  readonly cluster: Option.Option<string>
  readonly host?: Option.Option<string>
  readonly port?: Option.Option<number>
  readonly concurrency?: Option.Option<number>
}

export interface ClusterSettings {
  readonly url: string
  readonly host: string
  readonly port: number
  readonly concurrency: number
}

const NO_URL = "no cluster given: pass --cluster <postgres-url> or set cluster.url in config.yaml"

export const clusterSettings = (flags: ClusterFlags): Effect.Effect<ClusterSettings, BatchInputError | ConfigError> =>
  Effect.gen(function*() {
    const config = (yield* (yield* Config).current).cluster
    const url = Option.getOrUndefined(flags.cluster) ?? config.url
    if (url === undefined || url.trim() === "") return yield* new BatchInputError({ message: NO_URL })
    const pick = <A>(flag: Option.Option<A> | undefined, fallback: A) => (flag === undefined ? fallback : Option.getOrElse(flag, () => fallback))
    return {
      url: url.trim(),
      host: pick(flags.host, config.host),
      port: pick(flags.port, config.port),
      concurrency: Math.max(1, pick(flags.concurrency, config.concurrency))
    }
  }).pipe(Effect.provide(configLayer))
