/**
 * Readable content of an HTML page as Markdown (pure): Readability finds the
 * article on a linkedom DOM (no browser, no jsdom), Turndown writes Markdown.
 * Pages Readability gives up on fall back to the body minus chrome.
 */
import { Readability } from "@mozilla/readability"
import { parseHTML } from "linkedom"
import TurndownService from "turndown"

export interface ReadablePage {
  readonly title: string
  readonly markdown: string
}

const turndown = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-" })
turndown.remove(["script", "style", "noscript", "iframe", "object", "embed", "template"])
// Inline base64 images would flood the context: keep the alt text only (http images stay links).
turndown.addRule("dataImages", {
  filter: (node) => node.nodeName === "IMG" && (node.getAttribute("src") ?? "").startsWith("data:"),
  replacement: (_content, node) => {
    const alt = (node as { getAttribute(name: string): string | null }).getAttribute("alt")?.trim() ?? ""
    return alt === "" ? "[IMAGE]" : `[IMAGE: ${alt}]`
  }
})

const CHROME = "script, style, noscript, nav, header, footer, aside, form, iframe, svg, template"

/** Make `href`/`src` absolute so links in the Markdown work outside the page. */
const absolutise = (root: { querySelectorAll(selector: string): Iterable<unknown> }, base: string) => {
  for (const node of root.querySelectorAll("a[href], img[src]")) {
    const el = node as { getAttribute(n: string): string | null; setAttribute(n: string, v: string): void; tagName: string }
    const attr = el.tagName === "A" ? "href" : "src"
    const value = el.getAttribute(attr)
    if (value === null || value.startsWith("data:") || value.startsWith("#")) continue
    try {
      el.setAttribute(attr, new URL(value, base).toString())
    } catch { /* leave unparsable links as written */ }
  }
}

export const htmlToMarkdown = (html: string, url: string): ReadablePage => {
  const { document } = parseHTML(html)
  absolutise(document, url)
  const pageTitle = (document.querySelector("title")?.textContent ?? "").trim()
  // Readability mutates the document; the fallback reparses so it sees the original.
  const article = new Readability(document as unknown as ConstructorParameters<typeof Readability>[0], { charThreshold: 200 }).parse()
  if (article !== null && (article.content ?? "").trim() !== "") {
    const title = (article.title ?? "").trim() || pageTitle
    const body = turndown.turndown(article.content ?? "").trim()
    return { title, markdown: startsWithTitle(body, title) ? body : `# ${title}\n\n${body}`.trim() }
  }
  const fresh = parseHTML(html).document
  absolutise(fresh, url)
  for (const node of [...fresh.querySelectorAll(CHROME)]) node.remove()
  const bodyHtml = fresh.body?.innerHTML ?? html
  const body = turndown.turndown(bodyHtml).trim()
  return { title: pageTitle, markdown: pageTitle === "" || startsWithTitle(body, pageTitle) ? body : `# ${pageTitle}\n\n${body}` }
}

const startsWithTitle = (markdown: string, title: string) => title === "" || markdown.startsWith(`# ${title}`)

export { plainText } from "./plainText.js"
