/**
 * The built-in tools, registered into the ToolRegistry when this layer is built.
 */
import { Effect, Layer } from "effect"
import { registerTool } from "../layers/registry/provideTool.js"
import { processTool } from "./process.js"
import { terminalTool } from "./terminal.js"
import { todoTool } from "./todo.js"

export const BuiltinToolsLive = Layer.effectDiscard(
  Effect.all([registerTool(todoTool), registerTool(terminalTool), registerTool(processTool)], { discard: true }).pipe(Effect.orDie)
)

export { defineTool, deriveJsonSchema } from "./defineTool.js"
export { processTool } from "./process.js"
export { terminalTool } from "./terminal.js"
export { todoTool } from "./todo.js"
