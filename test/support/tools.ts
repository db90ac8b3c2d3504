/** Small tools for exercising dispatch. */
import { Effect, Schema } from "effect"
import { ToolContext } from "../../src/services/ToolContext.js"
import { defineTool } from "../../src/lib/tool/defineTool.js"

export class Boom extends Schema.TaggedError<Boom>()("Boom", { message: Schema.String }) {}

export const echoTool = defineTool({
  name: "echo",
  toolset: "testing",
  description: "Echo the arguments back.",
  parameters: Schema.Struct({
    text: Schema.String,
    count: Schema.optional(Schema.Int),
    loud: Schema.optional(Schema.Boolean),
    tags: Schema.optional(Schema.Array(Schema.String)),
    limit: Schema.optional(Schema.NullOr(Schema.Number))
  }),
  parallel: "safe",
  handler: (args) => Effect.map(ToolContext, (ctx) => ({ ...args, task: ctx.taskId }))
})

export const failingTool = defineTool({
  name: "fails",
  toolset: "testing",
  description: "Always fails with a typed error.",
  parameters: Schema.Struct({ why: Schema.optional(Schema.String) }),
  handler: (args) => Effect.fail(new Boom({ message: `it broke: ${args.why ?? "no reason"}` }))
})

export const dyingTool = defineTool({
  name: "dies",
  toolset: "testing",
  description: "Throws inside the handler.",
  parameters: Schema.Struct({}),
  handler: () => Effect.sync(() => {
    throw new TypeError("undefined is not a function")
  })
})

export const sleepTool = defineTool({
  name: "sleep",
  toolset: "testing",
  description: "Sleeps.",
  parameters: Schema.Struct({ ms: Schema.Number, path: Schema.optional(Schema.String) }),
  handler: (args) => Effect.as(Effect.sleep(args.ms), `slept ${args.ms}`)
})

export const bigTool = defineTool({
  name: "big",
  toolset: "testing",
  description: "Returns a large result.",
  parameters: Schema.Struct({ chars: Schema.Number }),
  handler: (args) => Effect.succeed(Array.from({ length: Math.ceil(args.chars / 10) }, (_, i) => `line ${String(i).padStart(4, "0")}`).join("\n").slice(0, args.chars))
})
