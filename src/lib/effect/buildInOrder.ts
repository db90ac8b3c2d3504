/**
 * Layers built one after another, each given the services of those before it, into the scope and memo map of the
 * layer being built: what a chain of `Layer.provideMerge` builds, without the composite layers the chain is made of.
 *
 * The layer machinery memoizes every node of a layer graph, composites included, and a node costs about as much as
 * a service (a lock, a deferred, a scope, a fiber-ref diff): one `provideMerge` is five nodes (ProvideMerge over a
 * Suspend, a Provide, a ProvideMerge and a `Layer.context()`), `Layer.provide` four, and a `mergeAll` forks a fiber
 * per layer. HermesRuntime's ~75 services sat in a graph of 181 nodes, ~105 of them composites, and a cold start
 * spent ~75 ms building them, run by the interpreter before any of it is hot. Built in order here, each service is
 * one node.
 *
 * The shared memo map is the one the enclosing build uses (`Layer.CurrentMemoMap`), so a layer the caller's own
 * graph also holds (the same config or database layer object) is still built once; finalizers go to the enclosing
 * layer's scope, so services are released in the reverse of the order they were built.
 */
import { Context, Effect, Layer } from "effect"
import type { Scope } from "effect"

/** Builds `layer` with exactly `services` (what it requires, or more) and returns what it provides. */
export type BuildOne = <A, E, R>(layer: Layer.Layer<A, E, R>, services: Context.Context<R>) => Effect.Effect<Context.Context<A>, E>

/** Builds `layer` on `services` and returns both: one `provideMerge` link. */
export type ExtendWith = <S, A, E>(services: Context.Context<S>, layer: Layer.Layer<A, E, NoInfer<S>>) => Effect.Effect<Context.Context<S | A>, E>

export interface InOrder {
  readonly build: BuildOne
  readonly extend: ExtendWith
}

/** The builders for this layer's scope and memo map: use them inside `Layer.scopedContext`. */
export const buildInOrder: Effect.Effect<InOrder, never, Scope.Scope> = Effect.map(
  Effect.zip(Effect.scope, Layer.CurrentMemoMap),
  ([scope, memoMap]): InOrder => {
    const build: BuildOne = (layer, services) => Effect.provide(Layer.buildWithMemoMap(layer, memoMap, scope), services)
    return {
      build,
      extend: (services, layer) => Effect.map(build(layer, services), (added) => Context.merge(services, added))
    }
  }
)
