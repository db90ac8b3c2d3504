/** `hermes-effect plugins`: which plugins were found, loaded, skipped or failed. */
import { Command } from "@effect/cli"
import { Effect } from "effect"
import { Plugins } from "../../services/Plugins.js"
import { jsonOption, table, withCatalogueRuntime, writeOut } from "./shared.js"

export const pluginsCommand = Command.make("plugins", { json: jsonOption }, (opts) =>
  withCatalogueRuntime(Effect.gen(function*() {
    const statuses = yield* Effect.flatMap(Plugins, (p) => p.status)
    if (opts.json) return yield* writeOut(JSON.stringify(statuses, null, 2))
    if (statuses.length === 0) return yield* writeOut("no plugins found")
    yield* writeOut(table([
      ["PLUGIN", "STATE", "TOOLS", "DETAIL"],
      ...statuses.map((s) => [s.name, s.state, s.tools.join(",") || "-", s.error ?? s.dir])
    ]))
  }))
).pipe(Command.withDescription("List plugins under $HERMES_EFFECT_HOME/plugins and their load state"))
