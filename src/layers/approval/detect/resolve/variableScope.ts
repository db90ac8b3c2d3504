/**
 * What each shell variable may hold at a point of the command line.
 *
 * A variable holds a set of possible values, or is unknown (null). An
 * assignment that surely happens replaces the set; one that may not happen
 * (in a subshell, a loop or `if` body, after `&&`/`||`, in a pipeline or in
 * the background) only adds to it, and unknown absorbs everything. So the
 * sets over-approximate: every value the shell could really use is judged.
 *
 * Each source text (the line, a `bash -c` payload, a backtick body…) is a
 * frame: it sees its parent's variables, and its own assignments stay in it,
 * except `eval`'s, which also reach the parent.
 */
import type { Cmd, Frame } from "../../shell/ast.js"
import { NUMBER, NUMERIC_SHELL_VARIABLES } from "./numericValues.js"

export type Values = ReadonlyArray<string> | null

interface Entry {
  /** Variable name, or "*" for "any variable may have changed". */
  readonly name: string
  readonly values: Values
  readonly cmd: Cmd | null
  /** False: the assignment may or may not happen. */
  readonly sure: boolean
  /** Unknown, but surely a number (an arithmetic result, a count): see numericValues.ts. */
  readonly numeric: boolean
}

/** Names the shell itself sets: never taken from the task's exports, never "unset". */
const SHELL_MANAGED = new Set([
  "_", "PWD", "OLDPWD", "RANDOM", "SRANDOM", "SECONDS", "LINENO", "HOSTNAME", "HOSTTYPE", "OSTYPE", "MACHTYPE",
  "PPID", "UID", "EUID", "GROUPS", "SHLVL", "BASHPID", "BASH", "BASHOPTS", "SHELLOPTS", "REPLY", "OPTARG", "OPTIND",
  "PIPESTATUS", "FUNCNAME", "EPOCHSECONDS", "EPOCHREALTIME", "HISTCMD", "COLUMNS", "LINES", "MAPFILE", "COPROC"
])

/** A persistent shell drops these at each call unless exported (shellFrame.ts): never held from an earlier call. */
const RESET_EACH_CALL = new Set(["CDPATH", "GLOBIGNORE"])

export const DEFAULT_IFS = " \t\n"

export const MAX_VALUES = 8

/** An assignment sticks when nothing can skip it or confine it to a subshell. */
const sticks = (cmd: Cmd): boolean =>
  !cmd.nested &&
  cmd.pipePrev === null &&
  cmd.prevOp !== "&&" &&
  cmd.prevOp !== "||" &&
  cmd.nextOp !== "|" &&
  cmd.nextOp !== "&" &&
  !cmd.bgEnd

const union = (a: Values, b: Values): Values => {
  if (a === null || b === null) return null
  const out = [...a]
  for (const v of b) if (!out.includes(v)) out.push(v)
  return out.length > MAX_VALUES ? null : out
}

export interface Lookup {
  readonly values: Values
  /** Unknown only because neither the line nor the task's exports gave it. */
  readonly fromOutside: boolean
  /** Every value it may hold is a number, known or not (arithmetic may read it without running anything). */
  readonly numeric: boolean
}

const allNumbers = (values: Values): boolean => values !== null && values.every((v) => NUMBER.test(v))

export class Scope {
  private readonly entries = new Map<number, Entry[]>()
  /** Lookups of a name the shell may hold unexported (see `unexportedUnknown`), so far. */
  heldLookups = 0

  constructor(
    private readonly frames: ReadonlyArray<Frame>,
    /** The task's exported variables; undefined when the caller did not give them. */
    private readonly variables: Readonly<Record<string, string>> | undefined,
    /** A persistent shell keeps plain variables too: a name not exported is unknown, not unset. */
    private readonly unexportedUnknown = false
  ) {}

  private base(name: string): Lookup {
    // Before the exports are given IFS reads as the default, from outside: a split that depends on it asks for them.
    if (name === "IFS") return { values: [(this.variables !== undefined && Object.hasOwn(this.variables, "IFS") ? this.variables["IFS"] : undefined) ?? DEFAULT_IFS], fromOutside: this.variables === undefined, numeric: false }
    if (SHELL_MANAGED.has(name) || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      return { values: null, fromOutside: false, numeric: NUMERIC_SHELL_VARIABLES.has(name) }
    }
    if (this.variables === undefined) return { values: null, fromOutside: true, numeric: false }
    // Only the exports' own keys: an exported `__proto__` or `toString` is a variable like any other.
    const v = Object.hasOwn(this.variables, name) ? this.variables[name] : undefined
    if (v === undefined && this.unexportedUnknown && !RESET_EACH_CALL.has(name)) {
      this.heldLookups++
      return { values: null, fromOutside: false, numeric: false }
    }
    // The exports are everything the command starts with: a name not among them is unset.
    const values = [v ?? ""]
    return { values, fromOutside: false, numeric: allNumbers(values) }
  }

  lookup(frame: number, name: string): Lookup {
    const f = this.frames[frame]
    let result = f === undefined || f.parent < 0 ? this.base(name) : this.lookup(f.parent, name)
    for (const e of this.entries.get(frame) ?? []) {
      if (e.name !== name && e.name !== "*") continue
      const sure = e.sure && (e.cmd === null || sticks(e.cmd))
      const values = sure ? e.values : union(result.values, e.values)
      const numeric = (e.values === null ? e.numeric : allNumbers(e.values)) && (sure || result.numeric)
      // Still only the outside's to say when the entry adds known values or a number (a loop's `c=$(wc -l < f)`).
      result = { values, fromOutside: values === null && result.fromOutside && (e.values !== null || e.numeric), numeric }
    }
    return result
  }

  /**
   * `cmd` assigns `name` (null: to something unknown; `numeric`: an unknown number). `sure`: when it runs, it
   * surely assigns.
   */
  assign(frame: number, name: string, values: Values, cmd: Cmd | null, sure = true, numeric = false): void {
    let list = this.entries.get(frame)
    if (list === undefined) this.entries.set(frame, (list = []))
    list.push({ name, values, cmd, sure, numeric })
    // eval runs in the shell that called it: its assignments may change the caller's variables too.
    const f = this.frames[frame]
    if (f !== undefined && f.origin === "eval" && f.parent >= 0) this.assign(f.parent, name, values, null, false, numeric)
  }

  /** Any variable may have changed (source, an unresolved eval…). */
  forgetAll(frame: number, cmd: Cmd | null): void {
    this.assign(frame, "*", null, cmd, false)
  }
}
