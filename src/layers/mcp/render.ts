/**
 * MCP results as the model sees them. Text blocks are joined with newlines
 * (Hermes' `{"result": "..."}`); other blocks become short bracketed notes, so
 * a picture or a blob never floods the context with base64.
 */
import type { ToolOutput } from "../../services/Tool.js"

type Block = Readonly<Record<string, unknown>>

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined)

/** Decoded size of base64 data without decoding it. */
const base64Bytes = (data: string) => Math.floor((data.length * 3) / 4) - (data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0)

const resourceText = (resource: Block): string => {
  const text = str(resource["text"])
  if (text !== undefined) return text
  const blob = str(resource["blob"])
  const mime = str(resource["mimeType"])
  return `[binary resource ${str(resource["uri"]) ?? ""}${mime === undefined ? "" : ` (${mime})`}, ${blob === undefined ? 0 : base64Bytes(blob)} bytes]`
}

const blockText = (block: Block): string | undefined => {
  switch (block["type"]) {
    case "text":
      return str(block["text"])
    case "image":
    case "audio": {
      const data = str(block["data"]) ?? ""
      return `[${String(block["type"])} ${str(block["mimeType"]) ?? ""}, ${base64Bytes(data)} bytes]`
    }
    case "resource": {
      const resource = block["resource"]
      return resource !== null && typeof resource === "object" ? resourceText(resource as Block) : undefined
    }
    case "resource_link":
      return `[resource ${str(block["uri"]) ?? ""}${str(block["name"]) === undefined ? "" : ` (${str(block["name"])})`}]`
    default:
      return undefined
  }
}

const blocksOf = (result: Block): ReadonlyArray<Block> => {
  const content = result["content"]
  return Array.isArray(content) ? content.filter((b): b is Block => b !== null && typeof b === "object") : []
}

/** The text of a `tools/call` result: its blocks joined, or its structured content when it has no text. */
export const callResultText = (result: Block): string => {
  const parts = blocksOf(result).flatMap((b) => {
    const t = blockText(b)
    return t === undefined ? [] : [t]
  })
  if (parts.length > 0) return parts.join("\n")
  const structured = result["structuredContent"]
  if (structured !== undefined && structured !== null) return JSON.stringify(structured)
  // Servers on the 2024-10-07 protocol answer `{toolResult}`.
  const legacy = result["toolResult"]
  return legacy === undefined ? "" : typeof legacy === "string" ? legacy : JSON.stringify(legacy)
}

export const isErrorResult = (result: Block): boolean => result["isError"] === true

export const callOutput = (result: Block): ToolOutput => ({ result: callResultText(result) })

export const resourcesOutput = (result: Block): ToolOutput => {
  const list = Array.isArray(result["resources"]) ? (result["resources"] as ReadonlyArray<Block>) : []
  return {
    resources: list.map((r) => ({
      uri: str(r["uri"]) ?? "",
      name: str(r["name"]) ?? "",
      ...(str(r["description"]) ? { description: r["description"] } : {}),
      ...(str(r["mimeType"]) ? { mimeType: r["mimeType"] } : {})
    }))
  }
}

export const readResourceOutput = (result: Block): ToolOutput => {
  const contents = Array.isArray(result["contents"]) ? (result["contents"] as ReadonlyArray<Block>) : []
  return { result: contents.map(resourceText).join("\n") }
}

export const promptsOutput = (result: Block): ToolOutput => {
  const list = Array.isArray(result["prompts"]) ? (result["prompts"] as ReadonlyArray<Block>) : []
  return {
    prompts: list.map((p) => {
      const args = Array.isArray(p["arguments"]) ? (p["arguments"] as ReadonlyArray<Block>) : []
      return {
        name: str(p["name"]) ?? "",
        ...(str(p["description"]) ? { description: p["description"] } : {}),
        ...(args.length > 0
          ? {
            arguments: args.map((a) => ({
              name: str(a["name"]) ?? "",
              ...(str(a["description"]) ? { description: a["description"] } : {}),
              required: a["required"] === true
            }))
          }
          : {})
      }
    })
  }
}

export const promptOutput = (result: Block): ToolOutput => {
  const messages = Array.isArray(result["messages"]) ? (result["messages"] as ReadonlyArray<Block>) : []
  return {
    ...(str(result["description"]) ? { description: result["description"] } : {}),
    messages: messages.map((m) => {
      const content = m["content"]
      const text = content !== null && typeof content === "object" ? blockText(content as Block) : str(content)
      return { role: str(m["role"]) ?? "", content: text ?? JSON.stringify(content ?? null) }
    })
  }
}
