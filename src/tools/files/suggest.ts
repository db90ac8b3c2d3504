/**
 * "Did you mean" for paths that do not exist: names in the same directory
 * that differ only in case, extension or a typo or two.
 */
import { posix } from "node:path"
import { Effect } from "effect"
import type { TerminalEnvironment } from "../../services/TerminalBackend.js"

const stem = (name: string) => {
  const dot = name.lastIndexOf(".")
  return dot > 0 ? name.slice(0, dot) : name
}

/** Levenshtein distance, giving up (returning `limit + 1`) once it exceeds `limit`. */
export const editDistance = (a: string, b: string, limit = 3): number => {
  if (Math.abs(a.length - b.length) > limit) return limit + 1
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    let best = i
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      const value = Math.min((previous[j] as number) + 1, (row[j - 1] as number) + 1, (previous[j - 1] as number) + cost)
      row.push(value)
      best = Math.min(best, value)
    }
    if (best > limit) return limit + 1
    previous = row
  }
  return previous[b.length] as number
}

const score = (wanted: string, candidate: string): number => {
  const w = wanted.toLowerCase()
  const c = candidate.toLowerCase()
  if (w === c) return 100
  if (stem(w) === stem(c)) return 80
  const distance = editDistance(w, c, 2)
  if (distance <= 2) return 60 - distance * 10
  if (w.length >= 3 && (c.includes(w) || w.includes(c))) return 30
  if (w.length >= 3 && c.startsWith(w.slice(0, 3))) return 10
  return 0
}

/**
 * Up to `max` existing paths next to `absolute` whose names resemble its name,
 * joined to `shownDir` (the directory as the model wrote it, as Hermes does:
 * `./x` for a bare name, `sub/x` for `sub/y`); absolute when not given.
 */
export const similarPaths = (env: TerminalEnvironment, absolute: string, shownDir?: string, max = 5): Effect.Effect<ReadonlyArray<string>> => {
  const dir = posix.dirname(absolute)
  const shown = shownDir ?? dir
  const wanted = posix.basename(absolute)
  return env.readDir(dir).pipe(
    Effect.map((entries) =>
      entries
        .map((e) => ({ name: e.name, score: score(wanted, e.name) }))
        .filter((e) => e.score > 0)
        .sort((a, b) => b.score - a.score || a.name.localeCompare(b.name))
        .slice(0, max)
        .map((e) => (shown.endsWith("/") ? `${shown}${e.name}` : `${shown}/${e.name}`))
    ),
    Effect.orElseSucceed(() => [])
  )
}
