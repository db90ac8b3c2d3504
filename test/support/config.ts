/** Config as a test writes it (config.yaml's shape) → what readers get, defaults applied. */
import { Schema } from "effect"
import { HermesConfigSchema, McpServerEntry } from "../../src/services/Config.js"
import type { HermesConfig, HermesConfigInput } from "../../src/services/Config.js"

export const resolveConfig = (input: HermesConfigInput = {}): HermesConfig => Schema.decodeUnknownSync(HermesConfigSchema)(input)

export type McpEntryInput = typeof McpServerEntry.Encoded

export const resolveMcpEntry = (input: McpEntryInput): typeof McpServerEntry.Type => Schema.decodeUnknownSync(McpServerEntry)(input)
