/**
 * What rules read: per simple command, the lower-cased text of each word
 * and redirect target, plus one flat source-ordered list of all of them so a
 * rule can ask "does anything after this word mention X?".
 *
 * Tier 1 shows words as written (after Hermes' flattening); tier 2 replaces
 * command-position words with their deobfuscated spelling.
 */
import type { Analysis } from "./analyze.js"
import type { Cmd, FuncDef } from "../shell/ast.js"
import { CALL_PAREN } from "../shell/ast.js"
import { basename, wordText } from "../shell/words.js"
import type { TextTokens } from "./rules/engine.js"

export interface CmdView {
  readonly cmd: Cmd
  /** Lower-cased text of each word, in this tier's spelling. */
  readonly texts: ReadonlyArray<string>
  /** Redirect target texts, parallel to cmd.redirs ("" when a redirect has none). */
  readonly redirectTexts: ReadonlyArray<string>
  /** Index of texts[0] in View.flat. */
  readonly base: number
  /** Program word index for commands that run, else -1. */
  readonly head: number
  /** Basename of the program word in this tier. */
  readonly name: string
  /** The rule tokens of each text, filled on first use (both rule sets read them). */
  readonly tokens?: Array<TextTokens | undefined>
  /** Memo of the program's argument values (`operands.argv`), filled on first use. */
  argvMemo?: ReadonlyArray<string> | undefined
}

export interface View {
  readonly cmds: ReadonlyArray<CmdView>
  readonly bySeq: ReadonlyArray<CmdView | undefined>
  readonly flat: ReadonlyArray<string>
  readonly funcs: ReadonlyArray<FuncDef>
  /** Memos rules fill on first use, once per view (a field is cheaper to read than a WeakMap keyed by the view). */
  writtenMemo?: ReadonlySet<string> | undefined
  fetchMemo?: number | undefined
}

/**
 * A "subshell" whose `(` is glued to a word (`os.system('reboot')` in a
 * Python heredoc) is code in another language, not shell: its quoted first
 * word is not respelled into a program name for the position-anchored rules
 * (Hermes does not either). Everywhere else the respelled name counts.
 */
const respellsProgram = (cmd: Cmd): boolean => cmd.prevOp !== CALL_PAREN

const assemble = (
  a: Analysis,
  texts: ReadonlyArray<ReadonlyArray<string> | undefined>,
  programText: (cmd: Cmd, t: ReadonlyArray<string>, head: number) => string = (_c, t, head) => t[head] ?? ""
): View => {
  const cmds: CmdView[] = []
  const bySeq: Array<CmdView | undefined> = []
  const flat: string[] = []
  for (const cmd of a.ctx.cmds) {
    const t = texts[cmd.seq]
    if (t === undefined) continue
    const rt = cmd.redirs.map((r) => (r.target === null ? "" : wordText(r.target)))
    const head = a.info[cmd.seq]?.head ?? -1
    const view: CmdView = {
      cmd,
      texts: t,
      redirectTexts: rt,
      base: flat.length,
      head,
      name: head >= 0 ? basename(programText(cmd, t, head)) : "",
      tokens: [],
      argvMemo: undefined
    }
    for (const s of t) flat.push(s)
    for (const s of rt) flat.push(s)
    cmds.push(view)
    bySeq[cmd.seq] = view
  }
  return { cmds, bySeq, flat, funcs: a.ctx.funcs, writtenMemo: undefined, fetchMemo: undefined }
}

const isCommand = (cmd: Cmd): boolean => !cmd.funcDef && (cmd.words.length > 0 || cmd.redirs.length > 0)

export const tierOne = (a: Analysis): View =>
  assemble(
    a,
    a.ctx.cmds.map((cmd) => {
      if (!isCommand(cmd)) return undefined
      const hidden = a.info[cmd.seq]?.hidden
      return cmd.words.map((w, i) => (hidden?.has(i) === true ? "" : wordText(w)))
    })
  )

/** Tier 2, or null when no command word spells differently (nothing new to check). */
export const tierTwo = (a: Analysis, one: View): View | null => {
  let changed = false
  const texts = a.ctx.cmds.map((cmd) => {
    const base = one.bySeq[cmd.seq]?.texts
    const spelled = a.info[cmd.seq]?.spelled
    if (base === undefined || spelled === undefined || spelled.size === 0) return base
    let t: string[] | null = null
    for (const [i, s] of spelled) {
      const lower = s.toLowerCase()
      if (lower === base[i]) continue
      t ??= [...base]
      t[i] = lower
    }
    if (t === null) return base
    changed = true
    return t
  })
  if (!changed) return null
  return assemble(a, texts, (cmd, t, head) => (respellsProgram(cmd) ? t : (one.bySeq[cmd.seq]?.texts ?? t))[head] ?? "")
}
