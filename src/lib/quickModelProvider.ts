/**
 * The model provider named by config.yaml text, read without a YAML parser
 * (for the ACP fast path, which answers `initialize` before the runtime is
 * loaded). Mirrors `modelSettings` (src/layers/model/settings.ts) for the
 * plain `model:` sections people write; anything else (flow style, anchors,
 * block scalars, escapes, null) is `unsure` and the full program answers.
 */
export type QuickProvider =
  | { readonly kind: "provider"; readonly provider: string; readonly vision: boolean }
  | { readonly kind: "none" }
  | { readonly kind: "unsure" }

const UNSURE: QuickProvider = { kind: "unsure" }
const NONE: QuickProvider = { kind: "none" }
const KNOWN_URL = new Set(["openai", "openrouter"])
const PLAIN_KEY = /^(\s*)([A-Za-z_][A-Za-z0-9_]*)\s*:(?:\s+(.*))?$/

/** A plain or simply quoted scalar, or undefined when it is not one we can read safely. */
const scalar = (raw: string): string | undefined => {
  const text = raw.replace(/\s+#.*$/, "").trim()
  if (text.length === 0) return ""
  const quoted = /^(["'])(.*)\1$/.exec(text)
  if (quoted !== null) return /[\\"']/.test(quoted[2]!) ? undefined : quoted[2]!
  if (/^[{[&*!|>%@`"']/.test(text) || text === "~" || text === "null") return undefined
  return text
}

const nonEmpty = (value: string | undefined) => (value === undefined || value.trim().length === 0 ? undefined : value.trim())

const fromFields = (fields: ReadonlyMap<string, string>): QuickProvider => {
  const visionText = fields.get("vision")
  // YAML 1.2 booleans only; anything else (yes/on, a typo) is for the full parser to judge.
  if (visionText !== undefined && !/^(true|false)$/i.test(visionText)) return UNSURE
  const vision = visionText?.toLowerCase() === "true"
  const name = nonEmpty(fields.get("name")) ?? nonEmpty(fields.get("default"))
  const baseUrl = nonEmpty(fields.get("base_url"))
  const provider = nonEmpty(fields.get("provider"))?.toLowerCase() ?? (baseUrl !== undefined ? "custom" : name !== undefined ? "openai" : undefined)
  if (provider === undefined || provider === "none") return NONE
  if (provider === "scripted") return nonEmpty(fields.get("script")) === undefined ? NONE : { kind: "provider", provider, vision }
  if (name === undefined) return NONE
  if (baseUrl === undefined && !KNOWN_URL.has(provider)) return NONE
  return { kind: "provider", provider, vision }
}

export const quickModelProvider = (text: string | undefined): QuickProvider => {
  if (text === undefined) return NONE
  const lines = text.split(/\r?\n/)
  const at = lines.findIndex((l) => /^model\s*:/.test(l))
  // A model key written some other way (quoted, in a flow mapping, a document marker) is not ours to guess.
  if (lines.some((l, i) => i !== at && /^(["']?model["']?\s*:|[{[]|---|%)/.test(l))) return UNSURE
  if (at < 0) return NONE
  const head = PLAIN_KEY.exec(lines[at]!)
  if (head === null) return UNSURE
  const inline = scalar(head[3] ?? "")
  if (inline === undefined) return UNSURE
  if (inline.length > 0) return fromFields(new Map([["name", inline]]))
  const fields = new Map<string, string>()
  let indent: number | undefined
  for (const line of lines.slice(at + 1)) {
    if (line.trim().length === 0 || /^\s*#/.test(line)) continue
    const match = PLAIN_KEY.exec(line)
    const depth = line.length - line.trimStart().length
    if (depth === 0) break
    if (indent === undefined) indent = depth
    if (depth > indent) continue // inside a nested map such as `headers:`
    if (match === null || depth < indent) return UNSURE
    const value = scalar(match[3] ?? "")
    if (value === undefined) {
      if (["name", "default", "base_url", "provider", "script", "vision"].includes(match[2]!)) return UNSURE
      continue
    }
    fields.set(match[2]!, value)
  }
  return indent === undefined ? UNSURE : fromFields(fields)
}
