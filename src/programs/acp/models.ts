/**
 * The model picker an editor shows for a session: an ACP session config
 * option of category `model`. The offer is the configured model plus
 * `model.choices`; a session keeps its choice in state.db (sessions.model).
 */
import type { SessionConfigOption } from "@agentclientprotocol/sdk/unstable"

export const MODEL_CONFIG_ID = "model"

/** The configured model first, then the other choices, without repeats or blanks. */
export const offeredModels = (configured: string, choices: ReadonlyArray<string> = []): ReadonlyArray<string> =>
  [...new Set([configured, ...choices].map((name) => name.trim()).filter((name) => name.length > 0))]

export const modelConfigOptions = (current: string, offered: ReadonlyArray<string>): Array<SessionConfigOption> => [{
  id: MODEL_CONFIG_ID,
  name: "Model",
  description: "The model this session's turns use",
  category: "model",
  type: "select",
  currentValue: current,
  options: offered.map((name) => ({ value: name, name }))
}]
