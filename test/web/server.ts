/** A loopback HTTP server for the web tool tests: articles, text, a PDF, redirects, a small site, provider stand-ins. */
import { createServer } from "node:http"
import type { IncomingMessage, Server, ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect } from "effect"

export const articleHtml = (paragraphs = 6, filler = "") => `<!doctype html><html><head><title>The Effect Article</title>
<script>window.tracking = "SCRIPT-SHOULD-NOT-APPEAR"</script><style>.x{color:red}</style></head><body>
<nav class="site-nav"><a href="/home">NAV-HOME-LINK</a> | <a href="/about">NAV-ABOUT-LINK</a></nav>
<main><article><h1>The Effect Article</h1>
${Array.from({ length: paragraphs }, (_, i) => `<h2>Section ${i + 1}</h2><p>Paragraph ${i + 1} explains structured concurrency in depth, with fibers, scopes and layers. ${filler}
See <a href="/docs/page-${i + 1}">the reference page ${i + 1}</a> for details and more reading material for the curious.</p>`).join("\n")}
<img src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==" alt="inline chart">
</article></main><footer>FOOTER-COPYRIGHT</footer></body></html>`

/** A one-page PDF whose text is `text` (offsets computed so the xref is exact). */
export const tinyPdf = (text: string): Buffer => {
  const stream = `BT /F1 18 Tf 72 720 Td (${text}) Tj ET`
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
  ]
  let out = "%PDF-1.4\n"
  const offsets: Array<number> = []
  objects.forEach((body, i) => {
    offsets.push(out.length)
    out += `${i + 1} 0 obj\n${body}\nendobj\n`
  })
  const xref = out.length
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`
  return Buffer.from(out, "latin1")
}

export interface Seen {
  readonly requests: Array<{ readonly method: string; readonly url: string; readonly body: string; readonly headers: IncomingMessage["headers"] }>
}

type Handler = (req: IncomingMessage, res: ServerResponse, body: string, base: string) => void

const html = (res: ServerResponse, text: string) => {
  res.writeHead(200, { "content-type": "text/html; charset=utf-8" })
  res.end(text)
}

const json = (res: ServerResponse, value: unknown) => {
  res.writeHead(200, { "content-type": "application/json" })
  res.end(JSON.stringify(value))
}

const routes: Record<string, Handler> = {
  "/article": (_q, res) => html(res, articleHtml()),
  "/long": (_q, res) => html(res, articleHtml(120, "Filler sentence that makes this page long. ".repeat(8))),
  "/plain.txt": (_q, res) => {
    res.writeHead(200, { "content-type": "text/plain; charset=utf-8" })
    res.end("plain line one\r\nplain line two\n")
  },
  "/doc.pdf": (_q, res) => {
    res.writeHead(200, { "content-type": "application/pdf" })
    res.end(tinyPdf("Hello from a PDF document"))
  },
  "/missing": (_q, res) => {
    res.writeHead(404, { "content-type": "text/html" })
    res.end("<h1>Not found</h1>")
  },
  "/to-article": (_q, res) => {
    res.writeHead(302, { location: "/article" })
    res.end()
  },
  "/to-metadata": (_q, res) => {
    res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" })
    res.end()
  },
  "/to-metadata-name": (_q, res) => {
    res.writeHead(301, { location: "http://metadata.google.internal/computeMetadata/v1/" })
    res.end()
  },
  "/to-file": (_q, res) => {
    res.writeHead(302, { location: "file:///etc/passwd" })
    res.end()
  },
  "/redirect": (req, res) => {
    res.writeHead(302, { location: new URL(req.url ?? "/", "http://x").searchParams.get("to") ?? "/" })
    res.end()
  },
  "/loop": (_q, res) => {
    res.writeHead(302, { location: "/loop" })
    res.end()
  },
  "/slow": () => { /* never answers */ },
  "/huge": (_q, res) => {
    res.writeHead(200, { "content-type": "text/plain" })
    const chunk = "x".repeat(64 * 1024) + "\n"
    let sent = 0
    const pump = () => {
      while (sent < 400) {
        sent++
        if (!res.write(chunk)) return void res.once("drain", pump)
      }
      res.end()
    }
    res.on("close", () => { sent = Infinity })
    pump()
  },
  "/robots.txt": (_q, res) => {
    res.writeHead(200, { "content-type": "text/plain" })
    res.end("User-agent: *\nDisallow: /site/private\n")
  },
  "/site/": (_q, res) => html(res, page("Site home", ["/site/a", "/site/b", "/site/private/x", "http://example.com/elsewhere", "mailto:x@y.z"])),
  "/site/a": (_q, res) => html(res, page("Page A", ["/site/c", "/site/"])),
  "/site/b": (_q, res) => html(res, page("Page B", ["/site/a#frag"])),
  "/site/c": (_q, res) => html(res, page("Page C", ["/site/d"])),
  "/site/d": (_q, res) => html(res, page("Page D", [])),
  "/site/private/x": (_q, res) => html(res, page("Private", [])),
  // Provider stand-ins speaking the documented JSON.
  "/tavily/search": (_q, res, body) => {
    const req = JSON.parse(body) as { query: string; max_results: number }
    json(res, { query: req.query, results: [
      { title: "Effect docs", url: "https://effect.website/docs", content: "Effect is a TypeScript library.", score: 0.9 },
      { title: "Effect GitHub", url: "https://github.com/Effect-TS/effect", content: "Source code.", score: 0.8 }
    ].slice(0, req.max_results) })
  },
  "/tavily/extract": (_q, res, body) => {
    const req = JSON.parse(body) as { urls: Array<string> }
    json(res, {
      results: req.urls.filter((u) => !u.includes("fail")).map((url) => ({ url, raw_content: `# Extracted\n\nContent of ${url}`, images: [] })),
      failed_results: req.urls.filter((u) => u.includes("fail")).map((url) => ({ url, error: "could not fetch" }))
    })
  },
  "/firecrawl/v1/search": (_q, res) => json(res, { success: true, data: [{ url: "https://fc.example/a", title: "FC A", description: "first" }] }),
  "/firecrawl/v1/scrape": (_q, res, body) => {
    const req = JSON.parse(body) as { url: string }
    json(res, { success: true, data: { markdown: `# FC\n\nScraped ${req.url}`, metadata: { title: "FC page", sourceURL: req.url, statusCode: 200 } } })
  },
  "/searx/search": (_q, res) => json(res, { query: "q", results: [
    { title: "Low", url: "https://low.example/", content: "low score", score: 0.1 },
    { title: "High", url: "https://high.example/", content: "high score", score: 2.5 }
  ] })
}

function page(title: string, links: ReadonlyArray<string>) {
  return `<html><head><title>${title}</title></head><body><h1>${title}</h1><p>${title} body text. ${"Words to read. ".repeat(30)}</p>
<ul>${links.map((l) => `<li><a href="${l}">${l}</a></li>`).join("")}</ul></body></html>`
}

/** Start the server on 127.0.0.1 for the scope; `base` is its http://127.0.0.1:<port>. */
export const startServer = Effect.acquireRelease(
  Effect.async<{ server: Server; base: string; seen: Seen }>((resume) => {
    const seen: Seen = { requests: [] }
    const server = createServer((req, res) => {
      let body = ""
      req.on("data", (c: Buffer) => { body += c.toString() })
      req.on("end", () => {
        const path = new URL(req.url ?? "/", "http://x").pathname
        seen.requests.push({ method: req.method ?? "", url: req.url ?? "", body, headers: req.headers })
        const handler = routes[path]
        if (handler === undefined) {
          res.writeHead(404)
          res.end("no route")
        } else handler(req, res, body, "")
      })
    })
    server.listen(0, "127.0.0.1", () => resume(Effect.succeed({ server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen })))
  }),
  ({ server }) => Effect.async<void>((resume) => {
    server.closeAllConnections()
    server.close(() => resume(Effect.void))
  })
)
