/**
 * ToolGate: the approval seam in dispatch. A pre-call hook that answers
 * `{"action": "approve"}` sends the call here. The default layer denies:
 * with nobody to ask, the answer is no. The Approval service supplies the
 * real gate (human, callback or policy).
 */
import { Context, Schema } from "effect"
import type { Effect } from "effect"
import type { ToolCallContext } from "./ToolContext.js"

export class ToolApprovalDenied extends Schema.TaggedError<ToolApprovalDenied>()("ToolApprovalDenied", {
  tool: Schema.String,
  ruleKey: Schema.String,
  reason: Schema.String
}) {}

export interface ToolApprovalRequest {
  readonly tool: string
  readonly message: string
  readonly ruleKey: string
  readonly context: ToolCallContext
}

export interface ToolGateService {
  readonly requestToolApproval: (request: ToolApprovalRequest) => Effect.Effect<void, ToolApprovalDenied>
}

export class ToolGate extends Context.Tag("hermes-effect/ToolGate")<ToolGate, ToolGateService>() {}
