/**
 * Loads enabled plugins at layer build. The plugin module exports
 * `register(ctx)` (named, or as the default export); `ctx` lets it register
 * tools and hooks without depending on its own copy of effect: parameters may
 * be written with `ctx.Schema`, or given as a plain JSON schema object.
 * Handlers and hooks may return a value, a Promise or an Effect.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { Context, Effect, Either, Layer, ParseResult, Schema, SchemaAST } from "effect"
import { parse as parseYaml } from "yaml"
import { Config } from "../services/Config.js"
import { HOOK_NAMES, Hooks } from "../services/Hooks.js"
import type { HookName, HookSet } from "../services/Hooks.js"
import { Plugins } from "../services/Plugins.js"
import type { PluginStatus } from "../services/Plugins.js"
import type { JsonSchema, ParallelPolicy, ToolOutput } from "../services/Tool.js"
import { ToolContext } from "../services/ToolContext.js"
import type { ToolCallContext } from "../services/ToolContext.js"
import { ToolRegistry } from "../services/ToolRegistry.js"
import type { RegisteredTool } from "../services/ToolRegistry.js"
import { deriveJsonSchema } from "../lib/tool/jsonSchema.js"
import { importModule } from "../lib/importModule.js"

/** The error a plugin handler's throw or rejection becomes (folded to the model as its message). */
export class PluginToolError extends Schema.TaggedError<PluginToolError>()("PluginToolError", {
  message: Schema.String
}) {}

class PluginLoadError extends Error {}

/** What a plugin passes to `ctx.registerTool`. Checked at runtime: plugins are plain JS. */
export interface PluginToolSpec {
  readonly name: string
  readonly toolset?: string
  readonly description: string
  readonly parameters?: Schema.Schema.Any | JsonSchema
  readonly handler: (args: unknown, context: ToolCallContext) => unknown
  readonly check?: () => unknown
  readonly emoji?: string
  readonly override?: boolean
  readonly parallel?: ParallelPolicy
  readonly maxResultChars?: number
}

export interface PluginContext {
  readonly name: string
  readonly config: unknown
  readonly Schema: typeof Schema
  readonly Effect: typeof Effect
  readonly registerTool: (spec: PluginToolSpec) => void
  readonly registerHook: (name: HookName, fn: (event: never) => unknown) => void
}

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e))

const isPromiseLike = (value: unknown): value is PromiseLike<unknown> =>
  value !== null && (typeof value === "object" || typeof value === "function") &&
  typeof (value as { then?: unknown }).then === "function"

/** A plugin function's result as an Effect: values, Promises and Effects alike. */
const lift = (thunk: () => unknown): Effect.Effect<unknown, PluginToolError> =>
  Effect.suspend(() => {
    let value: unknown
    try {
      value = thunk()
    } catch (e) {
      return Effect.fail(new PluginToolError({ message: errorText(e) }))
    }
    if (Effect.isEffect(value)) {
      return Effect.mapError(value as Effect.Effect<unknown, unknown>, (e) =>
        new PluginToolError({ message: errorText(e) }))
    }
    if (isPromiseLike(value)) {
      return Effect.tryPromise({ try: () => Promise.resolve(value), catch: (e) => new PluginToolError({ message: errorText(e) }) })
    }
    return Effect.succeed(value)
  })

const asOutput = (value: unknown): ToolOutput =>
  typeof value === "string" ? value : value !== null && typeof value === "object" ? (value as ToolOutput) : JSON.stringify(value ?? null)

const isSchema = (value: unknown): value is Schema.Schema<unknown, unknown, never> => Schema.isSchema(value)

/** Plain JSON-schema parameters get a light check: an object with its required keys. */
const jsonSchemaDecoder = (schema: JsonSchema) => {
  const required = Array.isArray(schema["required"]) ? schema["required"].filter((k): k is string => typeof k === "string") : []
  const shape = Schema.Record({ key: Schema.String, value: Schema.Unknown })
  const decode = Schema.decodeUnknownEither(shape)
  return (input: unknown): Either.Either<unknown, ParseResult.ParseError> => {
    const result = decode(input)
    if (Either.isLeft(result)) return result
    const missing = required.find((k) => !(k in result.right))
    if (missing === undefined) return result
    return Either.left(
      new ParseResult.ParseError({
        issue: new ParseResult.Pointer([missing], input, new ParseResult.Missing(new SchemaAST.Type(SchemaAST.unknownKeyword)))
      })
    )
  }
}

const toRegisteredTool = (plugin: string, spec: PluginToolSpec): RegisteredTool => {
  if (typeof spec?.name !== "string" || spec.name.length === 0) throw new PluginLoadError("registerTool: `name` must be a non-empty string")
  if (typeof spec.handler !== "function") throw new PluginLoadError(`registerTool(${spec.name}): \`handler\` must be a function`)
  const params = spec.parameters ?? { type: "object", properties: {} }
  const schema = isSchema(params) ? params : undefined
  const jsonSchema = schema === undefined ? (params as JsonSchema) : deriveJsonSchema(schema)
  const decode = schema === undefined
    ? jsonSchemaDecoder(jsonSchema)
    : Schema.decodeUnknownEither(schema, { errors: "first", onExcessProperty: "ignore" })
  const check = spec.check
  return {
    name: spec.name,
    toolset: spec.toolset ?? plugin,
    description: typeof spec.description === "string" ? spec.description : "",
    jsonSchema,
    requiresEnv: [],
    emoji: spec.emoji ?? "",
    maxResultChars: spec.maxResultChars,
    parallel: spec.parallel ?? "sequential",
    pathArgument: "path",
    override: spec.override === true,
    source: { kind: "plugin", plugin },
    decode,
    handler: (args) => Effect.flatMap(ToolContext, (context) => Effect.map(lift(() => spec.handler(args, context)), asOutput)),
    services: Context.empty() as Context.Context<unknown>,
    timeout: undefined,
    check: check === undefined ? undefined : Effect.map(lift(check), (v) => v === true),
    dynamicSchema: undefined
  }
}

const findEntry = (dir: string): string | undefined => {
  const manifest = join(dir, "plugin.yaml")
  if (existsSync(manifest)) {
    const parsed: unknown = parseYaml(readFileSync(manifest, "utf8"))
    const entry = parsed !== null && typeof parsed === "object" ? (parsed as Record<string, unknown>)["entry"] : undefined
    if (typeof entry === "string") return join(dir, entry)
  }
  return ["index.mjs", "index.js"].map((f) => join(dir, f)).find((f) => existsSync(f))
}

export const PluginsLive = Layer.effect(
  Plugins,
  Effect.gen(function*() {
    const config = yield* Config
    const registry = yield* ToolRegistry
    const hooks = yield* Hooks
    const current = yield* config.current
    const enabled = new Set(current.plugins.enabled)
    const disabled = new Set(current.plugins.disabled)
    const root = config.home.pluginsDir
    const present = existsSync(root)
      ? readdirSync(root).filter((n) => statSync(join(root, n), { throwIfNoEntry: false })?.isDirectory() === true)
      : []
    const names = [...new Set([...present, ...enabled])].sort()

    const load = (name: string) =>
      Effect.gen(function*() {
        const dir = join(root, name)
        const base = { name, dir, tools: [] as Array<string>, hooks: [] as Array<string> }
        if (disabled.has(name)) return { ...base, state: "disabled" } satisfies PluginStatus
        if (!enabled.has(name)) return { ...base, state: "not-enabled" } satisfies PluginStatus
        const outcome = yield* Effect.either(Effect.gen(function*() {
          const entry = yield* Effect.try({ try: () => findEntry(dir), catch: (e) => new PluginLoadError(errorText(e)) })
          if (entry === undefined) {
            return yield* Effect.fail(new PluginLoadError(`no plugin module found in ${dir} (expected index.mjs, index.js or plugin.yaml with entry)`))
          }
          const mod = yield* Effect.tryPromise({
            try: () => importModule(pathToFileURL(entry).href) as Promise<Record<string, unknown>>,
            catch: (e) => new PluginLoadError(`could not import ${entry}: ${errorText(e)}`)
          })
          const def = mod["default"]
          const register = typeof mod["register"] === "function"
            ? mod["register"]
            : typeof def === "function"
            ? def
            : def !== null && typeof def === "object" && typeof (def as Record<string, unknown>)["register"] === "function"
            ? (def as Record<string, unknown>)["register"]
            : undefined
          if (typeof register !== "function") {
            return yield* Effect.fail(new PluginLoadError(`${entry} does not export a register(ctx) function`))
          }
          const pendingTools: Array<RegisteredTool> = []
          const pendingHooks: Record<string, (event: never) => unknown> = {}
          const ctx: PluginContext = {
            name,
            config: current.plugins.entries[name],
            Schema,
            Effect,
            registerTool: (spec) => void pendingTools.push(toRegisteredTool(name, spec)),
            registerHook: (hook, fn) => {
              if (!HOOK_NAMES.includes(hook)) throw new PluginLoadError(`unknown hook '${String(hook)}' (known: ${HOOK_NAMES.join(", ")})`)
              if (typeof fn !== "function") throw new PluginLoadError(`registerHook(${hook}): not a function`)
              pendingHooks[hook] = fn
            }
          }
          yield* Effect.mapError(lift(() => (register as (c: PluginContext) => unknown)(ctx)), (e) => new PluginLoadError(e.message))
          // Register all or nothing, so a half-loaded plugin never stays behind.
          const done: Array<string> = []
          for (const tool of pendingTools) {
            const result = yield* Effect.either(registry.register(tool))
            if (Either.isLeft(result)) {
              for (const t of done) yield* Effect.ignore(registry.deregister(t))
              return yield* Effect.fail(new PluginLoadError(result.left.message))
            }
            done.push(tool.name)
          }
          const hookSet: Record<string, unknown> = {}
          for (const [hook, fn] of Object.entries(pendingHooks)) {
            hookSet[hook] = (event: never) => lift(() => fn(event))
          }
          yield* hooks.register(name, hookSet as HookSet)
          return { ...base, tools: done, hooks: Object.keys(pendingHooks), state: "loaded" } satisfies PluginStatus
        }))
        if (Either.isRight(outcome)) return outcome.right
        yield* Effect.logWarning(`plugin '${name}' failed to load and was skipped: ${outcome.left.message}`)
        return { ...base, state: "failed", error: outcome.left.message } satisfies PluginStatus
      })

    const statuses = yield* Effect.forEach(names, load)
    return Plugins.of({ status: Effect.succeed(statuses) })
  })
)
