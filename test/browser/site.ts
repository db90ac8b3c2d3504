/** A loopback site for the browser tool tests: a page with a button, a form, an image, console output, a page that never loads. */
import { createServer } from "node:http"
import type { Server, ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect } from "effect"

/** A 1×1 PNG. */
export const PIXEL = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64")

const html = (res: ServerResponse, body: string) => {
  res.writeHead(200, { "content-type": "text/html; charset=utf-8" })
  res.end(body)
}

export const HOME = `<!doctype html><html><head><title>Browser Test Home</title></head><body>
<h1>Example</h1>
<p id="status">not clicked yet</p>
<button onclick="document.getElementById('status').textContent = 'clicked by the tool'">Change the text</button>
<a href="/form">Go to the form</a>
<img src="/pixel.png" alt="a tiny pixel">
<img src="data:image/png;base64,${PIXEL.toString("base64")}" alt="inline">
<script>console.log("hello from the page"); setTimeout(() => { throw new Error("boom from the page") }, 0)</script>
</body></html>`

export const FORM = `<!doctype html><html><head><title>Search form</title></head><body>
<form action="/result" method="get"><label>Query <input name="q"></label><button type="submit">Search</button></form>
</body></html>`

export const startSite: Effect.Effect<{ readonly base: string; readonly hits: Array<string> }, never, import("effect").Scope.Scope> = Effect.acquireRelease(
  Effect.async<{ server: Server; base: string; hits: Array<string> }>((resume) => {
    const hits: Array<string> = []
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://x")
      hits.push(url.pathname)
      switch (url.pathname) {
        case "/":
          return html(res, HOME)
        case "/form":
          return html(res, FORM)
        case "/result":
          return html(res, `<!doctype html><title>Results</title><h1>You searched: ${url.searchParams.get("q") ?? ""}</h1>`)
        case "/dialog":
          return html(res, `<!doctype html><title>Dialogs</title><button onclick="document.title = 'answer:' + prompt('Your name?')">Ask</button>`)
        case "/pixel.png":
          res.writeHead(200, { "content-type": "image/png" })
          return res.end(PIXEL)
        case "/hang":
          // Headers and the start of a body, then nothing: the document never finishes.
          res.writeHead(200, { "content-type": "text/html" })
          return res.write("<!doctype html><html><head><title>Never")
        case "/redirect":
          res.writeHead(302, { location: url.searchParams.get("to") ?? "/" })
          return res.end()
        case "/to-metadata":
          res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" })
          return res.end()
        case "/long":
          return html(res, `<!doctype html><title>Long</title><ul>${Array.from({ length: 1500 }, (_, i) => `<li>Item number ${i} of the long list</li>`).join("")}</ul>`)
        default:
          res.writeHead(404, { "content-type": "text/plain" })
          return res.end("not found")
      }
    })
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo
      resume(Effect.succeed({ server, base: `http://127.0.0.1:${port}`, hits }))
    })
  }),
  ({ server }) => Effect.promise(() => new Promise<void>((done) => {
    server.closeAllConnections()
    server.close(() => done())
  }))
).pipe(Effect.map(({ base, hits }) => ({ base, hits })))
