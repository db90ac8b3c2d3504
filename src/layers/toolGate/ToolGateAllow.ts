import { Effect, Layer } from "effect"
import { ToolGate } from "../../services/ToolGate.js"

/** For tests and trusted embedding: approve every tool approval request. */
export const ToolGateAllow = Layer.succeed(ToolGate, ToolGate.of({ requestToolApproval: () => Effect.void }))
