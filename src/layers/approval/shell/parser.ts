/**
 * A small recursive-descent POSIX/bash parser for detection: lists, and-or
 * chains, pipelines, subshells, brace groups, function definitions, simple
 * commands (words + redirects), quoting, `$(…)`, backticks, `${…}`, process
 * substitution, heredocs and comments. It never expands anything.
 *
 * It is lenient on purpose: a syntax error must not hide a command, so an
 * unterminated quote runs to end of input, a stray `(` starts a new command
 * (Hermes treats it as a command start too) and a stray `)` is a separator.
 */
import type { Cls, Cmd, Frame, FuncDef, Origin, Redir, Word } from "./ast.js"
import { CALL_PAREN } from "./ast.js"
import { AMP, GT, HASH, LBRACE, LPAR, LT, NL, PIPE, RBRACE, RPAR, SEMI, isBlank, isDigit, isMeta } from "./charCodes.js"
import { ShellLexer } from "./lexer.js"

export interface ParseHooks {
  /** A simple command is final (words and redirects known). */
  readonly complete: (cmd: Cmd, ctx: ParseCtx) => void
  /** Comment text, which detection treats as prose. */
  readonly comment: (text: string, depth: number, ctx: ParseCtx) => void
  /** The body of an arithmetic command `(( … ))`, which may assign variables. */
  readonly arith?: (text: string, ctx: ParseCtx) => void
}

export interface ParseCtx {
  readonly cmds: Cmd[]
  readonly funcs: FuncDef[]
  readonly hooks: ParseHooks
  /** Characters parsed so far across all nested sources, against `budget`. */
  work: number
  readonly budget: number
  /** Set when nesting or total work exceeded the limits: detection fails closed. */
  overflow: boolean
  /** Every source parsed so far (index = Cmd.frame), and the one being parsed now (-1 before the first). */
  readonly frames: Frame[]
  frame: number
  /** While a heredoc body is parsed: the command it belongs to. */
  heredocOwner: Cmd | null
}

export const MAX_DEPTH = 24
/** Nesting of lists inside one source ( `(`, `{`, `$(` ); deeper input fails closed. */
export const MAX_NESTING = 256

export const newParseCtx = (hooks: ParseHooks, budget: number): ParseCtx => ({
  cmds: [],
  funcs: [],
  hooks,
  work: 0,
  budget,
  overflow: false,
  frames: [],
  frame: -1,
  heredocOwner: null
})

/** Words that introduce a command without being one. */
const TRANSITIONS = new Set(["if", "then", "elif", "else", "while", "until", "do", "!", "{"])
/** Words that close a compound command. */
const CLOSERS = new Set(["fi", "done", "esac", "}"])
/** Keywords that open / close a compound command (its body may run zero or many times). */
const OPENERS = new Set(["if", "while", "until", "for", "select", "case"])
const ENDERS = new Set(["fi", "done", "esac"])

type Stop = "" | ")" | "}"

interface PendingHeredoc {
  readonly redir: Redir
  readonly delim: string
  readonly strip: boolean
  readonly cmd: Cmd
}

class Parser extends ShellLexer {
  private lastCmd: Cmd | null = null
  private pendingOp = ""
  private opsSinceCmd = ""
  private heredocs: PendingHeredoc[] = []
  private nesting = 0
  /** Open if/while/for/case… commands. */
  private keywords = 0
  /** What the command being parsed reads from a pipe (see Cmd.pipePrev). */
  private pipeFeed: Cmd | "group" | null = null
  private readonly frameId: number

  constructor(
    private readonly ctx: ParseCtx,
    src: string,
    private cls: Cls,
    private origin: Origin,
    private readonly depth: number
  ) {
    super(src)
    this.frameId = ctx.frame
  }

  protected stopped(): boolean {
    return this.ctx.overflow
  }

  /** Quoted text, comments and heredoc bodies: mostly prose, where quotes are often punctuation. */
  protected prose(): boolean {
    return this.cls === "data" || this.origin === "heredoc"
  }

  protected nestedSource(body: string): void {
    parseInto(this.ctx, body, "exec", "subst", this.depth + 1, false)
  }

  /** Read one word from the start (used to re-lex deobfuscated text). */
  word(): Word {
    return this.readWord()
  }

  program(eofTail: boolean): void {
    this.parseList("")
    const last = this.lastCmd
    if (last === null) return
    const ops = this.opsSinceCmd
    if (eofTail && (ops === "" || ops === "\n")) last.nextOp = "EOF"
    if (eofTail && /^&\n*$/.test(ops)) last.bgEnd = true
  }

  // ---- lists -----------------------------------------------------------------

  private sep(op: string): void {
    const last = this.lastCmd
    if (last !== null && this.opsSinceCmd === "") last.nextOp = op
    if (last !== null && op === ";" && this.opsSinceCmd.endsWith("&")) last.ampSemi = true
    this.opsSinceCmd += op
    this.pendingOp = op
  }

  private parseList(stop: Stop): void {
    if (++this.nesting > MAX_NESTING) {
      this.ctx.overflow = true
      this.nesting--
      return
    }
    this.parseListBody(stop)
    this.nesting--
  }

  private parseListBody(stop: Stop): void {
    const src = this.src
    while (!this.ctx.overflow) {
      this.skipBlanks()
      if (this.pos >= src.length) return
      const c = src.charCodeAt(this.pos)
      const d = src.charCodeAt(this.pos + 1)
      if (c === NL) {
        this.pos++
        this.sep("\n")
        this.readHeredocs()
      } else if (c === SEMI) {
        this.pos++
        while (src.charCodeAt(this.pos) === SEMI || src.charCodeAt(this.pos) === AMP) this.pos++ // ;; ;& ;;&
        this.sep(";")
      } else if (c === AMP && d !== AMP && d !== GT) {
        this.pos++
        this.sep("&")
      } else if (c === RPAR) {
        if (stop === ")") return
        this.pos++
        this.sep(")")
      } else if (stop === "}" && this.atBareWord(RBRACE)) {
        this.pos++
        return
      } else if (c === PIPE || (c === AMP && d === AMP)) {
        // A dangling operator: consume it so the loop always advances.
        const two = d === PIPE || d === AMP
        this.pos += two ? 2 : 1
        this.sep(src.slice(this.pos - (two ? 2 : 1), this.pos))
      } else {
        const before = this.pos
        this.parseAndOr(stop)
        if (this.pos === before) this.pos++ // never stall on something unparseable
      }
    }
  }

  private parseAndOr(stop: Stop): void {
    this.parsePipeline(stop)
    const src = this.src
    while (!this.ctx.overflow) {
      this.skipBlanks()
      const c = src.charCodeAt(this.pos)
      if (c !== src.charCodeAt(this.pos + 1) || (c !== AMP && c !== PIPE)) return
      this.pos += 2
      this.sep(c === AMP ? "&&" : "||")
      this.skipLinebreaks()
      this.parsePipeline(stop)
    }
  }

  private parsePipeline(stop: Stop): void {
    const src = this.src
    this.skipBlanks()
    if (src.charCodeAt(this.pos) === 33 && isMeta(src.charCodeAt(this.pos + 1))) this.pos++ // `!`
    let prev = this.parseCommand(stop)
    while (!this.ctx.overflow) {
      this.skipBlanks()
      if (src.charCodeAt(this.pos) !== PIPE || src.charCodeAt(this.pos + 1) === PIPE) return
      this.pos += src.charCodeAt(this.pos + 1) === AMP ? 2 : 1
      this.sep("|")
      this.skipLinebreaks()
      const feed = this.pipeFeed
      this.pipeFeed = prev ?? "group"
      const cur = this.parseCommand(stop)
      this.pipeFeed = feed
      if (prev !== null && cur !== null) prev.pipeNext = cur
      prev = cur
    }
  }

  // ---- commands --------------------------------------------------------------

  private parseCommand(stop: Stop): Cmd | null {
    this.skipBlanks()
    const src = this.src
    if (this.pos >= src.length) return null
    const c = src.charCodeAt(this.pos)
    if (c === LPAR) {
      // `(( arithmetic ))`, unless bash reads the text as a subshell in a subshell (`((cmd) )`): then parsed as one.
      const end = src.charCodeAt(this.pos + 1) === LPAR ? this.arithmeticEnd(this.pos) : -1
      if (end >= 0) {
        this.ctx.hooks.arith?.(src.slice(this.pos + 2, Math.max(this.pos + 2, end - 2)), this.ctx)
        this.pos = end
        return null
      }
      const glued = this.pos > 0 && !isMeta(src.charCodeAt(this.pos - 1))
      this.pos++
      this.pendingOp = glued ? CALL_PAREN : "("
      this.parseList(")")
      if (src.charCodeAt(this.pos) === RPAR) this.pos++
      return this.trailingRedirects()
    }
    if (stop === "}" && this.atBareWord(RBRACE)) return null
    if (this.atBareWord(LBRACE)) {
      this.pos++
      this.pendingOp = "{"
      this.parseList("}")
      return this.trailingRedirects()
    }
    return this.parseSimple(stop)
  }

  private newCmd(): Cmd {
    const cmd: Cmd = {
      seq: this.ctx.cmds.length,
      words: [],
      redirs: [],
      cls: this.cls,
      origin: this.origin,
      depth: this.depth,
      prevOp: this.pendingOp,
      nextOp: "",
      pipeNext: null,
      ampSemi: false,
      bgEnd: false,
      funcDef: false,
      frame: this.frameId,
      nested: this.nesting > 1 || this.keywords > 0,
      pipePrev: this.pipeFeed,
      heredocOf: this.origin === "heredoc" ? this.ctx.heredocOwner : null,
      parenNext: false
    }
    this.pendingOp = ""
    this.ctx.cmds.push(cmd)
    return cmd
  }

  private finish(cmd: Cmd): void {
    if (cmd.words.length === 0 && cmd.redirs.length === 0) return // keyword-only or empty: not a command
    if (this.ctx.overflow) return // the verdict is already "limit exceeded"
    this.lastCmd = cmd
    this.opsSinceCmd = ""
    this.ctx.hooks.complete(cmd, this.ctx)
  }

  /** Redirects after `( … )` / `{ … }` land on an empty command so rules still see them. */
  private trailingRedirects(): Cmd | null {
    this.skipBlanks()
    if (!this.atRedirect()) return null
    const cmd = this.newCmd()
    while (this.atRedirect()) {
      this.parseRedirect(cmd)
      this.skipBlanks()
    }
    this.finish(cmd)
    return null
  }

  private parseSimple(stop: Stop): Cmd | null {
    const src = this.src
    const cmd = this.newCmd()
    for (;;) {
      this.skipBlanks()
      if (this.pos >= src.length || this.ctx.overflow) break
      const c = src.charCodeAt(this.pos)
      const d = src.charCodeAt(this.pos + 1)
      if (c === NL || c === SEMI || c === PIPE || c === RPAR) break
      if (c === AMP && d !== GT) break
      if (c === LPAR) {
        if (cmd.words.length > 0 && this.nextNonBlank(this.pos + 1) === RPAR) return this.startFunction(cmd, stop)
        cmd.parenNext = true
        break // a stray `(` starts a new command
      }
      if (stop === "}" && cmd.words.length === 0 && this.atBareWord(RBRACE)) break
      if (this.atRedirect()) {
        this.parseRedirect(cmd)
        continue
      }
      const word = this.readWord()
      if (cmd.words.length === 0 && cmd.redirs.length === 0 && !word.quoted) {
        if (OPENERS.has(word.raw)) this.keywords++
        else if (ENDERS.has(word.raw) && this.keywords > 0) this.keywords--
        if (TRANSITIONS.has(word.raw) || CLOSERS.has(word.raw)) continue
        if (word.raw === "function") {
          this.skipBlanks()
          cmd.words.push(this.readWord())
          this.skipBlanks()
          if (this.src.charCodeAt(this.pos) === LPAR && this.nextNonBlank(this.pos + 1) === RPAR) {
            this.pos = src.indexOf(")", this.pos) + 1
          }
          return this.parseFunctionBody(cmd, stop)
        }
      }
      if (word.raw === "") {
        this.pos++ // defensive: never loop on an unreadable character
        continue
      }
      cmd.words.push(word)
    }
    this.finish(cmd)
    return cmd
  }

  /**
   * `name()` seen after the words of `cmd`. Words before the name (a syntax
   * error in bash, but common in prose: "the fork bomb :(){ :|:& };:") stay a
   * command of their own, and the definition starts fresh.
   */
  private startFunction(cmd: Cmd, stop: Stop): Cmd | null {
    if (cmd.words.length === 1 && cmd.redirs.length === 0) return this.parseFunction(cmd, stop)
    const name = cmd.words.pop()
    this.finish(cmd)
    const fn = this.newCmd()
    if (name !== undefined) fn.words.push(name)
    return this.parseFunction(fn, stop)
  }

  /** `pos` sits on the `(` of `name()`. */
  private parseFunction(cmd: Cmd, stop: Stop): Cmd | null {
    this.pos = this.src.indexOf(")", this.pos) + 1
    return this.parseFunctionBody(cmd, stop)
  }

  private parseFunctionBody(cmd: Cmd, stop: Stop): Cmd | null {
    cmd.funcDef = true
    this.finish(cmd)
    this.skipLinebreaks()
    const from = this.ctx.cmds.length
    const start = this.pos
    // Read the body as a pipeline: `{:|:&}` (no blanks, so no brace group for bash) is still a body for Hermes.
    this.parseAndOr(stop)
    const name = cmd.words[0]?.value ?? ""
    this.ctx.funcs.push({ name, cls: this.cls, from, to: this.ctx.cmds.length, body: this.src.slice(start, this.pos) })
    return null
  }

  // ---- redirects and heredocs ------------------------------------------------

  private atRedirect(): boolean {
    const src = this.src
    let i = this.pos
    while (isDigit(src.charCodeAt(i))) i++
    const c = src.charCodeAt(i)
    if (c === AMP) return i === this.pos && src.charCodeAt(i + 1) === GT
    return (c === LT || c === GT) && src.charCodeAt(i + 1) !== LPAR
  }

  private parseRedirect(cmd: Cmd): void {
    const src = this.src
    while (isDigit(src.charCodeAt(this.pos))) this.pos++
    const rest = src.slice(this.pos, this.pos + 3)
    const op =
      ["<<<", "<<-", "&>>", "<<", "<>", "<&", ">>", ">&", ">|", "&>", "<", ">"].find((o) => rest.startsWith(o)) ?? ">"
    this.pos += op.length
    this.skipBlanks()
    const c = src.charCodeAt(this.pos)
    const target = this.pos < src.length && (!isMeta(c) || this.atProcessSubstitution()) ? this.readWord() : null
    const redir: Redir = { op, target, after: cmd.words.length, body: null }
    cmd.redirs.push(redir)
    if ((op === "<<" || op === "<<-") && target !== null) {
      this.heredocs.push({ redir, delim: target.value, strip: op === "<<-", cmd })
    }
  }

  private readHeredocs(): void {
    if (this.heredocs.length === 0) return
    const src = this.src
    const pending = this.heredocs
    this.heredocs = []
    for (const h of pending) {
      let body = ""
      while (this.pos < src.length) {
        let end = src.indexOf("\n", this.pos)
        if (end < 0) end = src.length
        const line = src.slice(this.pos, end)
        this.pos = Math.min(end + 1, src.length)
        const bare = line.endsWith("\r") ? line.slice(0, -1) : line
        if ((h.strip ? bare.replace(/^\t+/, "") : bare) === h.delim) break
        body += `${line}\n`
      }
      h.redir.body = body
      // Hermes scans heredoc text as commands whatever the delimiter quoting; so do we (fail closed).
      const owner = this.ctx.heredocOwner
      this.ctx.heredocOwner = h.cmd
      parseInto(this.ctx, body, this.cls, "heredoc", this.depth + 1, false)
      this.ctx.heredocOwner = owner
    }
  }

  // ---- words -----------------------------------------------------------------

  private atBareWord(ch: number): boolean {
    const src = this.src
    return src.charCodeAt(this.pos) === ch && (this.pos + 1 >= src.length || isMeta(src.charCodeAt(this.pos + 1)))
  }

  protected nestedList(from: number): number {
    const saved = {
      cls: this.cls,
      origin: this.origin,
      last: this.lastCmd,
      op: this.pendingOp,
      ops: this.opsSinceCmd,
      feed: this.pipeFeed
    }
    // `>(cmd)` reads what the outer command writes into it: text only known when it runs, as a pipe's.
    if (from >= 2 && this.src.charCodeAt(from - 2) === GT) this.pipeFeed = "group"
    // Hermes counts `$(` as a command position even inside quoted prose, so substitutions always run.
    this.cls = "exec"
    this.origin = "subst"
    this.pos = from
    this.pendingOp = "$("
    this.opsSinceCmd = ""
    this.parseList(")")
    const end = this.src.charCodeAt(this.pos) === RPAR ? this.pos + 1 : this.pos
    this.cls = saved.cls
    this.origin = saved.origin
    this.lastCmd = saved.last
    this.pendingOp = saved.op
    this.opsSinceCmd = saved.ops
    this.pipeFeed = saved.feed
    this.pos = end
    return end
  }

  // ---- blanks and comments ---------------------------------------------------

  private skipBlanks(): void {
    const src = this.src
    for (;;) {
      while (this.pos < src.length && isBlank(src.charCodeAt(this.pos))) this.pos++
      if (src.charCodeAt(this.pos) !== HASH) return
      let end = src.indexOf("\n", this.pos)
      if (end < 0) end = src.length
      this.ctx.hooks.comment(src.slice(this.pos + 1, end), this.depth, this.ctx)
      this.pos = end
    }
  }

  private skipLinebreaks(): void {
    for (;;) {
      this.skipBlanks()
      if (this.src.charCodeAt(this.pos) !== NL) return
      this.pos++
      this.readHeredocs()
    }
  }

  private nextNonBlank(from: number): number {
    let i = from
    while (i < this.src.length && isBlank(this.src.charCodeAt(i))) i++
    return this.src.charCodeAt(i)
  }
}

/**
 * Parse `src` and append its commands to `ctx`. `eofTail` marks the last
 * command as ending the input (top-level and payload scripts).
 */
export const parseInto = (ctx: ParseCtx, src: string, cls: Cls, origin: Origin, depth: number, eofTail: boolean): void => {
  if (ctx.overflow) return
  ctx.work += src.length
  if (depth > MAX_DEPTH || ctx.work > ctx.budget) {
    ctx.overflow = true
    return
  }
  const parent = ctx.frame
  ctx.frames.push({ parent, origin })
  ctx.frame = ctx.frames.length - 1
  try {
    new Parser(ctx, src, cls, origin, depth).program(eofTail)
  } finally {
    ctx.frame = parent
  }
}

const NO_HOOKS: ParseHooks = { complete: () => undefined, comment: () => undefined }

/** Lex `s` as a single shell word (nested substitutions are parsed and discarded). */
export const lexWord = (s: string): Word => {
  const ctx = newParseCtx(NO_HOOKS, s.length * 4 + 64)
  return new Parser(ctx, s, "data", "data", 0).word()
}

/** The simple commands of a tiny script, or null when it is not one plain command list. */
export const lexCommands = (s: string): ReadonlyArray<Cmd> | null => {
  const ctx = newParseCtx(NO_HOOKS, s.length * 4 + 64)
  parseInto(ctx, s, "data", "data", 0, true)
  return ctx.overflow ? null : ctx.cmds.filter((c) => c.words.length > 0 || c.redirs.length > 0)
}
