/**
 * Resolution of each command as the parser completes it, in source order:
 * its words are expanded against the variables the line has set so far (and
 * the task's exports); when that changes what runs, the resolved command is
 * parsed again as more commands so every rule judges it. What stays unknown
 * in command position, and text of unknown origin fed to a shell, are
 * findings of their own. Along the way it notes the local scripts the line
 * runs and the paths it names, for the caller to look at.
 */
import type { CodeLanguage } from "../../../../services/Approval.js"
import type { CmdInfo } from "../analyze.js"
import {
  D,
  COMPUTED_NAME_DESCRIPTION,
  COMPUTED_PIPE_DESCRIPTION,
  INTERPRETER_HEREDOC_DESCRIPTION
} from "../descriptions.js"
import type { ResolvedEnv } from "../detectionEnv.js"
import { prepare } from "../normalize.js"
import type { Cmd, FuncDef, Origin, Part, Word } from "../../shell/ast.js"
import { CALL_PAREN } from "../../shell/ast.js"
import type { ParseCtx } from "../../shell/parser.js"
import { parseInto } from "../../shell/parser.js"
import { filledFrom, isFilled } from "../filledWords.js"
import { basename } from "../../shell/words.js"
import type { Alt, Expansion } from "./expand.js"
import { Expander, altFields, altText } from "./expand.js"
import { SETTERS, applyEffects, arithReads, arithTargets, valueParts } from "./variableEffects.js"
import type { CaseAttribute } from "./variableEffects.js"
import { INTEGER_SHELL_VARIABLES, numericOutput, substitutionBodies } from "./numericValues.js"
import { ARITH_TESTS, arithmeticExpansions, INPUT_SETTERS, oldArithmetic, SHELL_INTEGER_ASSIGNMENT, subscriptsAndOffsets } from "./arithmeticTexts.js"
import { codeArguments, inputCommands } from "../inputCommands.js"
import { gitExecKey } from "../rules/gitExec.js"
import type { Locals } from "./localFiles.js"
import { codeSource, readsStdinCodeToo, shellArgs } from "./codeSources.js"
import { interpreterFamily } from "../execFlags.js"
import { renderCommand } from "./render.js"
import { commandFillsCurrentDirectory, commandWrites, extractionDir } from "../rules/operands.js"
import { computedAtRunTime } from "./runTimeTargets.js"
import { editsInPlace, listsOrdinaryFiles } from "./listedNames.js"
import { DEFAULT_IFS, Scope } from "./variableScope.js"
import type { Values } from "./variableScope.js"
import { hasGlob } from "./computedText.js"
import { type Console, consoleOf, consoleReadsStdin, consoleText, inputConsole, readsCodeOrCommands } from "../consoleCommands.js"
import { exShellText } from "../editorCommands.js"
import { CODE_TEXT_PROGRAMS, codeWordIndexes } from "./codeText.js"

/**
 * Programs whose script files are judged as their own code: awk/sed programs, ex/vim scripts, ed commands, consoles;
 * and files that name more code to read: pytest's config (plugins), a folder whose conftest.py files pytest imports
 * up to the root (`pytest-conftests`), pip's requirement files, a local project pip builds (its folder), the
 * project's metadata (setup.py, pyproject.toml, setup.cfg: local dependencies, an in-tree backend), a packed source;
 * `module-path`: a folder python searches before its library (its library-named modules are read, judge.ts).
 */
export type ScriptReader =
  | "awk" | "sed" | "ex" | "ed" | Console | "pytest-config" | "pytest-conftests"
  | "pip-requirements" | "pip-project" | "pip-metadata" | "pip-packed" | "module-path" | "project-opaque"

export interface ScriptRef {
  readonly path: string
  readonly language: CodeLanguage | "unknown"
  /** Only a candidate (`python -m name`, `npx bin`): judged when it exists, nothing when it does not. */
  readonly optional?: boolean | undefined
  /** A relative path from a directory only known when the command runs (`cd "$(cat f)" && ./x.sh`). */
  readonly unplaced?: boolean | undefined
  /** The command itself writes the file (`cp evil.sh x.sh && bash x.sh`): its text now is not what will run. */
  readonly rewritten?: boolean | undefined
  /** The program file named is standard input (`awk -f -`, `vim -S /dev/stdin`): what it reads is not this file. */
  readonly fromStdin?: boolean | undefined
  /** The file is a program of this reader (`awk -f`, `sed -f`): judged as its code too (`system($0)`, sed's `e`). */
  readonly reader?: ScriptReader | undefined
  /** Where the program reading the file runs, placed like `path`: the local paths a requirements file names count from there. */
  readonly runsIn?: string | undefined
  /** A "project-opaque" file asks only when its text matches this (a regular expression, multi-line). */
  readonly opaqueWhen?: string | undefined
}

export interface ResolveOptions {
  readonly env: ResolvedEnv
  readonly variables: Readonly<Record<string, string>> | undefined
  /** Functions the shell already holds (DetectionEnv.shellFunctions). */
  readonly shellFunctions?: ReadonlySet<string> | undefined
  /** DetectionEnv.shellKeepsVariables. */
  readonly shellKeepsVariables?: boolean | undefined
  /** Where scripts and paths are noted (inspectCommand); undefined for plain detection. */
  readonly locals: Locals | undefined
}

/** A command whose program word is unknown: the hardline rules are retried with any program there. */
export interface Wildcard {
  readonly seq: number
  readonly head: number
}

/** A word of `cmd` is `$"…"` text, which bash looks up in a message catalog. */
const translated = (cmd: Cmd): boolean => {
  const is = (w: Word | null | undefined): boolean => w !== null && w !== undefined && w.parts.some((p) => p.kind === "raw" && p.text.startsWith("$\""))
  return cmd.words.some(is) || cmd.redirs.some((r) => is(r.target))
}

/** shopt options that change what a pathname pattern matches (in `shopt -s NAME`, or a BASHOPTS list). */
const GLOB_SHOPTS = /(?:^|:)(?:dotglob|nocaseglob|extglob|globstar|nullglob|failglob|globasciiranges|globskipdots)(?::|$)/
const GLOB_SHOPT = /^(?:dotglob|nocaseglob|extglob|globstar|nullglob|failglob|globasciiranges|globskipdots)$/

const PRINTERS = new Set(["echo", "printf"])
/** A value that reads as more than words when parsed again as shell. */
const SHELL_TEXT = /[$`;&|<>()\n]/
/** Programs that only transform their standard input (the ones the expander can run). */
const FILTERS = new Set(["base64", "xxd", "rev", "tr", "cat"])
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=/
const ENV_LIKE = new Set(["env", "sudo", "doas", "nohup", "nice", "timeout", "exec", "command"])
const PRIMARY = new Set<Origin>(["top", "subst", "heredoc"])
/** Programs whose arguments alone can make them destroy data (`rm $F`, with F='-rf /' kept in the shell). */
const DIR_CHANGERS: ReadonlySet<string> = new Set(["cd", "pushd", "popd"])
const DELETERS = new Set(["rm", "rmdir", "unlink", "shred", "truncate", "mv", "dd", "chmod", "chown", "chgrp", "find", "rsync", "kill", "pkill", "killall", "git", "tar", "xargs"])
/** `$@`, `$*`, `$1`, `${@:2}`, `${a[@]}`, `${a[0]}`, `${!a[@]}`: values the expander does not follow. */
const UNTRACKED_PARAM = /^(?:[@*\d#]|!?[A-Za-z_][A-Za-z0-9_]*\[)/
const UNTRACKED_ARRAY = /^!?[A-Za-z_][A-Za-z0-9_]*\[/
const untrackedParts = (parts: ReadonlyArray<Part>, positional: boolean): boolean =>
  parts.some((p) =>
    p.kind === "doubleQuoted" ? untrackedParts(p.parts, positional) :
    p.kind === "variable" ? positional && /^\$[@*\d]/.test(p.text) :
    p.kind === "bracedParam" && (positional ? UNTRACKED_PARAM : UNTRACKED_ARRAY).test(p.text)
  )

/** Re-rendering stops this deep (each round resolves something, so real input never gets near). */
const MAX_RENDER_DEPTH = 8
/** Calls of a line's own functions read again with their arguments, and the `shift`s followed per call. */
const MAX_INLINED_CALLS = 256
const MAX_SHIFTS = 4

/** `$1`…`$9`, `$@`, `$*`, braced or not, with any modifier (`${1:-x}`), optionally double-quoted whole. */
const POSITIONAL_REF = /"\$(?:\{([1-9@*])[^}]*\}|([1-9@*]))"|\$(?:\{([1-9@*])[^}]*\}|([1-9@*]))/g
const POSITIONAL = /\$\{?[1-9@*]/

/** A function body with a call's arguments (as written) where it reads its positional parameters. */
const withArguments = (body: string, args: ReadonlyArray<string>): string =>
  body.replace(POSITIONAL_REF, (_m, a?: string, b?: string, c?: string, d?: string) => {
    const key = a ?? b ?? c ?? d ?? ""
    return key === "@" || key === "*" ? args.join(" ") : (args[Number(key) - 1] ?? "")
  })

const needsExpansion = (w: Word): boolean =>
  w.expands || (w.raw.includes("{") && (w.raw.includes(",") || w.raw.includes(".."))) || w.raw.includes("$'")

/** Stdin, a redirect or a process substitution could hand the program code to run. */
const mayFeedCode = (cmd: Cmd): boolean =>
  cmd.pipePrev !== null || cmd.redirs.length > 0 || cmd.words.some((w) => w.raw.startsWith("<("))

/** Assignments, a builtin that sets variables, a function call, `$(( ))`: the scope may change. */
const mayChangeVariables = (cmd: Cmd, head: number, program: string, ctx: ParseCtx): boolean =>
  head !== 0 ||
  SETTERS.has(program) ||
  ctx.funcs.some((f) => f.name === program) ||
  cmd.words.some((w) => w.raw.includes("$(("))

const globbed = (w: Word | undefined): boolean => w !== undefined && w.parts.some((p) => p.kind === "literal" && hasGlob(p.text))

/**
 * `~-` (OLDPWD), `~N`, `~+N`, `~-N` (the directory stack): a folder an earlier command left, known only when the
 * command runs. (`~+` is where the command stands, unless the line sets PWD.)
 */
const DIR_STACK_TILDE = /^~(?:-|[+-]?\d+)(?:\/|$)/
/**
 * A path through an open descriptor (`/dev/fd/N/…`, `/proc/<pid>/fd/N…`): what it names was opened earlier (`exec
 * 3<.git/hooks`, in this call or one before), so where it leads is only known when it runs. Standard input, output
 * and error of the command itself are what they say.
 */
const throughDescriptor = (text: string): boolean => {
  const m = /^\/+(?:dev\/+fd|proc\/+([^/]+)(?:\/+task\/+[^/]+)?\/+fd)\/+([^/]*)(\/.*)?$/.exec(text)
  if (m === null) return false
  const own = m[1] === undefined || m[1] === "self" || m[1] === "thread-self"
  return !(own && /^[012]$/.test(m[2] ?? "") && (m[3] === undefined || /^\/*$/.test(m[3])))
}

const tildeDirectory = (w: Word | undefined): boolean => w !== undefined && !w.quoted && DIR_STACK_TILDE.test(w.value)

/** The program word cannot be known before it runs: an expansion left unknown, or a pathname pattern. */
const unknownProgram = (alts: ReadonlyArray<Alt>): boolean =>
  alts.length !== 1 || (alts[0] ?? []).some((s) => s.kind === "uncomputed" || ((s.kind === "literal" || s.kind === "expanded") && hasGlob(s.text)))

/** Programs some of whose arguments are code (inputCommands.ts `codeArguments`). */
const CODE_TAKERS = new Set(["sed", "gsed", "awk", "gawk", "mawk", "nawk", "git"])

export class Resolver {
  readonly computed: string[] = []
  readonly wildcards: Wildcard[] = []
  readonly missing = new Set<string>()
  // Built on first use: most lines never need them.
  private scopeValue: Scope | null = null
  private setByValue: Map<number, string[]> | null = null
  private shellOwned: Map<Cmd, boolean> | null = null
  private deferred: Array<() => void> | null = null
  private inlined = 0
  /** Names this line declared integer (`declare -i n`): a value assigned to one later is evaluated as arithmetic. */
  private integers: Set<string> | null = null
  /** This line set the positional parameters to something other than numbers (`set -- "$(cat f)"`). */
  private positionalText = false
  /** A `cd` earlier in the line went where only the running shell knows (`cd "$(cat f)"`). */
  private cwdAtRunTime = false
  /** Names this line declared associative (`declare -A m`). */
  private associatives: Set<string> | null = null

  constructor(
    private readonly ctx: ParseCtx,
    private readonly info: ReadonlyArray<CmdInfo | undefined>,
    private readonly opts: ResolveOptions,
    /** The line may hold expansions or braces: words are worth expanding and variables worth tracking. */
    private readonly expand: boolean
  ) {}

  private get scope(): Scope {
    return (this.scopeValue ??= new Scope(this.ctx.frames, this.opts.variables, this.opts.shellKeepsVariables === true))
  }

  /** Names this line made read-only (`variableEffects.ts`). */
  private readonly readOnly = new Set<string>()

  /** Names given a case attribute by this line (`declare -l x`). */
  private readonly cased = new Map<string, CaseAttribute>()

  private get setBy(): Map<number, string[]> {
    return (this.setByValue ??= new Map())
  }

  private expander(cmd: Cmd): Expander {
    return new Expander({
      scope: this.scope,
      frame: cmd.frame,
      missing: this.missing,
      assign: (name, values) => this.scope.assign(cmd.frame, name, values, cmd, false)
    })
  }

  private ifs(frame: number, choices: ReadonlyArray<ReadonlyArray<Alt>>): string {
    // Only expanded text is split: the exports are asked for only then.
    if (!choices.some((alts) => alts.some((alt) => alt.some((seg) => seg.kind === "expanded" && seg.text !== "")))) return DEFAULT_IFS
    const found = this.scope.lookup(frame, "IFS")
    if (found.fromOutside) this.missing.add("IFS")
    return found.values?.length === 1 ? (found.values[0] ?? DEFAULT_IFS) : DEFAULT_IFS
  }

  /**
   * `x=v cmd`: the value is in cmd's environment, so a shell it starts (`x=rm
   * bash -c '$x …'`) sees it. Recorded before the command's payloads are read,
   * as a value the variable may have.
   */
  prefix(cmd: Cmd): void {
    if (!this.expand || cmd.cls !== "exec" || cmd.words.length < 2) return
    const first = cmd.words[0]
    if (first === undefined || !ASSIGNMENT.test(first.value) || cmd.words.every((w) => ASSIGNMENT.test(w.value))) return
    const ex = this.expander(cmd)
    for (const w of cmd.words) {
      const m = ASSIGNMENT.exec(w.value)
      if (m === null) {
        if (ENV_LIKE.has(basename(w.value)) || w.value.startsWith("-")) continue
        break
      }
      const name = m[1] ?? ""
      const eq = w.parts[0]?.kind === "literal" && w.parts[0].text.length >= m[0].length
      this.scope.assign(cmd.frame, name, eq ? ex.strings(valueParts(w, m[0].length)) : null, cmd, false)
    }
  }

  /** `(( … ))`: the values it reads are evaluated; the names it assigns become unknown. */
  arith(text: string): void {
    this.arithUse(this.ctx.frame, text, 0)
    for (const n of arithTargets(text)) this.scope.assign(this.ctx.frame, n, null, null, false, true)
  }

  /**
   * An arithmetic expression (`$((…))`, `((…))`, `let`, `[[ x -eq y ]]`): bash evaluates the value of each name it
   * reads as arithmetic too, and an array subscript there is expanded, so a value `a[$(cmd)]` runs cmd. A value
   * holding a command substitution is dangerous; so is one only known when the command runs (a file's text, a
   * command's output) unless it can only be a number (numericValues.ts), and a name a persistent shell may hold
   * from an earlier call.
   */
  private arithUse(frame: number, text: string, depth: number): void {
    // `$(( $(cat f) ))`: the substitution's output is evaluated.
    if (this.evaluatesOutput(text)) return
    // `set -- "$(cat f)"; echo $(( $1 ))`: positional parameters this line set to text.
    if (this.positionalText && /\$(?:[0-9@*]|\{[0-9]+\})/.test(text)) {
      this.computed.push(D.computedArithmetic)
      return
    }
    if (!/[A-Za-z_]/.test(text)) return
    const reads = arithReads(text)
    this.valuesRead(frame, [...reads.names, ...reads.expanded], (v) => {
      if (depth < 4 && /[A-Za-z_]/.test(v)) this.arithUse(frame, v, depth + 1)
    })
  }

  /** A command substitution in text bash evaluates, whose output is not surely a number: pushed, and true. */
  private evaluatesOutput(text: string): boolean {
    if (!(text.includes("$(") || text.includes("`")) || substitutionBodies(text).every(numericOutput)) return false
    this.computed.push(D.computedArithmetic)
    return true
  }

  /**
   * Names whose values bash evaluates (arithmetic, a subscript in a name): one only known when the command runs,
   * or that a persistent shell may hold, or a value holding a command substitution is a finding; each other
   * known value goes to `known`.
   */
  private valuesRead(frame: number, names: ReadonlyArray<string>, known: (value: string) => void): void {
    for (const name of names) {
      const held = this.scope.heldLookups
      const found = this.scope.lookup(frame, name)
      if (found.values === null) {
        if (found.fromOutside) this.missing.add(name)
        else if (this.opts.shellKeepsVariables === true && this.scope.heldLookups > held) this.computed.push(D.heldArithmetic)
        else if (!found.numeric) {
          this.computed.push(D.computedArithmetic)
          return
        }
        continue
      }
      for (const v of found.values) {
        if (v.includes("$(") || v.includes("`")) {
          this.computed.push(D.arithmeticCode)
          return
        }
        known(v)
      }
    }
  }

  /**
   * Arithmetic a command evaluates: `$((…))` / `$[…]` in its words, array subscripts (`${a[X]}`, `a[X]=v`) and
   * substring offsets (`${s:X:Y}`), `let` arguments, values assigned to a variable declared `-i` (in this line),
   * `[[ a -eq b ]]` operands.
   */
  private arithmeticOf(cmd: Cmd, head: number): void {
    for (const w of cmd.words) {
      if (w.raw.includes("$((")) for (const text of arithmeticExpansions(w.parts)) this.arithUse(cmd.frame, text, 0)

      if (w.raw.includes("${") || w.raw.includes("[")) {
        for (const expr of subscriptsAndOffsets(w)) {
          if (expr.reference === true) this.referenceUse(cmd.frame, expr.text)
          else if (!this.associative(expr.array)) this.arithUse(cmd.frame, expr.text, 0)
        }
      }
    }
    // The lexer keeps `$[…]` (the old arithmetic expansion) as plain text, split at blanks (`$[ $(cat f) ]`).
    if (cmd.words.some((w) => w.raw.includes("$["))) for (const expr of oldArithmetic(cmd.words.map((w) => w.raw).join(" "))) this.arithUse(cmd.frame, expr, 0)
    const program = head >= 0 ? cmd.words[head]?.value : undefined
    // Assignments: before the program, alone, or a declarer's arguments.
    const declarer = program === "declare" || program === "typeset" || program === "local" || program === "export" || program === "readonly"
    const integer = declarer && cmd.words.slice(head + 1).some((w) => /^-[A-Za-z]*i/.test(w.value))
    const integerAssigned = integer || (head !== 0 && (this.integers !== null || cmd.words.some((w) => SHELL_INTEGER_ASSIGNMENT.test(w.value))))
    if (integerAssigned) cmd.words.forEach((w, i) => {
      if (!(head < 0 || i < head || (declarer && i > head))) return
      const m = /^([A-Za-z_][A-Za-z0-9_]*)\+?=(.*)$/s.exec(w.value)
      if (m === null) return
      const name = m[1] ?? ""
      if (integer) (this.integers ??= new Set()).add(name)
      if (integer || this.integer(name)) this.arithUse(cmd.frame, m[2] ?? "", 0)
    })
    if (integer) for (const w of cmd.words.slice(head + 1)) if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(w.value)) (this.integers ??= new Set()).add(w.value)
    // `declare -A m`: m's keys are strings, not arithmetic.
    if (declarer && cmd.words.slice(head + 1).some((w) => /^-[A-Za-z]*A/.test(w.value))) {
      for (const w of cmd.words.slice(head + 1)) {
        const name = /^([A-Za-z_][A-Za-z0-9_]*)(?:=|$)/.exec(w.value)?.[1]
        if (name !== undefined) (this.associatives ??= new Set()).add(name)
      }
    }
    if (program === "let") for (const w of cmd.words.slice(head + 1)) this.arithUse(cmd.frame, w.value, 0)
    // `set -- …` / `set a b`: the positional parameters hold these words (numbers stay harmless in arithmetic).
    if (program === "set") {
      const args = cmd.words.slice(head + 1)
      const from = args.findIndex((w) => w.value === "--" || !/^[-+]/.test(w.value))
      const values = from < 0 ? [] : args.slice(args[from]?.value === "--" ? from + 1 : from)
      if (values.some((w) => !/^[-+]?[0-9]*$/.test(w.value))) this.positionalText = true
    }
    // `[[ -v NAME ]]`, `test -v NAME`: a subscript in the name is evaluated.
    if (program === "[[" || program === "test" || program === "[") {
      cmd.words.forEach((w, i) => {
        const next = cmd.words[i + 1]
        if (i > head && w.value === "-v" && next !== undefined) this.referenceUse(cmd.frame, next.value)
      })
    }
    // `unset 'a[X]'`: the subscript is evaluated.
    if (program === "unset") {
      for (const w of cmd.words.slice(head + 1)) if (!w.value.startsWith("-") && !this.associative(/^[A-Za-z_][A-Za-z0-9_]*/.exec(w.value)?.[0])) this.referenceUse(cmd.frame, w.value)
    }
    // The elements of an array literal (`a=([X]=v …)`) come as a command after the one ending `a=`.
    if (cmd.prevOp === CALL_PAREN) this.arrayLiteral(cmd)
    // `read n` into an integer: the input is evaluated as arithmetic.
    if (program !== undefined && INPUT_SETTERS.has(program) && (program !== "printf" || cmd.words.some((w) => w.value.startsWith("-v"))) &&
      cmd.words.some((w, i) => i > head && this.integer(w.value.replace(/^-v/, "")))) {
      this.computed.push(D.computedArithmetic)
    }
    if (program === "[[") {
      cmd.words.forEach((w, i) => {
        if (!ARITH_TESTS.has(w.value)) return
        // Quoted or not: `[[ "$v" -eq 1 ]]` evaluates v's value all the same.
        for (const side of [cmd.words[i - 1], cmd.words[i + 1]]) if (side !== undefined) this.arithUse(cmd.frame, side.value, 0)
      })
    }
  }

  /**
   * A variable named by text at run time (`${!x}`, `[[ -v $x ]]`, `unset "a[$i]"`): bash evaluates a subscript in
   * the name, so a name from a value only known when it runs is judged as arithmetic on that value would be.
   */
  private referenceUse(frame: number, text: string): void {
    const sub = /^[A-Za-z_][A-Za-z0-9_]*\[(.*)\]$/s.exec(text)
    if (sub !== null) return this.arithUse(frame, sub[1] ?? "", 0)
    if (!text.includes("$") && !text.includes("`")) return
    if (this.evaluatesOutput(text)) return
    this.valuesRead(frame, arithReads(text).expanded, (v) => {
      const named = /^[A-Za-z_][A-Za-z0-9_]*\[(.*)\]$/s.exec(v)
      if (named !== null) this.arithUse(frame, named[1] ?? "", 1)
    })
  }

  /** `a=([X]=v …)`, `declare -a a=(…)`: each `[X]` is evaluated, unless `a` is associative. */
  private arrayLiteral(cmd: Cmd): void {
    const owner = this.ctx.cmds[cmd.seq - 1]
    const last = owner?.words[owner.words.length - 1]
    const name = last === undefined || owner?.parenNext !== true ? undefined : /^([A-Za-z_][A-Za-z0-9_]*)\+?=$/.exec(last.value)?.[1]
    if (name === undefined || this.associative(name) || owner?.words.some((w) => /^-[A-Za-z]*A/.test(w.value)) === true) return
    for (const w of cmd.words) {
      const m = /^\[([^\]]*)\]\+?=/.exec(w.value)
      if (m !== null) this.arithUse(cmd.frame, m[1] ?? "", 0)
    }
  }

  /**
   * A sed script, an awk program or a git `-c` setting built when the command runs (`sed "$(cat f)"`, `awk "$p"`):
   * unknown code, which may hold sed's `e`, awk's `system()` or a program git runs. Known values are judged as
   * if written out.
   */
  private codeOf(cmd: Cmd, head: number): void {
    const program = head >= 0 ? cmd.words[head] : undefined
    if (program === undefined || !CODE_TAKERS.has(basename(program.value).toLowerCase())) return
    const name = basename(program.value).toLowerCase()
    const args = cmd.words.slice(head + 1)
    const values = args.map((w) => w.value)
    const finding = name === "git" ? D.gitExec : D.inputCommands
    for (const i of codeArguments(name, values)) {
      const word = args[i]
      if (word === undefined || !word.expands) continue
      const computed = this.expander(cmd).strings(word.parts)
      const runs = computed === null || computed.some((v) => {
        if (name !== "git") return inputCommands(name, values.map((x, k) => (k === i ? v : x))).runs
        const eq = v.indexOf("=")
        return gitExecKey(eq < 0 ? v : v.slice(0, eq), eq < 0 ? null : v.slice(eq + 1))
      })
      if (runs) {
        this.computed.push(finding)
        return
      }
    }
  }

  /** CDPATH may be non-empty here. Before the exports are given it counts as unset, and they are asked for. */
  private cdPathSet(frame: number): boolean {
    // A line without expansions does not track its assignments: one naming CDPATH may set it (`CDPATH=/x; cd name`).
    if (!this.expand && this.ctx.cmds.some((c) => c.words.some((w) => /(?:^|[^$\w{])CDPATH\b(?!=$)/.test(w.value)))) return true
    const found = this.scope.lookup(frame, "CDPATH")
    if (found.values !== null) return found.values.some((v) => v !== "")
    if (found.fromOutside) this.missing.add("CDPATH")
    return !found.fromOutside
  }

  /**
   * TEXTDOMAINDIR may name a folder of message catalogs here (the line names it, or the exports set it, or a kept
   * shell may hold it): a `$"…"` is then replaced by a planted catalog's text, which bash expands — `$(…)` there runs.
   */
  private catalogDirSet(frame: number): boolean {
    if (this.ctx.cmds.some((c) => c.words.some((w) => /(?:^|[^$\w{])TEXTDOMAINDIR\b/.test(w.value)))) return true
    const found = this.scope.lookup(frame, "TEXTDOMAINDIR")
    if (found.values !== null) return found.values.some((v) => v !== "")
    if (found.fromOutside) this.missing.add("TEXTDOMAINDIR")
    return !found.fromOutside
  }

  /** An associative array this line declared (`declare -A m`): its keys are not evaluated. */
  private associative(name: string | undefined): boolean {
    return name !== undefined && this.associatives?.has(name) === true
  }

  /** The name is an integer variable: declared so in this line, or one bash makes so (`OPTIND`, `RANDOM`…). */
  private integer(name: string): boolean {
    return this.integers?.has(name) === true || INTEGER_SHELL_VARIABLES.includes(name)
  }

  /** An earlier command of the line sets the positional parameters (`set -- a b`, `set a b`, `set -e -- x`). */
  private setsPositional(before: Cmd): boolean {
    return this.ctx.cmds.some((c) => {
      if (c.seq >= before.seq || c.cls !== "exec") return false
      const head = this.info[c.seq]?.head ?? -1
      if (head < 0 || c.words[head]?.value !== "set") return false
      return c.words.slice(head + 1).some((w) => w.value === "--" || !/^[-+]/.test(w.value))
    })
  }

  /** Work that had to wait for the whole line (a heredoc read after the command that pipes it). */
  finish(): void {
    const deferred = this.deferred
    if (deferred !== null) for (let i = 0; i < deferred.length; i++) deferred[i]?.()
  }

  private programName(cmd: Cmd, head: number, words: ReadonlyArray<Expansion | null> | null): string {
    const w = cmd.words[head]
    if (w === undefined) return ""
    const e = words?.[head]
    if (e === undefined || e === null) return w.expands ? "" : basename(w.value).toLowerCase()
    const only = e.alts.length === 1 ? e.alts[0] : undefined
    const fields = only === undefined ? null : altFields(only)
    return fields === null ? "" : basename(fields[0] ?? "").toLowerCase()
  }

  /** Heredoc bodies are shell only when a shell reads them. */
  private heredocIsShell(cmd: Cmd): boolean {
    const owner = cmd.heredocOf
    if (owner === null) return false
    this.shellOwned ??= new Map()
    const known = this.shellOwned.get(owner)
    if (known !== undefined) return known
    const head = this.info[owner.seq]?.head ?? -1
    const name = head >= 0 ? basename(owner.words[head]?.value ?? "").toLowerCase() : ""
    const args = owner.words.slice(head + 1).map((w) => w.value)
    const src = head >= 0 ? codeSource(name, args) : null
    const shell = src !== null && src.from === "stdin" && src.language === "shell"
    this.shellOwned.set(owner, shell)
    return shell
  }

  command(cmd: Cmd): void {
    if (cmd.cls !== "exec" || cmd.funcDef) return
    const head = this.info[cmd.seq]?.head ?? -1
    this.arithmeticOf(cmd, head)
    this.codeOf(cmd, head)
    const collect = this.opts.locals !== undefined
    const headWord = head >= 0 ? cmd.words[head] : undefined
    if (headWord !== undefined && head + 1 < cmd.words.length) this.inlineCall(cmd, head, headWord)
    // echo/printf arguments are only printed: unless scripts and paths are wanted, they need no expanding.
    const printer = headWord !== undefined && !headWord.expands && PRINTERS.has(headWord.value)
    const expandUpTo = printer && !collect ? head + 1 : cmd.words.length
    let expand = false
    if (this.expand) {
      for (let i = 0; i < expandUpTo && !expand; i++) expand = needsExpansion(cmd.words[i] ?? EMPTY)
      for (const r of cmd.redirs) if (r.target !== null && needsExpansion(r.target)) expand = true
    }
    const fed = mayFeedCode(cmd) && (headWord === undefined || headWord.expands || readsCodeOrCommands(basename(headWord.value).toLowerCase()))
    const effects = this.expand && mayChangeVariables(cmd, head, headWord?.value ?? "", this.ctx)
    // The common case: nothing to expand, nothing fed on stdin, nothing to note, no variable set.
    // `cd -`, `popd`: where later relative writes land may be a folder an earlier command left.
    const changesDir = headWord !== undefined && !headWord.expands && DIR_CHANGERS.has(headWord.value)
    if (this.expand && translated(cmd) && (cmd.origin !== "heredoc" || this.heredocIsShell(cmd)) && this.catalogDirSet(cmd.frame)) this.computed.push(D.computedCode)
    if (!expand && !collect && !fed && !effects && !this.cwdAtRunTime && !changesDir) {
      if (head >= 0 && cmd.prevOp !== CALL_PAREN && cmd.origin !== "heredoc" && (globbed(headWord) || tildeDirectory(headWord))) this.unknownProgram(cmd, head)
      return
    }
    if (cmd.origin === "heredoc" && !this.heredocIsShell(cmd)) return
    const ex = this.expander(cmd)
    const held = this.opts.shellKeepsVariables === true ? this.scope.heldLookups : 0
    const words = expand ? cmd.words.map((w, i) => (i < expandUpTo && needsExpansion(w) ? ex.word(w) : null)) : null
    const targets = expand ? cmd.redirs.map((r) => (r.target !== null && needsExpansion(r.target) ? ex.word(r.target) : null)) : null
    const name = head >= 0 ? this.programName(cmd, head, words) : ""
    // A deleting program whose arguments come from a variable the shell kept from an earlier call, unseen here.
    if (this.opts.shellKeepsVariables === true && this.scope.heldLookups > held && DELETERS.has(name)) this.computed.push(D.heldArguments)
    // …or from an array, or positional parameters the line set (`set -- -rf; rm "$@" d`): neither is followed. (In a
    // function's body "$@" is the call's arguments, which the call is judged with.)
    if (DELETERS.has(name) && cmd.words.some((w, i) => i > head && w.expands && untrackedParts(w.parts, this.setsPositional(cmd)))) {
      this.computed.push(D.untrackedArguments)
    }

    let rendered = false
    if (words !== null && targets !== null) rendered = this.rerender(cmd, head, name, words, targets)
    if (!rendered && head >= 0 && cmd.prevOp !== CALL_PAREN) {
      const alts = words?.[head]?.alts
      if ((alts === undefined ? globbed(headWord) : unknownProgram(alts)) || tildeDirectory(headWord)) this.unknownProgram(cmd, head)
    }
    if (head >= 0 && !rendered && (collect || fed)) this.codeFed(cmd, head, name, ex)
    if (head >= 0 && CODE_TEXT_PROGRAMS.has(name)) this.codeText(cmd, head, name, ex)
    if (!rendered && (expand || collect || this.cwdAtRunTime || changesDir)) this.computedWrite(cmd, head, name, ex)
    if (!rendered && this.opts.locals !== undefined) {
      if (name === "cd" || name === "pushd") this.opts.locals.cdPath = this.cdPathSet(cmd.frame)
      this.opts.locals.command(cmd, head, name, (i) => this.wordText(cmd.words[i], words?.[i]), (k) => this.wordText(cmd.redirs[k]?.target, targets?.[k]))
    }
    if (effects) {
      applyEffects(
        { scope: this.scope, frame: cmd.frame, expander: ex, setBy: this.setBy, functionBody: (n) => this.functionBody(n), readOnly: this.readOnly, cased: this.cased },
        cmd,
        head,
        name,
        true
      )
    }
  }

  /**
   * A write whose target only the running shell completes (a file's text, a program's output, a held name), an
   * archive extracted into such a folder, or a relative write after a `cd` to one.
   */
  private computedWrite(cmd: Cmd, head: number, name: string, ex: Expander): void {
    const args = head < 0 ? [] : cmd.words.slice(head + 1)
    if (name === "cd" || name === "pushd" || name === "popd") {
      const dashes = args.findIndex((w) => w.value === "--")
      const target = (dashes >= 0 && args.slice(0, dashes).every((w) => /^-[LPe@]+$/.test(w.value)) ? args.slice(dashes + 1) : args)
        .find((w) => !/^-[LPe@]*$/.test(w.value) || w.value === "-")
      // A bare `cd` goes home; `cd -`, `cd ~-`, `popd`, a bare `pushd` or `pushd +N` go to a folder an earlier
      // command left (OLDPWD, the directory stack).
      const left = target === undefined ? name !== "cd" : name === "popd" || /^(?:-|~-(?:\/.*)?|[+-]\d+)$/.test(target.value)
      if (left || (target !== undefined && target.expands && this.runTimeWord(cmd, target, ex))) this.cwdAtRunTime = true
      else if (target !== undefined && this.throughCdPath(cmd, target, ex)) this.cwdAtRunTime = true
      return
    }
    const written = commandWrites(cmd, head, name)
    const into = extractionDir(name, args)
    const atRunTime =
      (this.cwdAtRunTime && (written.some((t) => !/^[/~$]/.test(t)) || commandFillsCurrentDirectory(cmd, head, name))) ||
      (into !== undefined && into.expands && this.runTimeWord(cmd, into, ex)) ||
      written.some((text) => this.writtenAtRunTime(cmd, name, args, text, ex))
    if (atRunTime) this.computed.push(D.computedWriteTarget)
  }

  /**
   * `cd NAME` / `pushd NAME` with CDPATH set (in the line or the exports): bash looks NAME up in CDPATH's folders
   * first, so where relative writes then land is only known when it runs. A name starting `/`, `./` or `../` (or
   * `.`, `..`, `~`) is not looked up.
   */
  private throughCdPath(cmd: Cmd, target: Word, ex: Expander): boolean {
    const text = target.expands ? ex.fields(target)?.[0] : target.value
    if (text === undefined || text === "" || /^(?:\/|~|\.\.?(?:\/|$))/.test(text)) return false
    return this.cdPathSet(cmd.frame)
  }

  /** The word a written path comes from holds a part only the running shell knows. */
  private writtenAtRunTime(cmd: Cmd, name: string, args: ReadonlyArray<Word>, text: string, ex: Expander): boolean {
    if (DIR_STACK_TILDE.test(text) || (text.startsWith("~+") && this.setsPwd()) || throughDescriptor(text)) return true
    // A pattern matched under glob options the judge's expansion does not apply (GLOBIGNORE turns on dotglob).
    if (hasGlob(text) && this.globsChanged()) return true
    if (!text.includes("$") && !text.includes("`")) return false
    const word = cmd.redirs.find((r) => r.target?.value.includes(text) === true)?.target ?? args.find((w) => w.value.includes(text))
    if (word === undefined || word === null || !word.expands) return false
    // Names a search fills in: an in-place edit of what it can list (`find . -name '*.py' -exec sed -i …`).
    if (isFilled(word)) {
      const lister = filledFrom(word)
      if (lister !== null && listsOrdinaryFiles(lister) && editsInPlace(name, args.map((w) => w.value))) return false
    }
    return this.runTimeWord(cmd, word, ex)
  }

  /** The line (or the task's exports) sets what pathname patterns match: GLOBIGNORE, or a glob shopt option. */
  private globsChanged(): boolean {
    const vars = this.opts.variables
    // The exports may set them (`export GLOBIGNORE=x` in an earlier call): asked for when not given.
    if (vars === undefined) this.missing.add("GLOBIGNORE")
    else if (Object.hasOwn(vars, "GLOBIGNORE") || GLOB_SHOPTS.test(vars["BASHOPTS"] ?? "")) return true
    return this.ctx.cmds.some((c) => c.words.some((w, i) =>
      /(?:^|[^$\w{])GLOBIGNORE\b/.test(w.value) ||
      (c.words[0]?.value === "shopt" && i > 0 && GLOB_SHOPT.test(w.value))
    ))
  }

  /** The line assigns PWD, which `~+` expands to (`PWD=x/.git/hooks; cp f ~+/pre-commit`). */
  private setsPwd(): boolean {
    return this.ctx.cmds.some((c) => c.words.some((w) => /^PWD\+?=/.test(w.value) || w.value === "PWD"))
  }

  /** Some part of the word is only known when the command runs (see runTimeTargets.ts). */
  private runTimeWord(cmd: Cmd, word: Word, ex: Expander): boolean {
    if (isFilled(word)) return true
    return computedAtRunTime(word.parts, {
      settled: (n) => {
        const found = this.scope.lookup(cmd.frame, n)
        return found.values !== null || found.numeric || found.fromOutside
      },
      computes: (source) => numericOutput(source) || ex.substitution(source, 0) !== null,
      positionalText: this.positionalText
    })
  }

  /**
   * Words a shell reads again as commands once this line has expanded them (`codeText.ts`): a value only known when
   * it runs is code nobody has seen; a known one is read as the commands it spells (`x='$(rm -rf /)'; eval echo $x`).
   */
  private codeText(cmd: Cmd, head: number, name: string, ex: Expander): void {
    const args = cmd.words.slice(head + 1)
    for (const i of codeWordIndexes(name, args.map((w) => w.value))) {
      const w = args[i]
      if (w === undefined || !w.expands) continue
      const values = ex.strings(w.parts)
      if (values === null) {
        this.computed.push(D.computedCode)
        return
      }
      for (const v of values) if (SHELL_TEXT.test(v)) parseInto(this.ctx, v, "exec", "eval", cmd.depth + 1, true)
    }
  }

  private unknownProgram(cmd: Cmd, head: number): void {
    if (this.isFunction(cmd.words[head]?.value ?? "")) return
    this.computed.push(COMPUTED_NAME_DESCRIPTION)
    this.wildcards.push({ seq: cmd.seq, head })
    // It may be a shell (`$0 -c '…'`): its -c string is read as commands too.
    for (let i = head + 1; i < cmd.words.length - 1; i++) {
      const v = cmd.words[i]?.value ?? ""
      if (!v.startsWith("-")) break
      if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(v)) {
        parseInto(this.ctx, cmd.words[i + 1]?.value ?? "", "exec", "payload", cmd.depth + 1, true)
        break
      }
    }
  }

  /**
   * A call of a function the line defined, with arguments its body reads
   * (`f() { command rm "$@"; }; f -rf /`): the body is read again with the
   * arguments in place of `$1`…`$9`, `$@` and `$*` (once per `shift` it may
   * have done), so the rules judge what the call runs. Too many such calls to
   * follow is a finding of its own, never a silent pass.
   */
  private inlineCall(cmd: Cmd, head: number, word: Word): void {
    if (word.expands || cmd.depth >= MAX_RENDER_DEPTH) return
    const fn = this.functionBody(word.value)
    if (fn === undefined || !POSITIONAL.test(fn.body)) return
    const args = cmd.words.slice(head + 1).map((w) => w.raw)
    const shifts = /\bshift\b/.test(fn.body) ? Math.min(args.length, MAX_SHIFTS) : 0
    const bodies: string[] = []
    for (let k = 0; k <= shifts; k++) bodies.push(withArguments(fn.body, args.slice(k)))
    const text = bodies.join("\n")
    if (++this.inlined > MAX_INLINED_CALLS || this.ctx.work + text.length * 4 > this.ctx.budget) {
      this.computed.push(COMPUTED_NAME_DESCRIPTION)
      return
    }
    parseInto(this.ctx, prepare(text, this.opts.env), "exec", PRIMARY.has(cmd.origin) ? "top" : "payload", cmd.depth + 1, true)
  }

  private isFunction(name: string): boolean {
    return this.ctx.funcs.some((f) => f.name === name && f.cls === "exec")
  }

  private functionBody(name: string): FuncDef | undefined {
    for (let i = this.ctx.funcs.length - 1; i >= 0; i--) {
      const f = this.ctx.funcs[i]
      if (f !== undefined && f.name === name && f.cls === "exec") return f
    }
    return undefined
  }

  private wordText(w: Word | null | undefined, e: Expansion | null | undefined): { text: string; known: boolean } {
    const word = w ?? EMPTY
    if (e === null || e === undefined) return { text: word.expands ? word.raw : word.value, known: !word.expands }
    const t = e.alts.length === 1 && e.alts[0] !== undefined ? altText(e.alts[0]) : null
    return t === null ? { text: word.raw, known: false } : { text: t, known: true }
  }

  /** Parse the resolved command as more commands when resolution changed it. True when it did. */
  private rerender(
    cmd: Cmd,
    head: number,
    name: string,
    words: ReadonlyArray<Expansion | null>,
    targets: ReadonlyArray<Expansion | null>
  ): boolean {
    // echo/printf arguments are only printed: resolving them would turn prose into commands.
    const printer = PRINTERS.has(name)
    const changedWord = words.some((w, i) => w !== null && w.changed && (!printer || i <= head))
    const changedTarget = targets.some((t) => t !== null && t.changed)
    if (!(changedWord || changedTarget) || (head < 0 && !changedTarget)) return false
    if (cmd.depth >= MAX_RENDER_DEPTH) return false
    const asWritten = (w: Word | null | undefined): ReadonlyArray<Alt> => [[{ kind: "uncomputed", text: w?.raw ?? "", inDoubleQuotes: false }]]
    const choices = words.map((w, i) => (w === null || (printer && i > head) ? asWritten(cmd.words[i]) : w.alts))
    const targetChoices = targets.map((t, k) => (t === null ? asWritten(cmd.redirs[k]?.target) : t.alts))
    const lines = renderCommand(cmd, choices, targetChoices, this.ifs(cmd.frame, [...choices, ...targetChoices]))
    if (lines === null) return false
    const origin: Origin = PRIMARY.has(cmd.origin) ? "top" : "payload"
    parseInto(this.ctx, prepare(lines.join("\n"), this.opts.env), "exec", origin, cmd.depth + 1, true)
    return true
  }

  // ---- code read from standard input -----------------------------------------

  private codeFed(cmd: Cmd, head: number, name: string, ex: Expander): void {
    if (name === "") return
    // The input xargs appends is what it reads (below), not an argument given here.
    const args = cmd.words.slice(head + 1).filter((w) => !isFilled(w)).map((w) => w.value)
    // sqlite3, gdb, psql, mysql: their standard input is console commands (consoleCommands.ts).
    const console = consoleOf(name)
    if (console !== null) {
      if (consoleReadsStdin(console, args, name)) this.feed(cmd, "shell", ex, inputConsole(console, args, name))
      return
    }
    const src = codeSource(name, args)
    if (src === null) return
    // `python3 -i x.py < f`, `python3 -m pdb x.py < f`: standard input is code too, whatever else runs.
    if (src.from !== "stdin" && readsStdinCodeToo(name, args)) {
      const family = interpreterFamily(name)
      if (family === "python" || family === "node") this.feed(cmd, family, ex)
    }
    if (src.from === "file") {
      const word = cmd.words[head + 1 + args.indexOf(src.path)]
      const procSubst = word?.parts.length === 1 && word.parts[0]?.kind === "raw" && word.parts[0].text.startsWith("<(") ? word.parts[0].text : null
      // `bash <(printf …)`, `source <(…)`: the script is that command's output.
      if (procSubst !== null) this.fed(cmd, src.language, ex.substitution(procSubst.slice(2, procSubst.endsWith(")") ? -1 : undefined), 0))
      else this.opts.locals?.script(cmd, src.path, !(word?.expands ?? false), src.language)
      return
    }
    // xargs/find run the command with words from stdin: `… | xargs sh -c` takes its code from there.
    const xargsCode = cmd.origin === "through" && shellArgs(name, args) !== null && (src.from === "stdin" || /^-\w*c$/.test(args[args.length - 1] ?? ""))
    if (src.from !== "stdin" && !xargsCode) return
    const language: CodeLanguage = src.from === "stdin" ? src.language : "shell"
    this.feed(cmd, language, ex)
  }

  private feed(cmd: Cmd, language: CodeLanguage, ex: Expander, console?: Console): void {
    let stdin: Values | "none" = "none"
    for (const r of cmd.redirs) {
      if (r.op === "<<<" && r.target !== null) stdin = mapText(ex.strings(r.target.parts), (t) => `${t}\n`)
      else if (r.op === "<&" && r.target !== null && r.target.value !== "0" && r.target.value !== "-") {
        // `bash <&3` after `exec 3< x.sh`: another descriptor's file, only known when it runs.
        this.fed(cmd, language, null, console)
        return
      } else if ((r.op === "<" || r.op === "<>") && r.target !== null) {
        this.opts.locals?.script(cmd, r.target.value, !r.target.expands, language, console)
        return
      } else if (r.op === "<<" || r.op === "<<-") return // read as script where it stands
    }
    if (stdin === "none") {
      const prev = cmd.pipePrev
      if (prev === null) return
      if (prev === "group") stdin = null
      else {
        const out = this.output(prev, language)
        if (out === "later") {
          this.deferred ??= []
          this.deferred.push(() => this.fed(cmd, language, this.output(prev, language), console))
          return
        }
        stdin = out
      }
    }
    this.fed(cmd, language, stdin, console)
  }

  private fed(cmd: Cmd, language: CodeLanguage, text: Values | "later", console?: Console): void {
    if (console !== undefined) {
      // A console's commands: only known when it runs, or read here for its escapes.
      const found = text === null || text === "later" ? null : text.map((t) => consoleText(console, t))
      if (found === null || found.some((f) => f.runs)) this.computed.push(D.consoleCommands)
      const origin: Origin = PRIMARY.has(cmd.origin) ? "top" : "payload"
      for (const f of found ?? []) for (const t of exShellText(f)) parseInto(this.ctx, t, "exec", origin, cmd.depth + 1, true)
      return
    }
    if (text === null || text === "later") {
      this.computed.push(COMPUTED_PIPE_DESCRIPTION)
      return
    }
    if (language !== "shell") {
      this.computed.push(INTERPRETER_HEREDOC_DESCRIPTION)
      return
    }
    const origin: Origin = PRIMARY.has(cmd.origin) ? "top" : "payload"
    for (const t of text) parseInto(this.ctx, t, "exec", origin, cmd.depth + 1, true)
  }

  /** What a command prints when that is literal: echo/printf, `cat` of a heredoc. */
  private output(cmd: Cmd, language: CodeLanguage): Values | "later" {
    const head = this.info[cmd.seq]?.head ?? -1
    if (head < 0) return null
    const ex = this.expander(cmd)
    const name = this.programName(cmd, head, cmd.words.some(needsExpansion) ? cmd.words.map((w) => ex.word(w)) : null)
    // A decoding stage fed by a literal one (`echo … | base64 -d | sh`): what reaches the shell is known too.
    const prev = cmd.pipePrev
    if (FILTERS.has(name) && head === 0 && prev !== null && prev !== "group" && !cmd.redirs.some((r) => r.op.startsWith("<"))) {
      const input = this.output(prev, language)
      if (input === null || input === "later") return input
      const out: Array<string> = []
      for (const text of input) {
        const r = ex.filtered(cmd, text)
        if (r === null) return null
        out.push(...r)
      }
      return out
    }
    // The first stage reading a here-string (`xxd -r -p <<< … | sh`): the expander reads the `<<<` itself.
    if (FILTERS.has(name) && head === 0 && prev === null && cmd.redirs.length > 0 && cmd.redirs.every((r) => r.op === "<<<")) {
      return ex.filtered(cmd, "")
    }
    if (name === "cat") {
      const files = cmd.words.slice(head + 1).filter((w) => !w.value.startsWith("-") || w.value === "-")
      for (const f of files) this.opts.locals?.script(cmd, f.value, !f.expands, language)
      const doc = cmd.redirs.find((r) => r.op === "<<" || r.op === "<<-")
      if (files.length > 0 || doc === undefined) return null
      if (doc.body === null) return "later"
      // An unquoted delimiter lets the shell expand the body first.
      return doc.target?.quoted === true || !/[$`\\]/.test(doc.body) ? [doc.body] : null
    }
    if (!PRINTERS.has(name) || cmd.redirs.length > 0) return null
    return ex.output(cmd.words.slice(head))
  }
}

const EMPTY: Word = { raw: "", value: "", parts: [], quoted: false, unterminated: false, expands: false }

const mapText = (v: Values, f: (s: string) => string): Values => (v === null ? null : v.map(f))
