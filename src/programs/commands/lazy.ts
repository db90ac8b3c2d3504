/**
 * The layers commands run on, imported when a command runs rather than at
 * start-up: `--help`, usage errors and light commands then never compile the
 * runtime (every service, every tool) or the state database code.
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import { Effect, Layer } from "effect"
import type { RuntimeOptions } from "../../layers/HermesRuntime.js"

const load = <M, A, E, R>(module: () => Promise<M>, pick: (m: M) => Layer.Layer<A, E, R>) =>
  Layer.unwrapEffect(Effect.map(Effect.promise(module), pick))

/** `HermesRuntime.layer(options)`; `options` may import what it names (approvers, prompters) itself. */
export const runtimeLayer = (options: RuntimeOptions | (() => Promise<RuntimeOptions>)) =>
  Layer.unwrapEffect(
    Effect.promise(async () => {
      const [{ layer }, resolved] = await Promise.all([
        import("../../layers/HermesRuntime.js"),
        typeof options === "function" ? options() : Promise.resolve(options)
      ])
      return layer(resolved)
    })
  )

/** `ConfigLive()` on the Node file system. */
export const configLayer = load(() => import("../../layers/ConfigLive.js"), (m) => m.ConfigLive().pipe(Layer.provide(NodeFileSystem.layer)))

export const stateDatabaseLayer = load(() => import("../../layers/sql/StateDatabase.js"), (m) => m.StateDatabaseLive)
