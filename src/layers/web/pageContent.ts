/**
 * A fetched body → text by content type: HTML → Markdown, text as is, PDFs through unpdf.
 * The HTML stack (linkedom, readability, turndown) and unpdf load on first use: CLI start-up stays small.
 */
import { Effect } from "effect"
import { plainText } from "../../lib/web/plainText.js"
import { WebFetchFailed } from "../../services/Web.js"
import type { WebPage } from "../../services/Web.js"
import type { FetchedBody } from "./safeFetch.js"

const charsetOf = (contentType: string) => /charset=["']?([\w-]+)/i.exec(contentType)?.[1] ?? "utf-8"

const decode = (body: Buffer, contentType: string) => {
  try {
    return new TextDecoder(charsetOf(contentType)).decode(body)
  } catch {
    return new TextDecoder("utf-8").decode(body)
  }
}

const isPdf = (fetched: FetchedBody) =>
  /application\/(x-)?pdf/i.test(fetched.contentType) || fetched.body.subarray(0, 5).toString("latin1") === "%PDF-"

const isHtml = (fetched: FetchedBody, text: string) =>
  /html|xml/i.test(fetched.contentType) || (fetched.contentType === "" && /^\s*<(!doctype html|html|head|body)/i.test(text))

const pdfText = (body: Buffer) =>
  Effect.tryPromise({
    try: async () => {
      const { extractText, getDocumentProxy } = await import("unpdf")
      const pdf = await getDocumentProxy(new Uint8Array(body))
      const { text } = await extractText(pdf, { mergePages: true })
      const info = await pdf.getMetadata().catch(() => undefined)
      const title = (info?.info as { Title?: unknown } | undefined)?.Title
      return { title: typeof title === "string" ? title : "", text: Array.isArray(text) ? text.join("\n\n") : text }
    },
    catch: (error) => new WebFetchFailed({ message: `Could not read PDF: ${error instanceof Error ? error.message : String(error)}` })
  })

/** Absolute http(s) links of an HTML page, fragments dropped, de-duplicated in page order. */
const pageLinks = (parseHTML: typeof import("linkedom").parseHTML, html: string, baseUrl: string): ReadonlyArray<string> => {
  const { document } = parseHTML(html)
  const seen = new Set<string>()
  for (const node of document.querySelectorAll("a[href]")) {
    try {
      const url = new URL(node.getAttribute("href") ?? "", baseUrl)
      if (url.protocol !== "http:" && url.protocol !== "https:") continue
      url.hash = ""
      seen.add(url.toString())
    } catch { /* not a link */ }
  }
  return [...seen]
}

/** Text processing never fails on a page; only a broken install could fail to load it (a defect). */
const textModules = Effect.promise(() => Promise.all([import("../../lib/web/htmlToMarkdown.js"), import("linkedom")]))

export const toPage = (fetched: FetchedBody, withLinks: boolean): Effect.Effect<WebPage, WebFetchFailed> => {
  if (fetched.status >= 400) return Effect.fail(new WebFetchFailed({ message: `HTTP ${fetched.status} for ${fetched.url}` }))
  if (isPdf(fetched)) {
    if (fetched.cut) return Effect.fail(new WebFetchFailed({ message: "PDF larger than web.max_bytes: not read" }))
    return Effect.map(pdfText(fetched.body), ({ title, text }) => ({ url: fetched.url, title, content: plainText(text).trim(), links: [] }))
  }
  const text = decode(fetched.body, fetched.contentType)
  if (isHtml(fetched, text)) {
    return Effect.map(textModules, ([{ htmlToMarkdown }, { parseHTML }]) => {
      const page = htmlToMarkdown(text, fetched.url)
      return { url: fetched.url, title: page.title, content: page.markdown, links: withLinks ? pageLinks(parseHTML, text, fetched.url) : [] }
    })
  }
  if (/^text\/|json|javascript|yaml|csv/i.test(fetched.contentType) || fetched.contentType === "") {
    return Effect.succeed({ url: fetched.url, title: "", content: plainText(text), links: [] })
  }
  return Effect.fail(new WebFetchFailed({ message: `Unsupported content type '${fetched.contentType.split(";")[0]}' at ${fetched.url}` }))
}
