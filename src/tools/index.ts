/**
 * The built-in tools, registered into the ToolRegistry when this layer is built.
 */
import { Effect, Layer } from "effect"
import { registerTool } from "../layers/registry/provideTool.js"
import { todoTool } from "./todo.js"

export const BuiltinToolsLive = Layer.effectDiscard(
  Effect.all([registerTool(todoTool)], { discard: true }).pipe(Effect.orDie)
)

export { defineTool, deriveJsonSchema } from "./defineTool.js"
export { todoTool } from "./todo.js"
