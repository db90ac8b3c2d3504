/**
 * What a search_files engine is asked and what it answers. Both engines
 * (ripgrep run in the task's environment, and the builtin walker over the
 * environment's file operations) produce the same entries in the same order:
 * files sorted by path as ripgrep's `--sort path` walks them, content matches
 * by file then line, files mode newest first (by whole seconds, then path).
 */

export type OutputMode = "content" | "files_only" | "count"

export interface SearchRequest {
  readonly pattern: string
  readonly target: "content" | "files"
  /** The root as the model gave it (`~` expanded): results are printed under it, as ripgrep prints them. */
  readonly root: string
  readonly fileGlob?: string | undefined
  readonly outputMode: OutputMode
  readonly context: number
  /** Entries wanted: offset + limit + 1, so truncation is known. */
  readonly fetch: number
}

export interface MatchEntry {
  readonly path: string
  readonly line: number
  readonly content: string
}

export type SearchAnswer =
  | { readonly _tag: "Matches"; readonly matches: ReadonlyArray<MatchEntry> }
  | { readonly _tag: "Files"; readonly files: ReadonlyArray<string> }
  | { readonly _tag: "Counts"; readonly counts: ReadonlyArray<readonly [string, number]> }
  | { readonly _tag: "Failed"; readonly error: string }
  /** The engine cannot run here (ripgrep missing): try the other one. */
  | { readonly _tag: "Unavailable" }

/** Match content is cut to this many characters (the rest is rarely useful and costs context). */
export const MATCH_CONTENT_CHARS = 500

/** True when the pattern means to match a newline: a literal one, or `\n` with an odd run of backslashes. */
export const wantsMultiline = (pattern: string): boolean => pattern.includes("\n") || /(?<!\\)(?:\\\\)*\\n/.test(pattern)

/** How ripgrep prints a path found under `root`. */
export const underRoot = (root: string, relative: string): string => (root.endsWith("/") ? `${root}${relative}` : `${root}/${relative}`)
