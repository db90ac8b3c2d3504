/**
 * The `<persisted-output>` block that replaces an oversized result: the model
 * gets a preview plus a path it can page through with read_file.
 */
export const PREVIEW_CHARS = 1500

/** First `max` chars, cut back to a newline when one lies past the halfway point. */
export const previewOf = (content: string, max = PREVIEW_CHARS): { readonly preview: string; readonly hasMore: boolean } => {
  if (content.length <= max) return { preview: content, hasMore: false }
  const lastNewline = content.lastIndexOf("\n", max - 1)
  return { preview: content.slice(0, lastNewline > Math.floor(max / 2) ? lastNewline + 1 : max), hasMore: true }
}

const formatSize = (chars: number): string => {
  const kb = chars / 1024
  return kb >= 1024 ? `${(kb / 1024).toFixed(1)} MB` : `${kb.toFixed(1)} KB`
}

export const persistedBlock = (content: string, path: string): string => {
  const { hasMore, preview } = previewOf(content)
  return [
    "<persisted-output>",
    `This tool result was too large (${content.length.toLocaleString("en-US")} characters, ${formatSize(content.length)}).`,
    `Full output saved to: ${path}`,
    "Use the read_file tool with offset and limit to access specific sections of this output.",
    "",
    `Preview (first ${preview.length} chars):`,
    `${preview}${hasMore ? "\n..." : ""}`,
    "</persisted-output>"
  ].join("\n")
}

/** When the full result could not be saved anywhere: keep the preview and say so. */
export const truncatedInline = (content: string): string =>
  `${previewOf(content).preview}\n\n[Truncated: tool response was ${content.length.toLocaleString("en-US")} chars. Full output could not be saved to sandbox.]`

/** A file name for a call id: safe characters only, with a digest when it had to change. */
export const safeResultStem = (id: string, digest: (s: string) => string): string => {
  const raw = id.length === 0 ? "tool_result" : id
  let stem = raw.replace(/[^A-Za-z0-9_.-]+/g, "_").replace(/^[._-]+|[._-]+$/g, "")
  const changed = stem !== raw
  if (stem.length === 0) stem = "tool_result"
  if (changed || stem.length > 120) {
    stem = `${stem.slice(0, 120).replace(/[._-]+$/, "") || "tool_result"}_${digest(raw).slice(0, 12)}`
  }
  return stem
}
