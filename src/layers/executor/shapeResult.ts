/**
 * A handler's output as the string the model sees: rendered to JSON text
 * (Python `json.dumps` spacing by default, config `tools.result_json`), passed
 * through `transform_tool_result` hooks, and capped (an oversized result is
 * saved to the ResultStore and replaced by a preview the model can page).
 */
import { Effect, Either } from "effect"
import type { HooksService } from "../../services/Hooks.js"
import type { ResultStoreService } from "../../services/ResultStore.js"
import type { ToolOutput } from "../../services/Tool.js"
import type { ToolCallContext } from "../../services/ToolContext.js"
import { ToolResultInvalid } from "../../services/ToolError.js"
import type { RegisteredTool } from "../../services/ToolRegistry.js"
import type { JsonStyle } from "../../lib/pythonJson.js"
import { toJsonText } from "../../lib/pythonJson.js"
import { persistedBlock, truncatedInline } from "./persistedOutput.js"
import type { Tuning } from "./tuning.js"

export interface ResultServices {
  readonly hooks: HooksService
  readonly results: ResultStoreService
}

const renderOutput = (tool: string, output: ToolOutput, style: JsonStyle): Either.Either<string, ToolResultInvalid> => {
  if (typeof output === "string") return Either.right(output)
  try {
    const text = toJsonText(output, style)
    if (typeof text === "string") return Either.right(text)
  } catch {
    // falls through: cyclic or BigInt values cannot reach the model
  }
  return Either.left(new ToolResultInvalid({ tool, resultType: Array.isArray(output) ? "array" : typeof output }))
}

const capResult = (results: ResultStoreService, tool: RegisteredTool, result: string, context: ToolCallContext, resultChars: number) => {
  const threshold = tool.maxResultChars === Infinity ? Infinity : Math.min(tool.maxResultChars ?? resultChars, resultChars)
  if (result.length <= threshold) return Effect.succeed(result)
  return results
    .persist({ content: result, tool: tool.name, taskId: context.taskId, toolCallId: context.toolCallId })
    .pipe(
      Effect.map((path) => persistedBlock(result, path)),
      Effect.catchAll((error) =>
        Effect.as(Effect.logWarning(`could not save an oversized result of ${tool.name}: ${error.detail}`), truncatedInline(result))
      )
    )
}

export const shapeResult = (
  services: ResultServices,
  tool: RegisteredTool,
  args: unknown,
  output: ToolOutput,
  context: ToolCallContext,
  tuning: Pick<Tuning, "resultChars" | "jsonStyle">
): Effect.Effect<string, ToolResultInvalid> => {
  const rendered = renderOutput(tool.name, output, tuning.jsonStyle)
  if (Either.isLeft(rendered)) return Effect.fail(rendered.left)
  if (!services.hooks.has("transform_tool_result")) return capResult(services.results, tool, rendered.right, context, tuning.resultChars)
  return Effect.flatMap(
    services.hooks.transformToolResult({ tool: tool.name, args, result: rendered.right, context }),
    (result) => capResult(services.results, tool, result, context, tuning.resultChars)
  )
}
