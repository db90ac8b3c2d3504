/**
 * An ACP prompt's content blocks → the user's message: text as is; resource
 * links to local files inlined (text up to a cap, images as image parts when
 * the model accepts them); embedded resources inlined; images passed on as
 * image parts, or named in the text when the model takes none.
 */
import { open } from "node:fs/promises"
import { basename, extname, isAbsolute } from "node:path"
import { fileURLToPath } from "node:url"
import type { ContentBlock } from "@agentclientprotocol/sdk/unstable"
import { lookupTable } from "../../lib/lookupTable.js"

export interface PromptInput {
  /** The message text (what the session stores). */
  readonly text: string
  /** data: / https: URLs of images for the model (empty unless it accepts images). */
  readonly images: ReadonlyArray<string>
}

/** Text attachments are inlined up to this size (Hermes' cap); the model can read the rest with read_file. */
export const TEXT_ATTACHMENT_BYTES = 512 * 1024
/** An image larger than this is named, not sent (providers refuse bigger ones: OpenAI's limit is 20 MB). */
export const IMAGE_ATTACHMENT_BYTES = 20 * 1024 * 1024

const IMAGE_TYPES: Readonly<Record<string, string>> = lookupTable({
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp"
})

const NO_VISION = "(not sent: the configured model does not accept images; set model.vision: true if it does)"

/** A local path for a `file:` URI or an absolute path; undefined for anything else. */
const localPath = (uri: string): string | undefined => {
  if (uri.startsWith("file:")) {
    try {
      return fileURLToPath(uri)
    } catch {
      return undefined
    }
  }
  return isAbsolute(uri) ? uri : undefined
}

/** Up to `limit` bytes of the file, and its whole size. */
const readHead = async (path: string, limit: number): Promise<{ readonly bytes: Buffer; readonly size: number }> => {
  const handle = await open(path, "r")
  try {
    const size = (await handle.stat()).size
    const buffer = Buffer.alloc(Math.min(size, limit))
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0)
    return { bytes: buffer.subarray(0, bytesRead), size }
  } finally {
    await handle.close()
  }
}

const imageOf = (mimeType: string, data: string) => `data:${mimeType};base64,${data}`

/** A resource link to a local file: its text inlined, or an image part; other links are named. */
const linked = async (name: string, uri: string, mimeType: string | null | undefined, vision: boolean, images: Array<string>): Promise<string> => {
  const header = `[Attached file: ${name}]\nURI: ${uri}`
  const path = localPath(uri)
  if (path === undefined) return header
  const imageType = mimeType?.startsWith("image/") === true ? mimeType : IMAGE_TYPES[extname(path).toLowerCase()]
  try {
    if (imageType !== undefined) {
      if (!vision) return `[Attached image: ${name}]\nURI: ${uri} ${NO_VISION}`
      const { bytes, size } = await readHead(path, IMAGE_ATTACHMENT_BYTES + 1)
      if (size > IMAGE_ATTACHMENT_BYTES) return `[Attached image: ${name}]\nURI: ${uri} (not sent: ${size} bytes, over ${IMAGE_ATTACHMENT_BYTES})`
      images.push(imageOf(imageType, bytes.toString("base64")))
      return `[Attached image: ${name}]\nURI: ${uri}`
    }
    const { bytes, size } = await readHead(path, TEXT_ATTACHMENT_BYTES)
    if (bytes.includes(0)) return `${header}\n[Binary file omitted: ${size} bytes${mimeType === undefined || mimeType === null ? "" : `, mime=${mimeType}`}]`
    const cut = size > bytes.length ? ` (truncated to ${bytes.length} of ${size} bytes; read_file reads the rest)` : ""
    return `[Attached file: ${name}]${cut}\nURI: ${uri}\n\n${bytes.toString("utf8").replace(/^\uFEFF/, "")}`
  } catch (error) {
    // An unreadable file is still named, so the model knows what was meant.
    return `${header}\n(could not read it: ${error instanceof Error ? error.message : String(error)})`
  }
}

export const promptContent = async (blocks: ReadonlyArray<ContentBlock>, vision: boolean): Promise<PromptInput> => {
  const images: Array<string> = []
  const parts: Array<string> = []
  for (const block of blocks) {
    switch (block.type) {
      case "text":
        parts.push(block.text)
        break
      case "image": {
        const url = block.data.length > 0 ? imageOf(block.mimeType, block.data) : block.uri ?? undefined
        if (url === undefined) break
        if (vision) images.push(url)
        parts.push(vision ? "[Attached image]" : `[Attached image] ${NO_VISION}`)
        break
      }
      case "resource_link":
        parts.push(await linked(block.title ?? block.name, block.uri, block.mimeType, vision, images))
        break
      case "resource": {
        const r = block.resource
        if ("text" in r) {
          parts.push(`[Attached file: ${basename(r.uri)}]\nURI: ${r.uri}\n\n${r.text}`)
        } else if (r.mimeType?.startsWith("image/") === true) {
          if (vision) images.push(imageOf(r.mimeType, r.blob))
          parts.push(vision ? `[Attached image: ${basename(r.uri)}]` : `[Attached image: ${basename(r.uri)}] ${NO_VISION}`)
        } else {
          parts.push(`[Binary resource omitted: ${r.uri}]`)
        }
        break
      }
      default:
        break
    }
  }
  return { text: parts.join("\n"), images }
}
