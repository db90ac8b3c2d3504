/**
 * Hermes' multimodal result envelope: a handler may return
 * `{"_multimodal": true, "content": [parts…], "text_summary"?: string, "meta"?: {…}}`
 * where the parts are OpenAI content parts (`{"type": "text", "text"}`,
 * `{"type": "image_url", "image_url": {"url"}}`). The parts go to the model
 * as they are; the text summary is what hooks, logs and the session store
 * see. Such a result is never persisted or capped (its image must arrive whole).
 */
import type { ContentPart, ToolOutput } from "../../services/Tool.js"

export interface Multimodal {
  readonly parts: ReadonlyArray<ContentPart>
  readonly summary: string
}

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

const partOf = (u: unknown): ContentPart | undefined => {
  if (!isRecord(u)) return undefined
  if (u["type"] === "text" && typeof u["text"] === "string") return { type: "text", text: u["text"] }
  if (u["type"] === "image_url") {
    const image = u["image_url"]
    const url = typeof image === "string" ? image : isRecord(image) && typeof image["url"] === "string" ? image["url"] : undefined
    if (url === undefined) return undefined
    const detail = isRecord(image) && typeof image["detail"] === "string" ? image["detail"] : undefined
    return { type: "image_url", image_url: detail === undefined ? { url } : { url, detail } }
  }
  return undefined
}

/** The envelope's parts and summary, or undefined when the output is not one (or has no usable part). */
export const multimodalOf = (output: ToolOutput): Multimodal | undefined => {
  if (typeof output === "string" || !isRecord(output) || output["_multimodal"] !== true) return undefined
  const content = output["content"]
  if (!Array.isArray(content)) return undefined
  const parts = content.map(partOf).filter((p): p is ContentPart => p !== undefined)
  if (parts.length === 0) return undefined
  const given = output["text_summary"]
  const texts = parts.flatMap((p) => (p.type === "text" ? [p.text] : []))
  const images = parts.length - texts.length
  const summary = typeof given === "string" && given.length > 0
    ? given
    : [...texts, ...(images > 0 ? [`[${images} image${images === 1 ? "" : "s"}]`] : [])].join("\n")
  return { parts, summary }
}
