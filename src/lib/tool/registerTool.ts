/**
 * Turn a declared tool into what the registry stores: its services captured
 * from the layer that registers it (so `R` is checked where the tool is wired,
 * not at dispatch) and its arguments erased behind a precompiled decoder.
 */
import { Context, Effect, Schema } from "effect"
import type { Tool } from "../../services/Tool.js"
import type { ToolContext } from "../../services/ToolContext.js"
import { ToolRegistry } from "../../services/ToolRegistry.js"
import type { RegisteredTool, RegistrationError } from "../../services/ToolRegistry.js"
import { withFastPath } from "./fastDecode.js"

const DECODE_OPTIONS = { errors: "first", onExcessProperty: "ignore" } as const

export const provideTool = <A, I, R>(tool: Tool<A, I, R>): Effect.Effect<RegisteredTool, never, Exclude<R, ToolContext>> =>
  Effect.map(Effect.context<Exclude<R, ToolContext>>(), (services) => eraseTool(tool, services))

/**
 * One provided check per (check, services) pair: tools sharing a check (the twelve browser tools share one) then
 * share one entry in the registry's availability cache, so it is probed once rather than once per tool.
 */
const providedChecks = new WeakMap<object, WeakMap<object, Effect.Effect<boolean, unknown>>>()

const provideCheck = <R>(check: Effect.Effect<boolean, unknown, R>, services: Context.Context<unknown>): Effect.Effect<boolean, unknown> => {
  let byServices = providedChecks.get(check)
  if (byServices === undefined) providedChecks.set(check, byServices = new WeakMap())
  let provided = byServices.get(services)
  if (provided === undefined) {
    // The check's requirements were captured with `services` (see provideTool), so the cast only erases R.
    provided = Effect.provide(check as Effect.Effect<boolean, unknown, never>, services)
    byServices.set(services, provided)
  }
  return provided
}

export const eraseTool = <A, I, R>(tool: Tool<A, I, R>, services: Context.Context<Exclude<R, ToolContext>>): RegisteredTool => {
  const decode = withFastPath(tool.parameters.ast, DECODE_OPTIONS, Schema.decodeUnknownEither(tool.parameters, DECODE_OPTIONS))
  // Decoded arguments come only from `decode` above, so the casts below are the erasure boundary.
  const withServices = <X, E>(effect: Effect.Effect<X, E, R>): Effect.Effect<X, E> =>
    Effect.provide(effect as Effect.Effect<X, E, Exclude<R, ToolContext>>, services)
  return {
    name: tool.name,
    toolset: tool.toolset,
    description: tool.description,
    jsonSchema: tool.jsonSchema,
    requiresEnv: tool.requiresEnv,
    emoji: tool.emoji,
    maxResultChars: tool.maxResultChars,
    parallel: tool.parallel,
    pathArgument: tool.pathArgument,
    override: tool.override,
    source: tool.source,
    decode,
    handler: tool.handler as RegisteredTool["handler"],
    services: services as Context.Context<unknown>,
    timeout: tool.timeout as RegisteredTool["timeout"],
    unavailableReason: tool.unavailableReason,
    check: tool.check === undefined ? undefined : provideCheck(tool.check, services as Context.Context<unknown>),
    dynamicSchema: tool.dynamicSchema === undefined ? undefined : withServices(tool.dynamicSchema)
  }
}

/** Register a declared tool from inside a layer that provides its services. */
export const registerTool = <A, I, R>(
  tool: Tool<A, I, R>
): Effect.Effect<void, RegistrationError, ToolRegistry | Exclude<R, ToolContext>> =>
  Effect.flatMap(ToolRegistry, (registry) => Effect.flatMap(provideTool(tool), registry.register))
