/**
 * `tools.tool_search:` as Hermes reads it: `enabled` auto | on | off (booleans
 * and yes/no accepted), `threshold_pct` of the model's context that deferrable
 * definitions must reach before `auto` activates, and the search limits. A
 * typo never breaks a run: every field falls back to its default, clamped.
 */
import { lookupTable } from "../lookupTable.js"
export type ToolSearchMode = "auto" | "on" | "off"

export interface ToolSearchConfig {
  readonly enabled: ToolSearchMode
  readonly thresholdPct: number
  readonly searchDefaultLimit: number
  readonly maxSearchLimit: number
}

/** Deferrable definitions (in tokens) that activate `auto` when the model's context length is unknown. */
export const UNKNOWN_CONTEXT_THRESHOLD_TOKENS = 20_000

export const DEFAULT_TOOL_SEARCH: ToolSearchConfig = Object.freeze({
  enabled: "auto",
  thresholdPct: 10,
  searchDefaultLimit: 5,
  maxSearchLimit: 20
})

const ALIASES: Readonly<Record<string, ToolSearchMode>> = lookupTable({ true: "on", "1": "on", yes: "on", false: "off", "0": "off", no: "off" })

const modeOf = (value: unknown): ToolSearchMode => {
  const text = String(value ?? "auto").trim().toLowerCase()
  return ALIASES[text] ?? (text === "on" || text === "off" ? text : "auto")
}

const clampedInt = (value: unknown, fallback: number, lo: number, hi: number): number => {
  const n = typeof value === "number" ? value : typeof value === "string" ? Number(value.trim()) : NaN
  return Math.max(lo, Math.min(hi, Number.isFinite(n) ? Math.trunc(n) : fallback))
}

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/** From the raw config value: a section, a legacy boolean, or nothing. */
export const toolSearchConfig = (raw: unknown): ToolSearchConfig => {
  const section: Record<string, unknown> = isRecord(raw) ? raw : { enabled: raw === false ? "off" : "auto" }
  const maxSearchLimit = clampedInt(section["max_search_limit"], DEFAULT_TOOL_SEARCH.maxSearchLimit, 1, 50)
  const pct = Number(section["threshold_pct"] ?? DEFAULT_TOOL_SEARCH.thresholdPct)
  return {
    enabled: modeOf(section["enabled"]),
    thresholdPct: Number.isFinite(pct) ? Math.max(0, Math.min(100, pct)) : DEFAULT_TOOL_SEARCH.thresholdPct,
    searchDefaultLimit: clampedInt(section["search_default_limit"], DEFAULT_TOOL_SEARCH.searchDefaultLimit, 1, maxSearchLimit),
    maxSearchLimit
  }
}
