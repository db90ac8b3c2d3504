/**
 * The builtin search engine: ripgrep's defaults re-done over the task
 * environment's file operations, for environments without ripgrep. It walks
 * in ripgrep's `--sort path` order and skips what ripgrep skips: hidden
 * entries, symlinks, paths ignored by `.gitignore` (inside a git repository,
 * with `.git/info/exclude`), `.ignore` and `.rgignore` files in the tree and
 * its parents; `--glob` overrides win over all of that. Content search skips
 * files holding a NUL byte, matches line by line (across lines only when the
 * pattern has `\n`), and understands the common Rust-regex spellings that
 * JavaScript lacks (`(?i)` flags, `[[:alpha:]]` classes).
 */
import { posix } from "node:path"
import { Effect } from "effect"
import type { TerminalEnvironment } from "../../../services/TerminalBackend.js"
import { MATCH_CONTENT_CHARS, underRoot, wantsMultiline } from "./engine.js"
import type { MatchEntry, SearchAnswer, SearchRequest } from "./engine.js"
import { Overrides, RuleSet } from "./gitignore.js"

const IGNORE_FILES = [".rgignore", ".ignore"] as const

interface Frame {
  readonly dir: string
  /** Highest priority first: .rgignore, .ignore, .gitignore, .git/info/exclude. */
  readonly sets: ReadonlyArray<RuleSet>
}

const POSIX_CLASSES: Readonly<Record<string, string>> = {
  alpha: "A-Za-z", digit: "0-9", alnum: "A-Za-z0-9", upper: "A-Z", lower: "a-z", space: "\\s", blank: " \\t",
  punct: "!-\\/:-@\\[-`{-~", xdigit: "0-9A-Fa-f", word: "\\w", cntrl: "\\x00-\\x1f\\x7f", print: "\\x20-\\x7e", graph: "\\x21-\\x7e"
}

/** A JavaScript RegExp for a ripgrep pattern, or the reason it does not compile. */
export const compilePattern = (pattern: string, multiline: boolean): RegExp | string => {
  let source = pattern
  let flags = multiline ? "gm" : "m"
  const inline = /^\(\?([imsx]+)\)/.exec(source)
  if (inline !== null) {
    source = source.slice(inline[0].length)
    for (const f of inline[1] as string) if ((f === "i" || f === "s") && !flags.includes(f)) flags += f
  }
  source = source.replace(/\[:(\^?)([a-z]+):\]/g, (whole, negate: string, name: string) => {
    const cls = POSIX_CLASSES[name]
    return cls === undefined || negate === "^" ? whole : cls
  })
  try {
    return new RegExp(source, flags)
  } catch (e) {
    return `regex parse error: ${e instanceof Error ? e.message : String(e)}`
  }
}

/** Stream the files under `root` that ripgrep would visit, in its `--sort path` order. */
const walkFiles = (
  env: TerminalEnvironment,
  rootAbsolute: string,
  overrides: Overrides,
  visit: (absolute: string, relative: string) => Effect.Effect<boolean>
): Effect.Effect<void> =>
  Effect.gen(function*() {
    const readText = (path: string) =>
      env.readFile(path).pipe(
        Effect.map((bytes) => Buffer.from(bytes).toString("utf8")),
        Effect.orElseSucceed(() => undefined)
      )
    /** The ignore files of `dir`, given which names it holds. */
    const frameOf = (dir: string, names: ReadonlySet<string>, inRepo: boolean) =>
      Effect.gen(function*() {
        const sets: Array<RuleSet> = []
        const load = (name: string) => Effect.map(readText(posix.join(dir, name)), (text) => text === undefined ? undefined : sets.push(RuleSet.parse(text)))
        for (const name of IGNORE_FILES) if (names.has(name)) yield* load(name)
        if (inRepo && names.has(".gitignore")) yield* load(".gitignore")
        if (names.has(".git")) yield* load(".git/info/exclude")
        return sets.length === 0 ? undefined : ({ dir, sets } satisfies Frame)
      })
    const namesIn = (dir: string) =>
      Effect.map(Effect.either(env.readDir(dir)), (r) => (r._tag === "Right" ? r.right : undefined))

    // The ignore files above the root, and whether the root is inside a git repository.
    const ancestors: Array<string> = []
    for (let dir = posix.dirname(rootAbsolute); ; dir = posix.dirname(dir)) {
      ancestors.push(dir)
      if (dir === "/") break
    }
    const listings: Array<ReadonlySet<string>> = []
    for (const dir of ancestors) {
      const entries = yield* namesIn(dir)
      listings.push(new Set((entries ?? []).filter((e) => e.name === ".git" || e.name.endsWith("ignore")).map((e) => e.name)))
    }
    const hasGit = listings.map((names) => names.has(".git"))
    const parentFrames: Array<Frame> = []
    for (let i = ancestors.length - 1; i >= 0; i--) {
      const frame = yield* frameOf(ancestors[i] as string, listings[i] as ReadonlySet<string>, hasGit.slice(i).some((x) => x))
      if (frame !== undefined) parentFrames.push(frame)
    }

    const ignored = (frames: ReadonlyArray<Frame>, absolute: string, relative: string, isDir: boolean): boolean => {
      const override = overrides.decide(relative, isDir)
      if (override !== undefined) return override === "exclude"
      for (let i = frames.length - 1; i >= 0; i--) {
        const frame = frames[i] as Frame
        const rel = frame.dir === "/" ? absolute.slice(1) : absolute.slice(frame.dir.length + 1)
        for (const set of frame.sets) {
          const decision = set.decide(rel, isDir)
          if (decision === "ignore") return true
          if (decision === "whitelist") return false
        }
      }
      return posix.basename(absolute).startsWith(".")
    }

    let stopped = false
    const walk = (dir: string, relDir: string, frames: ReadonlyArray<Frame>, parentInRepo: boolean): Effect.Effect<void> =>
      Effect.gen(function*() {
        const listed = yield* namesIn(dir)
        if (listed === undefined) return
        const names = new Set(listed.map((e) => e.name))
        const inRepo = parentInRepo || names.has(".git")
        const own = yield* frameOf(dir, names, inRepo)
        const here = own === undefined ? frames : [...frames, own]
        const entries = [...listed].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
        for (const entry of entries) {
          if (stopped) return
          if (entry.type === "symlink" || entry.type === "other") continue
          const absolute = dir === "/" ? `/${entry.name}` : `${dir}/${entry.name}`
          const relative = relDir.length === 0 ? entry.name : `${relDir}/${entry.name}`
          const isDir = entry.type === "directory"
          if (ignored(here, absolute, relative, isDir)) continue
          if (isDir) yield* walk(absolute, relative, here, inRepo)
          else if (!(yield* visit(absolute, relative))) stopped = true
        }
      })
    yield* walk(rootAbsolute, "", parentFrames, hasGit.some((x) => x))
  })

/** Every line the regex matches (with `context` lines around), as ripgrep prints them for one file. */
const matchLines = (text: string, regex: RegExp, multiline: boolean, context: number): Array<readonly [number, string]> => {
  const lines = text.split("\n")
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop()
  const hit = new Set<number>()
  if (multiline) {
    const starts: Array<number> = []
    let at = 0
    for (const line of lines) {
      starts.push(at)
      at += line.length + 1
    }
    const lineOf = (offset: number) => {
      let lo = 0
      let hi = starts.length - 1
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1
        if ((starts[mid] as number) <= offset) lo = mid
        else hi = mid - 1
      }
      return lo
    }
    regex.lastIndex = 0
    for (let m = regex.exec(text); m !== null; m = regex.exec(text)) {
      const first = lineOf(m.index)
      const end = m.index + Math.max(0, m[0].length - 1)
      const last = lineOf(m[0].endsWith("\n") && m[0].length > 0 ? end : m.index + m[0].length)
      for (let l = first; l <= Math.max(first, last); l++) hit.add(l)
      if (m[0].length === 0) regex.lastIndex++
    }
  } else {
    lines.forEach((line, i) => {
      regex.lastIndex = 0
      if (regex.test(line)) hit.add(i)
    })
  }
  if (hit.size === 0) return []
  const shown = new Set<number>()
  for (const i of hit) for (let k = Math.max(0, i - context); k <= Math.min(lines.length - 1, i + context); k++) shown.add(k)
  return [...shown].sort((a, b) => a - b).map((i) => [i + 1, lines[i] as string] as const)
}

/** Most files fit the first range read; larger ones get the rest in a second read. */
const FIRST_READ_BYTES = 64 * 1024

const readWhole = (env: TerminalEnvironment, path: string) =>
  Effect.flatMap(env.readFile(path, { offset: 0, length: FIRST_READ_BYTES }), (head) =>
    head.length < FIRST_READ_BYTES
      ? Effect.succeed(head)
      : Effect.map(env.readFile(path, { offset: FIRST_READ_BYTES }), (rest) => Buffer.concat([head, rest])))

/** Files: newest first by whole seconds (what `stat %Y` gives ripgrep's pipeline), then by path. */
const byRecency = (a: readonly [number, string], b: readonly [number, string]) => b[0] - a[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0)

export const builtinSearch = (env: TerminalEnvironment, request: SearchRequest, rootAbsolute: string): Effect.Effect<SearchAnswer> =>
  Effect.gen(function*() {
    const rootStat = yield* Effect.either(env.stat(rootAbsolute))
    if (rootStat._tag === "Left") return { _tag: "Failed", error: `Path not found: ${request.root}` } as const
    const rootIsFile = rootStat.right.type === "file"
    const globs = request.fileGlob === undefined ? [] : [request.fileGlob]
    const overrides = new Overrides(request.target === "files" ? [request.pattern] : globs)
    const pathOf = (relative: string) => (rootIsFile ? request.root : underRoot(request.root, relative))
    const forEachFile = (visit: (absolute: string, shown: string) => Effect.Effect<boolean>) =>
      rootIsFile
        ? Effect.asVoid(visit(rootAbsolute, request.root))
        : walkFiles(env, rootAbsolute, overrides, (absolute, relative) => visit(absolute, pathOf(relative)))

    if (request.target === "files") {
      const found: Array<readonly [number, string]> = []
      yield* forEachFile((absolute, shown) =>
        Effect.map(Effect.either(env.stat(absolute)), (s) => {
          if (s._tag === "Right") found.push([Math.floor(s.right.mtimeMs / 1000), shown])
          return true
        })
      )
      return { _tag: "Files", files: found.sort(byRecency).slice(0, request.fetch).map(([, path]) => path) } as const
    }

    const multiline = wantsMultiline(request.pattern)
    const regex = compilePattern(request.pattern, multiline)
    if (typeof regex === "string") return { _tag: "Failed", error: `Search failed: ${regex}` } as const
    const probe = new RegExp(regex.source, regex.flags.replace("g", ""))
    const matches: Array<MatchEntry> = []
    const files: Array<string> = []
    const counts: Array<readonly [string, number]> = []
    yield* forEachFile((absolute, shown) =>
      Effect.gen(function*() {
        const data = yield* Effect.either(readWhole(env, absolute))
        if (data._tag === "Left") return true
        const bytes = data.right
        if (bytes.indexOf(0) >= 0) return true
        const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8")
        if (!probe.test(text)) return true
        const lines = matchLines(text, regex, multiline, request.outputMode === "content" ? request.context : 0)
        if (lines.length === 0) return true
        if (request.outputMode === "files_only") files.push(shown)
        else if (request.outputMode === "count") counts.push([shown, lines.length])
        else for (const [line, content] of lines) matches.push({ path: shown, line, content: content.slice(0, MATCH_CONTENT_CHARS) })
        const have = request.outputMode === "content" ? matches.length : request.outputMode === "files_only" ? files.length : counts.length
        return have < request.fetch
      })
    )
    if (request.outputMode === "files_only") return { _tag: "Files", files } as const
    if (request.outputMode === "count") return { _tag: "Counts", counts } as const
    return { _tag: "Matches", matches: matches.slice(0, request.fetch) } as const
  })
