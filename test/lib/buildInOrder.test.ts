import { describe, expect, it } from "@effect/vitest"
import { join } from "node:path"
import { HttpClient } from "@effect/platform"
import { Context, Effect, Exit, Layer, Option, Scope } from "effect"
import { ConfigTest } from "../../src/layers/ConfigTest.js"
import { layer as hermesRuntime } from "../../src/layers/HermesRuntime.js"
import { StateDatabaseMemory } from "../../src/layers/sql/StateDatabase.js"
import { buildInOrder } from "../../src/lib/effect/buildInOrder.js"
import { CodeExecution } from "../../src/services/CodeExecution.js"
import { ToolExecutor } from "../../src/services/ToolExecutor.js"
import { ToolRegistry } from "../../src/services/ToolRegistry.js"
import { tempHome } from "../support/runtime.js"

class First extends Context.Tag("test/First")<First, { readonly n: number }>() {}
class Second extends Context.Tag("test/Second")<Second, { readonly n: number }>() {}
class Shared extends Context.Tag("test/Shared")<Shared, { readonly id: number }>() {}
class Failing extends Context.Tag("test/Failing")<Failing, never>() {}

/** A layer that logs its acquisition and release into `log`. */
const logged = <I, S, R>(log: Array<string>, tag: Context.Tag<I, S>, name: string, make: Effect.Effect<S, never, R>) =>
  Layer.scoped(tag, Effect.acquireRelease(Effect.zipLeft(make, Effect.sync(() => log.push(`+${name}`))), () => Effect.sync(() => log.push(`-${name}`))))

describe("buildInOrder", () => {
  it.effect("builds each layer with the services before it and releases them in reverse", () =>
    Effect.gen(function*() {
      const log: Array<string> = []
      const first = logged(log, First, "first", Effect.succeed({ n: 1 }))
      const second = logged(log, Second, "second", Effect.map(First, (f) => ({ n: f.n + 1 })))
      const both = Layer.scopedContext(Effect.gen(function*() {
        const { build, extend } = yield* buildInOrder
        return yield* extend(yield* build(first, Context.empty()), second)
      }))
      const scope = yield* Scope.make()
      const context = yield* Layer.buildWithScope(both, scope)
      expect(Context.get(context, Second).n).toBe(2)
      expect(log).toEqual(["+first", "+second"])
      yield* Scope.close(scope, Exit.void)
      expect(log).toEqual(["+first", "+second", "-second", "-first"])
    }))

  it.effect("shares the enclosing build's memo map: a layer the caller's graph also holds is built once", () =>
    Effect.gen(function*() {
      let built = 0
      const shared = Layer.effect(Shared, Effect.sync(() => ({ id: ++built })))
      const inner = Layer.scopedContext(Effect.gen(function*() {
        const { build } = yield* buildInOrder
        return yield* build(shared, Context.empty())
      }))
      // The caller's graph holds the same layer object next to the one built in order.
      const context = yield* Effect.scoped(Layer.build(Layer.merge(shared, inner)))
      expect(Context.get(context, Shared).id).toBe(1)
      expect(built).toBe(1)
    }))

  it.effect("fails with the failing layer's error and releases what was built before it", () =>
    Effect.gen(function*() {
      const log: Array<string> = []
      const first = logged(log, First, "first", Effect.succeed({ n: 1 }))
      const failing = Layer.effect(Failing, Effect.fail("no database"))
      const both = Layer.scopedContext(Effect.gen(function*() {
        const { build } = yield* buildInOrder
        const one = yield* build(first, Context.empty())
        return Context.merge(one, yield* build(failing, one))
      }))
      const exit = yield* Effect.exit(Effect.scoped(Layer.build(both)))
      expect(exit).toStrictEqual(Exit.fail("no database"))
      expect(log).toEqual(["+first", "-first"])
    }))

  it.effect("HermesRuntime provides its services and keeps what one stage alone was given (HTTP client, code execution) to itself", () =>
    Effect.gen(function*() {
      const home = tempHome("hermes-in-order-")
      const runtime = hermesRuntime({
        config: ConfigTest({}, { root: join(home, "home"), workspaceDir: join(home, "ws") }),
        database: StateDatabaseMemory,
        plugins: false,
        mcp: false
      })
      const context = yield* Effect.scoped(Layer.build(runtime))
      expect(Option.isSome(Context.getOption(context, ToolExecutor))).toBe(true)
      const registry = Context.get(context, ToolRegistry)
      expect(registry.names()).toContain("execute_code")
      expect(Option.isNone(Context.getOption(context, HttpClient.HttpClient))).toBe(true)
      expect(Option.isNone(Context.getOption(context, CodeExecution))).toBe(true)
    }))
})
