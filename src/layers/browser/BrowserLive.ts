/**
 * Browser on playwright-core: one Chromium (launched on first use, or the
 * browser at `browser.cdp_url`), one context per task id made on first use.
 * A reaper fiber closes contexts idle for `browser.idle_seconds` and the
 * Chromium once none is left; the layer's scope closes everything, so no
 * Chromium outlives the runtime. A launched Chromium reaches the network only
 * through the policy proxy; an attached one is guarded per request by
 * `page.route` plus a check of where each navigation landed.
 */
import { createHash } from "node:crypto"
import { mkdir, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { Duration, Effect, Layer } from "effect"
import type { Browser as PwBrowser, BrowserContext, CDPSession, Dialog, Frame, Page, Request } from "playwright-core"
import { MAX_SAVED_CHARS } from "../../lib/web/truncate.js"
import { BLOCKED_PRIVATE, vetUrl } from "../../lib/web/urlPolicy.js"
import {
  Browser,
  BrowserBlocked,
  BrowserFailed,
  BrowserStaleRef,
  BrowserUnavailable,
  NO_BROWSER,
  NO_CDP
} from "../../services/Browser.js"
import type { BrowserError, BrowserSource, PageImage } from "../../services/Browser.js"
import { Config } from "../../services/Config.js"
import type { HermesConfig } from "../../services/Config.js"
import { locateBrowser } from "./locate.js"
import { findBlock } from "../../lib/web/websitePolicy.js"
import { makeBlocklistLoader } from "../web/blocklist.js"
import { BLOCKED_HEADER, judgeUnderPolicy, startPolicyProxy } from "./policyProxy.js"
import type { HostPolicy } from "./policyProxy.js"
import type { PolicyProxy } from "./policyProxy.js"
import { normaliseRef, openSession, refsOf } from "./session.js"
import type { TaskSession } from "./session.js"
import { importModule } from "../../lib/importModule.js"

export const BLOCKED_REDIRECT = "Blocked: redirect landed on a private or internal address"

interface Running {
  readonly browser: PwBrowser
  readonly source: BrowserSource
  readonly proxy: PolicyProxy | undefined
}

const firstLine = (error: unknown): string => {
  const text = error instanceof Error ? error.message : String(error)
  return (text.split("\n").find((line) => line.trim() !== "") ?? text).replace(/^\w+\.\w+: /, "").trim()
}

const isTimeout = (error: unknown) => error instanceof Error && (error.name === "TimeoutError" || /Timeout \d+ms exceeded/.test(error.message))

const allowPrivateIn = (config: HermesConfig) => config.web.allow_private || config.browser.allow_private_urls

const idleMsOf = (config: HermesConfig) => 1000 * (config.browser.inactivity_timeout !== undefined && config.browser.inactivity_timeout > 0
  ? config.browser.inactivity_timeout
  : config.browser.idle_seconds)

/** The images script runs in the page, so it is a string (no DOM types here). */
const IMAGES_SCRIPT = `[...document.images]
  .map((img) => ({ src: img.currentSrc || img.src, alt: img.alt || "", width: img.naturalWidth, height: img.naturalHeight }))
  .filter((img) => img.src && !img.src.startsWith("data:"))`

export const BrowserLive = Layer.scoped(
  Browser,
  Effect.gen(function*() {
    const config = yield* Config
    const cacheDir = join(config.home.root, "cache", "web")
    const lock = yield* Effect.makeSemaphore(1)
    const sessions = new Map<string, TaskSession>()
    let running: Running | undefined
    const blocklist = makeBlocklistLoader(config.home.root)
    // Read by the proxy per connection; refreshed from config (and the blocklist's files) before every command.
    let policy: HostPolicy = { allowPrivate: allowPrivateIn(yield* config.current), rules: [] }
    const refreshPolicy = (current: HermesConfig) =>
      Effect.map(
        Effect.mapError(blocklist.rules(current), (e) => new BrowserBlocked({ message: e.message })),
        (rules) => {
          policy = { allowPrivate: allowPrivateIn(current), rules }
        }
      )

    const source = Effect.flatMap(config.current, (current) => {
      const found = locateBrowser(current)
      return found === undefined ? Effect.fail(new BrowserUnavailable({ message: NO_BROWSER })) : Effect.succeed(found)
    })

    const closeRunning = Effect.suspend(() => {
      const current = running
      running = undefined
      if (current === undefined) return Effect.void
      return Effect.promise(async () => {
        await current.browser.close().catch(() => undefined)
        await current.proxy?.close()
      })
    })

    const closeSession = (taskId: string) =>
      Effect.suspend(() => {
        const session = sessions.get(taskId)
        sessions.delete(taskId)
        if (session === undefined) return Effect.void
        for (const pending of session.dialogs) pending.dialog.dismiss().catch(() => undefined)
        return Effect.promise(() => (session.ownsContext ? session.context.close() : session.page.close()).catch(() => undefined))
      })

    const launch = (found: BrowserSource, headed: boolean) =>
      Effect.tryPromise({
        try: async (): Promise<Running> => {
          const { chromium } = (await importModule("playwright-core")) as typeof import("playwright-core")
          const timeout = 60_000
          if (found._tag === "Cdp") return { browser: await chromium.connectOverCDP(found.url, { timeout }), source: found, proxy: undefined }
          const proxy = await startPolicyProxy(() => policy)
          try {
            const browser = await chromium.launch({
              executablePath: found.path,
              headless: !headed,
              timeout,
              // `<-loopback>` sends loopback through the proxy too (Chromium bypasses it by default).
              proxy: { server: proxy.server, bypass: "<-loopback>" },
              // The runtime's scope closes the browser; playwright must not take over the process's signals.
              handleSIGINT: false,
              handleSIGTERM: false,
              handleSIGHUP: false,
              // Marks our processes, so an operator (and the tests) can tell them apart.
              args: [`--hermes-effect-pid=${process.pid}`]
            })
            return { browser, source: found, proxy }
          } catch (error) {
            await proxy.close()
            throw error
          }
        },
        catch: (error) =>
          new BrowserUnavailable({
            message: found._tag === "Cdp"
              ? `Could not attach to the browser at browser.cdp_url: ${firstLine(error)}`
              : `Could not start ${found.path}: ${firstLine(error)}. ${NO_BROWSER}`
          })
      })

    const ensureRunning = Effect.gen(function*() {
      if (running !== undefined && running.browser.isConnected()) return running
      if (running !== undefined) yield* closeRunning
      const found = yield* source
      const started = yield* launch(found, (yield* config.current).browser.headed)
      started.browser.on("disconnected", () => {
        if (running?.browser === started.browser) {
          running = undefined
          sessions.clear()
        }
      })
      running = started
      return started
    })

    /** Refuse a request an attached browser's page makes to a forbidden host (launched ones use the proxy). */
    const guardPage = (page: Page) =>
      page.route("**/*", async (route) => {
        const url = route.request().url()
        if (!/^https?:/i.test(url)) return route.continue()
        const verdict = await judgeUnderPolicy(new URL(url).hostname, policy)
        return verdict.ok ? route.continue() : route.abort("blockedbyclient")
      })

    const ensureSession = (taskId: string, commandMs: number) =>
      lock.withPermits(1)(Effect.gen(function*() {
        const existing = sessions.get(taskId)
        if (existing !== undefined && !existing.page.isClosed()) return existing
        const { browser, source: from } = yield* ensureRunning
        const session = yield* Effect.tryPromise({
          try: async () => {
            const attached = from._tag === "Cdp"
            const context: BrowserContext = attached ? (browser.contexts()[0] ?? (await browser.newContext())) : await browser.newContext()
            const page = await context.newPage()
            if (attached) await guardPage(page)
            page.setDefaultTimeout(commandMs)
            page.setDefaultNavigationTimeout(commandMs)
            return openSession(context, page, !attached, attached)
          },
          catch: (error) => new BrowserFailed({ message: `Could not open a browser page: ${firstLine(error)}` })
        })
        sessions.set(taskId, session)
        return session
      }))

    /** Run `f` on the task's page, with the command timeout as a backstop. */
    const withPage = <A>(
      taskId: string,
      what: string,
      f: (session: TaskSession, commandMs: number) => Effect.Effect<A, BrowserError>
    ): Effect.Effect<A, BrowserError> =>
      Effect.gen(function*() {
        const current = yield* config.current
        yield* refreshPolicy(current)
        const commandMs = current.browser.command_timeout * 1000
        const session = yield* ensureSession(taskId, commandMs)
        session.busy++
        session.lastUsed = Date.now()
        return yield* f(session, commandMs).pipe(
          Effect.timeoutFail({
            duration: Duration.millis(commandMs + 2000),
            onTimeout: () => new BrowserFailed({ message: `${what} timed out after ${current.browser.command_timeout}s (browser.command_timeout)` })
          }),
          Effect.ensuring(Effect.sync(() => {
            session.busy--
            session.lastUsed = Date.now()
          }))
        )
      })

    /** A playwright call; its failure becomes BrowserFailed with a one-line message. */
    const attempt = <A>(what: string, seconds: number, run: () => Promise<A>) =>
      Effect.tryPromise({
        try: run,
        catch: (error) =>
          new BrowserFailed({
            message: isTimeout(error) ? `${what} timed out after ${seconds}s (browser.command_timeout)` : `${what} failed: ${firstLine(error)}`
          })
      })

    const secondsOf = (ms: number) => Math.round(ms / 1000)

    /** An action that opens a held dialog cannot finish until the dialog is answered: it counts as done once one opens. */
    const untilDialog = async (page: Page, action: Promise<void>) => {
      let listener: ((dialog: Dialog) => void) | undefined
      const opened = new Promise<void>((resolve) => {
        listener = () => resolve()
        page.once("dialog", listener)
      })
      try {
        await Promise.race([action, opened])
      } finally {
        if (listener !== undefined) page.off("dialog", listener)
      }
      action.catch(() => undefined)
    }

    /** Whether a URL the page landed on is allowed (for attached browsers, which have no proxy). */
    const landedAllowed = (url: string) =>
      Effect.promise(async () => {
        if (!/^https?:/i.test(url)) return true
        return (await judgeUnderPolicy(new URL(url).hostname, policy)).ok
      })

    /** The address check before a navigation: a name that does not resolve is refused with its own message. */
    const vetTarget = (url: URL): Effect.Effect<void, BrowserFailed | BrowserBlocked> =>
      Effect.flatMap(Effect.promise(() => judgeUnderPolicy(url.hostname, policy)), (verdict): Effect.Effect<void, BrowserFailed | BrowserBlocked> =>
        verdict.ok
          ? Effect.void
          : verdict.unresolved === true
          ? Effect.fail(new BrowserFailed({ message: `Navigation failed: cannot resolve host ${url.hostname}` }))
          : Effect.fail(new BrowserBlocked({ message: BLOCKED_PRIVATE })))

    const blank = (page: Page) => Effect.promise(() => page.goto("about:blank").then(() => undefined, () => undefined))

    const navigate = Effect.fn("Browser.navigate")(function*(taskId: string, url: string) {
      const verdict = vetUrl(url)
      if (verdict._tag === "Invalid") return yield* new BrowserFailed({ message: verdict.message })
      if (verdict._tag === "Secret" || verdict._tag === "Private") return yield* new BrowserBlocked({ message: verdict.message })
      const target = verdict.url.toString()
      yield* refreshPolicy(yield* config.current)
      const listed = findBlock(verdict.url, policy.rules)
      if (listed !== undefined) {
        return yield* new BrowserBlocked({ message: listed.message, policy: { host: listed.host, rule: listed.rule, source: listed.source } })
      }
      yield* vetTarget(verdict.url)
      return yield* withPage(taskId, "Navigation", (session, ms) =>
        Effect.gen(function*() {
          const { page } = session
          session.refs = new Set()
          const response = yield* Effect.tryPromise({
            try: () => page.goto(target, { waitUntil: "domcontentloaded", timeout: ms }),
            catch: (error) =>
              /ERR_TUNNEL_CONNECTION_FAILED|ERR_BLOCKED_BY_CLIENT/.test(String(error))
                ? new BrowserBlocked({ message: BLOCKED_REDIRECT })
                : isTimeout(error)
                ? new BrowserFailed({
                  message: `Navigation to ${target} timed out after ${secondsOf(ms)}s: the page did not finish loading (browser.command_timeout)`
                })
                : new BrowserFailed({ message: `Navigation failed: ${firstLine(error)}` })
          }).pipe(Effect.tapErrorTag("BrowserBlocked", () => blank(page)))
          if (response?.headers()[BLOCKED_HEADER] === "1" || !(yield* landedAllowed(page.url()))) {
            yield* blank(page)
            return yield* new BrowserBlocked({ message: BLOCKED_REDIRECT })
          }
          session.refs = new Set()
          const title = yield* attempt("Reading the title", secondsOf(ms), () => page.title())
          return { url: page.url(), title }
        }))
    })

    const snapshot = Effect.fn("Browser.snapshot")(function*(taskId: string) {
      return yield* withPage(taskId, "Snapshot", (session, ms) =>
        Effect.gen(function*() {
          const text = yield* attempt("Snapshot", secondsOf(ms), () => session.page.ariaSnapshot({ mode: "ai", timeout: ms }))
          session.refs = new Set(refsOf(text))
          return { text, url: session.page.url() }
        }))
    })

    /** The element behind a ref of the latest snapshot, or BrowserStaleRef. */
    const element = (session: TaskSession, raw: string) =>
      Effect.gen(function*() {
        const ref = normaliseRef(raw)
        if (session.refs.size === 0) {
          return yield* new BrowserStaleRef({
            message: `No current snapshot for this page, so @${ref} cannot be resolved: call browser_snapshot first and use a ref from it.`
          })
        }
        if (!session.refs.has(ref)) {
          return yield* new BrowserStaleRef({
            message: `Unknown or stale ref @${ref}: it is not in the latest snapshot of this page. Take a new browser_snapshot and use a ref from it.`
          })
        }
        const locator = session.page.getByRef(ref)
        const present = yield* Effect.promise(() => locator.count().catch(() => 0))
        if (present === 0) {
          return yield* new BrowserStaleRef({
            message: `Element @${ref} is no longer on the page (it changed since the snapshot). Take a new browser_snapshot.`
          })
        }
        return locator
      })

    /**
     * Run an action that may start a navigation (a click on a link, Enter in a form) and, when it did, wait until the
     * new document is loaded: the model's next snapshot must see the page the action led to, not the one it left.
     */
    const settled = async (page: Page, action: () => Promise<void>, ms: number) => {
      let navigating = false
      let committed = false
      let onCommit = () => {}
      const onRequest = (request: Request) => {
        if (request.isNavigationRequest() && request.frame() === page.mainFrame()) navigating = true
      }
      const onNavigated = (frame: Frame) => {
        if (frame !== page.mainFrame()) return
        committed = true
        onCommit()
      }
      page.on("request", onRequest)
      page.on("framenavigated", onNavigated)
      let timer: ReturnType<typeof setTimeout> | undefined
      try {
        await untilDialog(page, action())
        // The browser reports a navigation the action started within a few event-loop turns.
        await new Promise((resolve) => setTimeout(resolve, 50))
        if (!navigating) return
        if (!committed) {
          await new Promise<void>((resolve) => {
            onCommit = resolve
            timer = setTimeout(resolve, ms)
          })
        }
        await page.waitForLoadState("domcontentloaded", { timeout: ms }).catch(() => undefined)
      } finally {
        if (timer !== undefined) clearTimeout(timer)
        page.off("request", onRequest)
        page.off("framenavigated", onNavigated)
      }
    }

    const click = Effect.fn("Browser.click")(function*(taskId: string, ref: string) {
      yield* withPage(taskId, "Click", (session, ms) =>
        Effect.flatMap(element(session, ref), (locator) =>
          attempt(`Click on @${normaliseRef(ref)}`, secondsOf(ms), () => settled(session.page, () => locator.click(), ms))))
    })

    const type = Effect.fn("Browser.type")(function*(taskId: string, ref: string, text: string) {
      yield* withPage(taskId, "Typing", (session, ms) =>
        Effect.flatMap(element(session, ref), (locator) => attempt(`Typing into @${normaliseRef(ref)}`, secondsOf(ms), () => locator.fill(text))))
    })

    const scroll = Effect.fn("Browser.scroll")(function*(taskId: string, pixels: number) {
      yield* withPage(taskId, "Scroll", (session, ms) =>
        attempt("Scroll", secondsOf(ms), () => session.page.evaluate(`window.scrollBy(0, ${Math.trunc(pixels)})`)))
    })

    const back = Effect.fn("Browser.back")(function*(taskId: string) {
      return yield* withPage(taskId, "Back", (session, ms) =>
        Effect.gen(function*() {
          yield* attempt("Going back", secondsOf(ms), () => session.page.goBack({ waitUntil: "domcontentloaded", timeout: ms }))
          if (!(yield* landedAllowed(session.page.url()))) {
            yield* blank(session.page)
            return yield* new BrowserBlocked({ message: "Blocked: history navigation (back) landed on a private or internal address" })
          }
          return session.page.url()
        }))
    })

    const press = Effect.fn("Browser.press")(function*(taskId: string, key: string) {
      yield* withPage(taskId, "Key press", (session, ms) =>
        attempt(`Pressing ${key}`, secondsOf(ms), () => settled(session.page, () => session.page.keyboard.press(key), ms)))
    })

    const images = Effect.fn("Browser.images")(function*(taskId: string) {
      return yield* withPage(taskId, "Reading images", (session, ms) =>
        Effect.map(attempt("Reading images", secondsOf(ms), () => session.page.evaluate(IMAGES_SCRIPT)), (raw): ReadonlyArray<PageImage> =>
          Array.isArray(raw)
            ? raw.flatMap((item) => {
              if (typeof item !== "object" || item === null) return []
              const r = item as Record<string, unknown>
              return [{ src: String(r["src"] ?? ""), alt: String(r["alt"] ?? ""), width: Number(r["width"] ?? 0), height: Number(r["height"] ?? 0) }]
            })
            : []))
    })

    const consoleOf = Effect.fn("Browser.console")(function*(taskId: string, clear: boolean) {
      return yield* withPage(taskId, "Reading the console", (session) =>
        Effect.sync(() => {
          const out = { messages: [...session.messages], errors: [...session.errors] }
          if (clear) {
            session.messages = []
            session.errors = []
          }
          return out
        }))
    })

    const evaluate = Effect.fn("Browser.evaluate")(function*(taskId: string, expression: string) {
      return yield* withPage(taskId, "Evaluation", (session, ms) =>
        Effect.tryPromise({
          try: () => session.page.evaluate(expression),
          catch: (error) =>
            new BrowserFailed({
              message: isTimeout(error) ? `Evaluation timed out after ${secondsOf(ms)}s` : firstLine(error).replace(/^Error: /, "")
            })
        }).pipe(Effect.map((value) => value ?? null)))
    })

    const screenshot = Effect.fn("Browser.screenshot")(function*(taskId: string, path: string) {
      yield* withPage(taskId, "Screenshot", (session, ms) =>
        attempt("Screenshot", secondsOf(ms), async () => {
          await session.page.screenshot({ path, fullPage: true, timeout: ms })
        }))
    })

    const dialogs = (taskId: string) => Effect.sync(() => sessions.get(taskId)?.dialogs.map((d) => d.info) ?? [])

    const respondDialog = Effect.fn("Browser.respondDialog")(function*(
      taskId: string,
      action: "accept" | "dismiss",
      promptText: string | undefined,
      dialogId: string | undefined
    ) {
      const session = sessions.get(taskId)
      const pending = session?.dialogs ?? []
      if (pending.length === 0) return yield* new BrowserFailed({ message: "No JavaScript dialog is pending on this task's page." })
      const index = dialogId === undefined ? (pending.length === 1 ? 0 : -1) : pending.findIndex((d) => d.info.id === dialogId)
      if (index < 0) {
        return yield* new BrowserFailed({
          message: dialogId === undefined
            ? `${pending.length} dialogs are pending: pass dialog_id (from browser_snapshot's pending_dialogs).`
            : `No pending dialog with id ${dialogId}.`
        })
      }
      const [chosen] = pending.splice(index, 1)
      yield* Effect.tryPromise({
        try: () => (action === "accept" ? chosen!.dialog.accept(promptText ?? "") : chosen!.dialog.dismiss()),
        catch: (error) => new BrowserFailed({ message: `Could not ${action} the dialog: ${firstLine(error)}` })
      })
      return chosen!.info
    })

    const cdp = Effect.fn("Browser.cdp")(function*(method: string, params: Record<string, unknown>, targetId: string | undefined, timeoutMs: number) {
      const found = yield* source
      if (found._tag !== "Cdp") return yield* new BrowserUnavailable({ message: NO_CDP })
      const { browser } = yield* lock.withPermits(1)(ensureRunning)
      const send = (session: CDPSession) =>
        (session.send as unknown as (m: string, p: Record<string, unknown>) => Promise<unknown>).call(session, method, params)
      return yield* Effect.tryPromise({
        try: async () => {
          if (targetId === undefined) {
            const session = await browser.newBrowserCDPSession()
            try {
              return await send(session)
            } finally {
              await session.detach().catch(() => undefined)
            }
          }
          for (const context of browser.contexts()) {
            for (const page of context.pages()) {
              const session = await context.newCDPSession(page)
              try {
                const info = (await session.send("Target.getTargetInfo")).targetInfo
                if (info.targetId === targetId) return await send(session)
              } finally {
                await session.detach().catch(() => undefined)
              }
            }
          }
          throw new Error(`no tab with target id ${targetId} (list them with Target.getTargets)`)
        },
        catch: (error) => new BrowserFailed({ message: `CDP ${method} failed: ${firstLine(error)}` })
      }).pipe(
        Effect.timeoutFail({
          duration: Duration.millis(timeoutMs),
          onTimeout: () => new BrowserFailed({ message: `CDP call timed out after ${secondsOf(timeoutMs)}s` })
        })
      )
    })

    const saveSnapshot = Effect.fn("Browser.saveSnapshot")(function*(text: string) {
      const content = text.length > MAX_SAVED_CHARS ? `${text.slice(0, MAX_SAVED_CHARS)}\n\n[... stored copy cut at ${MAX_SAVED_CHARS} characters ...]` : text
      const path = join(cacheDir, `browser-snapshot-${createHash("sha256").update(content).digest("hex").slice(0, 10)}.txt`)
      yield* Effect.tryPromise({
        try: async () => {
          await mkdir(cacheDir, { recursive: true })
          await writeFile(path, content, "utf8")
        },
        catch: (error) => new BrowserFailed({ message: `Could not save the snapshot: ${String(error)}` })
      })
      return path
    })

    const closeTask = (taskId: string) => lock.withPermits(1)(closeSession(taskId))

    // The reaper: idle contexts close, and the Chromium with the last of them.
    const reap = lock.withPermits(1)(Effect.gen(function*() {
      const idleMs = idleMsOf(yield* config.current)
      const now = Date.now()
      for (const [taskId, session] of [...sessions]) {
        if (session.busy === 0 && now - session.lastUsed >= idleMs) yield* closeSession(taskId)
      }
      if (sessions.size === 0 && running !== undefined) yield* closeRunning
    }))
    const tick = Effect.map(config.current, (c) => Duration.millis(Math.min(30_000, Math.max(200, idleMsOf(c) / 4))))
    yield* Effect.forkScoped(Effect.forever(Effect.flatMap(tick, Effect.sleep).pipe(Effect.zipRight(reap))))

    yield* Effect.addFinalizer(() =>
      Effect.gen(function*() {
        for (const taskId of [...sessions.keys()]) yield* closeSession(taskId)
        yield* closeRunning
      })
    )

    return Browser.of({
      source,
      navigate,
      snapshot,
      click,
      type,
      scroll,
      back,
      press,
      images,
      console: consoleOf,
      evaluate,
      screenshot,
      dialogs,
      respondDialog,
      cdp,
      saveSnapshot,
      closeTask
    })
  })
)
