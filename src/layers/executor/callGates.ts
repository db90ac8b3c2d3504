/**
 * What stands between decoded arguments and the handler: the tool's
 * availability, the pre-call hooks, and the approval seam (ToolGate) a hook
 * can ask for. Only the steps that apply to this call are built.
 */
import { Effect } from "effect"
import type { HooksService } from "../../services/Hooks.js"
import type { ToolCallContext } from "../../services/ToolContext.js"
import { ToolBlocked, ToolUnavailable } from "../../services/ToolError.js"
import type { ToolError } from "../../services/ToolError.js"
import type { ToolGateService } from "../../services/ToolGate.js"
import type { RegisteredTool, ToolRegistryService } from "../../services/ToolRegistry.js"

export interface GateServices {
  readonly registry: ToolRegistryService
  readonly hooks: HooksService
  readonly gate: ToolGateService
}

const needsProbe = (tool: RegisteredTool) => tool.check !== undefined || tool.requiresEnv.length > 0

/** The gates of this call, or undefined when none applies (the common, fast case). */
export const callGates = (
  services: GateServices,
  tool: RegisteredTool,
  args: unknown,
  context: ToolCallContext
): Effect.Effect<void, ToolError> | undefined => {
  const steps: Array<Effect.Effect<void, ToolError>> = []
  if (needsProbe(tool)) {
    steps.push(Effect.flatMap(services.registry.whyUnavailable(tool), (why) =>
      why === undefined ? Effect.void : Effect.fail(new ToolUnavailable({ tool: tool.name, reason: why }))))
  }
  if (services.hooks.has("pre_tool_call")) {
    steps.push(Effect.flatMap(services.hooks.preToolCall({ tool: tool.name, args, context }), (verdict) => {
      if (verdict._tag === "Block") return Effect.fail(new ToolBlocked({ tool: tool.name, by: verdict.by, reason: verdict.message }))
      if (verdict._tag === "Proceed") return Effect.void
      return services.gate
        .requestToolApproval({ tool: tool.name, message: verdict.message, ruleKey: verdict.ruleKey, context })
        .pipe(Effect.mapError((denied) => new ToolBlocked({ tool: tool.name, by: "approval", reason: denied.reason })))
    }))
  }
  return steps.length === 0 ? undefined : steps.length === 1 ? steps[0] : Effect.all(steps, { discard: true })
}
