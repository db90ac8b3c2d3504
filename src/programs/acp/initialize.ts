/**
 * The `initialize` answer, shared by the server and the fast path of
 * `hermes-effect acp` (src/programs/acp/fast.ts), which answers before the
 * runtime is loaded. No runtime imports here, to keep that path small.
 */
import type { InitializeResponse } from "@agentclientprotocol/sdk/unstable"

/** The ACP protocol version this agent speaks (the SDK's `PROTOCOL_VERSION`). */
export const ACP_PROTOCOL_VERSION = 1

/**
 * `provider`: the configured model provider, the only auth method (undefined = none configured); `vision`: the
 * configured model accepts images (`model.vision`), so image prompts are offered.
 */
export const initializeResult = (name: string, version: string, provider: string | undefined, vision: boolean): InitializeResponse => ({
  protocolVersion: ACP_PROTOCOL_VERSION,
  agentInfo: { name, version },
  agentCapabilities: {
    loadSession: true,
    promptCapabilities: { image: provider !== undefined && vision, audio: false, embeddedContext: true },
    mcpCapabilities: { http: true, sse: false },
    sessionCapabilities: { list: {}, resume: {}, fork: {}, close: {} }
  },
  // No auth store of our own: the configured model provider is the only method.
  authMethods: provider === undefined
    ? []
    : [{ id: provider, name: `${provider} runtime credentials`, description: "Uses the model provider configured in config.yaml or the environment" }]
})
