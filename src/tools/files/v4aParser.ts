/**
 * The V4A patch format (Codex, Cline): `*** Begin Patch` … `*** End Patch`
 * around operations —
 *
 *   *** Update File: path      followed by hunks: `@@ hint @@`, ` context`, `-old`, `+new`
 *   *** Add File: path         followed by `+` lines (the new file)
 *   *** Delete File: path
 *   *** Move File: from -> to
 *
 * Lenient like Hermes: no space needed after `***`, CRLF tolerated, a missing
 * Begin marker means "from the top", unprefixed lines in a hunk are context.
 */

export type OperationKind = "add" | "update" | "delete" | "move"

export interface HunkLine {
  readonly prefix: " " | "-" | "+"
  readonly text: string
}

export interface Hunk {
  readonly hint: string | undefined
  readonly lines: ReadonlyArray<HunkLine>
}

export interface PatchOperation {
  readonly kind: OperationKind
  readonly path: string
  /** Destination of a move. */
  readonly to?: string | undefined
  readonly hunks: ReadonlyArray<Hunk>
}

const BEGIN = /^\*\*\*\s*Begin\s+Patch\s*$/
const END = /^\*\*\*\s*End\s+Patch\s*$/
const UPDATE = /^\*\*\*\s*Update\s+File:\s*(.+)$/
const ADD = /^\*\*\*\s*Add\s+File:\s*(.+)$/
const DELETE = /^\*\*\*\s*Delete\s+File:\s*(.+)$/
const MOVE = /^\*\*\*\s*Move\s+File:\s*(.+?)\s*->\s*(.+)$/
const END_OF_FILE = /^\*\*\*\s*End\s+of\s+File\s*$/
const MOVE_TO = /^\*\*\*\s*Move\s+to:\s*(.*)$/
const HINT = /^@@\s*(.+?)\s*@@/

/** Every path named in an operation header of the raw text (both ends of a move), before any parsing. */
export const headerPaths = (patch: string): ReadonlyArray<string> => {
  const out: Array<string> = []
  for (const raw of patch.split("\n")) {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw
    const single = UPDATE.exec(line) ?? ADD.exec(line) ?? DELETE.exec(line)
    if (single !== null) out.push((single[1] as string).trim())
    const move = MOVE.exec(line)
    if (move !== null) out.push((move[1] as string).trim(), (move[2] as string).trim())
  }
  return out
}

export type ParseResult =
  | { readonly _tag: "Parsed"; readonly operations: ReadonlyArray<PatchOperation> }
  | { readonly _tag: "Invalid"; readonly error: string }

interface Building {
  kind: OperationKind
  path: string
  to?: string | undefined
  hunks: Array<Hunk>
}

export const parseV4a = (patch: string): ParseResult => {
  const lines = patch.split("\n").map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l))
  let begin = -1
  let end = lines.length
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string
    if (BEGIN.test(line)) begin = i
    else if (END.test(line)) {
      end = i
      break
    }
  }
  const operations: Array<Building> = []
  const errors: Array<string> = []
  let current: Building | undefined
  /** `blankTail`: empty lines at the end of the hunk taken as blank context so far. */
  let hunk: { hint: string | undefined; lines: Array<HunkLine>; blankTail: number } | undefined

  const flushHunk = () => {
    // Blank lines before the next header are separators, not context.
    while (hunk !== undefined && hunk.lines.length > 0 && hunk.lines[hunk.lines.length - 1]?.prefix === " " && hunk.lines[hunk.lines.length - 1]?.text === "" && hunk.blankTail > 0) {
      hunk.lines.pop()
      hunk.blankTail--
    }
    if (current !== undefined && hunk !== undefined && hunk.lines.length > 0) current.hunks.push({ hint: hunk.hint, lines: hunk.lines })
    hunk = undefined
  }
  const flush = () => {
    flushHunk()
    if (current !== undefined) operations.push(current)
    current = undefined
  }

  for (const line of lines.slice(begin + 1, end)) {
    const update = UPDATE.exec(line)
    const add = update === null ? ADD.exec(line) : null
    const del = update === null && add === null ? DELETE.exec(line) : null
    const move = update === null && add === null && del === null ? MOVE.exec(line) : null
    if (update !== null || add !== null) {
      flush()
      const match = (update ?? add) as RegExpExecArray
      current = { kind: update !== null ? "update" : "add", path: (match[1] as string).trim(), hunks: [] }
      if (add !== null) hunk = { hint: undefined, lines: [], blankTail: 0 }
      continue
    }
    if (del !== null || move !== null) {
      flush()
      operations.push(
        del !== null
          ? { kind: "delete", path: (del[1] as string).trim(), hunks: [] }
          : { kind: "move", path: ((move as RegExpExecArray)[1] as string).trim(), to: ((move as RegExpExecArray)[2] as string).trim(), hunks: [] }
      )
      continue
    }
    if (END_OF_FILE.test(line)) continue
    const moveTo = MOVE_TO.exec(line)
    if (moveTo !== null && current !== undefined) {
      const dest = (moveTo[1] as string).trim()
      errors.push(
        `'*** Move to: ${dest}' is not supported; rename with '*** Move File: ${current.path} -> ${dest}' and put any edits in their own '*** Update File:' block`
      )
      continue
    }
    if (line.startsWith("@@")) {
      if (current !== undefined) {
        flushHunk()
        hunk = { hint: HINT.exec(line)?.[1], lines: [], blankTail: 0 }
      }
      continue
    }
    if (current === undefined) continue
    if (line.length === 0) {
      // An empty line inside an update hunk is a blank context line whose space was lost.
      if (current.kind === "update" && hunk !== undefined && hunk.lines.length > 0) {
        hunk.lines.push({ prefix: " ", text: "" })
        hunk.blankTail++
      }
      continue
    }
    hunk ??= { hint: undefined, lines: [], blankTail: 0 }
    hunk.blankTail = 0
    const first = line[0] as string
    if (first === "+" || first === "-" || first === " ") hunk.lines.push({ prefix: first, text: line.slice(1) })
    // "\ No newline at end of file" carries nothing; any other line is context without its space.
    else if (first !== "\\") hunk.lines.push({ prefix: " ", text: line })
  }
  flush()

  for (const op of operations) {
    if (op.path.length === 0) errors.push("Operation with empty file path")
    if (op.kind === "update" && op.hunks.length === 0) errors.push(`UPDATE '${op.path}': no hunks found`)
    if (op.kind === "move" && (op.to === undefined || op.to.length === 0)) errors.push(`MOVE '${op.path}': missing destination path (expected 'src -> dst')`)
  }
  if (errors.length > 0) return { _tag: "Invalid", error: `Parse error: ${errors.join("; ")}` }
  return { _tag: "Parsed", operations }
}

/** The lines a hunk expects to find (context and removed) and what replaces them (context and added). */
export const hunkSides = (hunk: Hunk): { readonly search: ReadonlyArray<string>; readonly replace: ReadonlyArray<string> } => ({
  search: hunk.lines.filter((l) => l.prefix !== "+").map((l) => l.text),
  replace: hunk.lines.filter((l) => l.prefix !== "-").map((l) => l.text)
})
