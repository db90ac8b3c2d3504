/**
 * Search hits on private-key lines. One hit is one line, and the last line
 * of a key body is shorter than the others, so alone it has no key shape:
 * a hit that is nothing but base64 is checked against its whole file, and
 * redacted when the file has a key block there. Ordinary hits (code, prose)
 * cost nothing.
 */
import { Effect } from "effect"
import { KEY_MARKERS, privateKeyLines, REDACTED_KEY_LINE } from "../../lib/redact.js"
import type { TerminalEnvironment } from "../../services/TerminalBackend.js"
import type { MatchEntry } from "./search/engine.js"

/** Files larger than this are not re-read (a key file is a few KB). */
const MAX_KEY_FILE_BYTES = 1024 * 1024

const BASE64_ONLY = /^\s*[A-Za-z0-9+/]{8,}={0,2}\s*$/

export const redactKeyMatches = (
  env: TerminalEnvironment,
  absoluteOf: (shown: string) => string,
  matches: ReadonlyArray<MatchEntry>
): Effect.Effect<ReadonlyArray<MatchEntry>> =>
  Effect.gen(function*() {
    const suspect = [...new Set(matches.filter((m) => BASE64_ONLY.test(m.content)).map((m) => m.path))]
    if (suspect.length === 0) return matches
    const keyLines = new Map<string, ReadonlyArray<boolean>>()
    yield* Effect.forEach(suspect, (shown) =>
      Effect.gen(function*() {
        const path = absoluteOf(shown)
        const stat = yield* env.stat(path)
        if (stat.type !== "file" || stat.size > MAX_KEY_FILE_BYTES) return
        const text = Buffer.from(yield* env.readFile(path)).toString("utf8")
        if (KEY_MARKERS.some((marker) => text.includes(marker))) keyLines.set(shown, privateKeyLines(text.split("\n")))
      }).pipe(Effect.ignore), { concurrency: 8, discard: true })
    if (keyLines.size === 0) return matches
    return matches.map((m) => (keyLines.get(m.path)?.[m.line - 1] === true ? { ...m, content: REDACTED_KEY_LINE } : m))
  })
