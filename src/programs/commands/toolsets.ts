/** `hermes-effect toolsets`: every toolset, what it resolves to, and whether it is usable here. */
import { Command } from "@effect/cli"
import { Effect } from "effect"
import { ToolRegistry } from "../../services/ToolRegistry.js"
import { jsonOption, table, withCatalogueRuntime, writeOut } from "./shared.js"

export const toolsetsCommand = Command.make("toolsets", { json: jsonOption }, (opts) =>
  withCatalogueRuntime(Effect.gen(function*() {
    const registry = yield* ToolRegistry
    const toolsets = yield* registry.toolsets()
    if (opts.json) return yield* writeOut(JSON.stringify(toolsets, null, 2))
    const rows = toolsets.map((t) => [
      t.name,
      t.available ? "yes" : "no",
      `${t.registered.length}/${t.tools.length}`,
      t.description.slice(0, 70)
    ])
    yield* writeOut(table([["TOOLSET", "AVAILABLE", "TOOLS HERE", "DESCRIPTION"], ...rows]))
  }))
).pipe(Command.withDescription("List toolsets: description, resolved tools, availability (TOOLS HERE = registered/resolved)"))
