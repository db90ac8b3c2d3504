/** `hermes-effect tools list`: the tool definitions the model would get. */
import { Command } from "@effect/cli"
import { Effect } from "effect"
import { ToolRegistry } from "../../services/ToolRegistry.js"
import { disableOption, jsonOption, splitList, table, toolsetsOption, withCatalogueRuntime, writeOut } from "./shared.js"

const list = Command.make("list", { toolsets: toolsetsOption, disable: disableOption, json: jsonOption }, (opts) =>
  withCatalogueRuntime(Effect.gen(function*() {
    const registry = yield* ToolRegistry
    const selection = { enabled: splitList(opts.toolsets), disabled: splitList(opts.disable) }
    const definitions = yield* registry.definitions(selection)
    if (opts.json) return yield* writeOut(JSON.stringify(definitions, null, 2))
    const { tools, unknown } = yield* registry.resolve(selection)
    const shown = new Set(definitions.map((d) => d.function.name))
    const rows = tools.flatMap((name) => {
      const tool = registry.get(name)
      if (tool === undefined) return []
      const firstSentence = tool.description.split(/(?<=\.)\s/)[0] ?? ""
      return [[name, tool.toolset, shown.has(name) ? "yes" : "no", firstSentence.slice(0, 80)]]
    })
    const notes = unknown.length > 0 ? `\nunknown toolsets ignored: ${unknown.join(", ")}` : ""
    yield* writeOut(`${table([["TOOL", "TOOLSET", "AVAILABLE", "DESCRIPTION"], ...rows])}\n\n${shown.size} of ${rows.length} tools available${notes}`)
  }))
).pipe(Command.withDescription("List tools for the selected toolsets (--json: the OpenAI definitions array)"))

export const toolsCommand = Command.make("tools").pipe(
  Command.withDescription("Inspect the registered tools"),
  Command.withSubcommands([list])
)
