/**
 * Rule tables and the matcher that runs them. A rule is triggered by a
 * token in a word (so most words touch no rule at all), by a redirect, by a
 * command that runs, or by the whole view; the first rule in table order that
 * holds anywhere wins, as in Hermes.
 */
import type { RuntimeProcess } from "../../../../services/Approval.js"
import type { ResolvedEnv } from "../detectionEnv.js"
import type { CmdView, View } from "../ruleInput.js"

/** Where the paths rules compare against live (the user's and the runtime's home). */
export type RuleEnv = Pick<ResolvedEnv, "home" | "hermesHome"> & { readonly cwd?: string | undefined; readonly runtimeProcess?: RuntimeProcess | undefined }

const NO_ENV: RuleEnv = { home: undefined, hermesHome: undefined }

export type Rule =
  | {
      readonly kind: "word"
      readonly description: string
      /** Tokens that trigger the rule; `end`: the token must end the word (`\bname\s`). */
      readonly on: ReadonlyArray<string>
      readonly at: "end" | "any"
      readonly test: (v: View, c: CmdView, i: number, env: RuleEnv) => boolean
    }
  | {
      readonly kind: "redirect"
      readonly description: string
      readonly test: (v: View, c: CmdView, r: number, env: RuleEnv) => boolean
    }
  | {
      /** Only commands that run, inspected through their program word. */
      readonly kind: "program"
      readonly description: string
      readonly test: (v: View, c: CmdView, env: RuleEnv) => boolean
      /**
       * The program names (`CmdView.name`) the rule can hold for, when it holds for some only: an index, so a
       * command is not asked about rules its program has nothing to do with. `test` must be false for the rest.
       */
      readonly only?: (name: string) => boolean
    }
  | {
      readonly kind: "view"
      readonly description: string
      readonly test: (v: View, env: RuleEnv) => boolean
    }

type Indexed = { readonly id: number; readonly rule: Extract<Rule, { kind: "word" }> }
type Of<K extends Rule["kind"]> = ReadonlyArray<{ readonly id: number; readonly rule: Extract<Rule, { kind: K }> }>

export interface RuleSet {
  readonly rules: ReadonlyArray<Rule>
  /** Word rules by the id (`TOKEN_IDS`) of a token that triggers them: at the end of a word, or anywhere. */
  readonly byEndToken: ReadonlyArray<ReadonlyArray<Indexed> | undefined>
  readonly byAnyToken: ReadonlyArray<ReadonlyArray<Indexed> | undefined>
  readonly redirects: Of<"redirect">
  readonly programs: Of<"program">
  /** The program rules that can hold for a program name (`only`), in table order. */
  readonly programsFor: (name: string) => Of<"program">
  readonly views: Of<"view">
  /** Only look at commands that run (hardline) or at everything (dangerous). */
  readonly execOnly: boolean
}

/**
 * Every token any rule set is triggered by, numbered: a word's tokens are
 * looked up here once (`tokensOf`), and each set then indexes its rules by
 * number, instead of every set hashing every token of every word again.
 */
const TOKEN_IDS = new Map<string, number>()

/**
 * The same tokens as a trie over their UTF-16 code units, so a text's words
 * are looked up as they are scanned: no substring or array per word (most
 * words are no token at all).
 */
interface TrieNode {
  id: number
  ascii: Array<TrieNode | undefined> | undefined
  wide: Map<number, TrieNode> | undefined
}

const newNode = (): TrieNode => ({ id: -1, ascii: undefined, wide: undefined })
const TRIE_ROOT = newNode()

/**
 * A word's ASCII code units (`[a-z0-9_]`, see isWordCode) as slots 0–36, so a node's ASCII children take 37
 * slots rather than an array as long as its highest code (~120): the tries of every rule table were ~3 MB of
 * mostly empty slots, built at start-up.
 */
const ASCII_SLOTS = 37
const slotOf = (code: number): number => (code >= 97 ? code - 97 : code === 95 ? 36 : code - 22)

const childOf = (node: TrieNode, code: number): TrieNode | undefined => (code < 128 ? node.ascii?.[slotOf(code)] : node.wide?.get(code))

const addToTrie = (token: string, id: number): void => {
  // A token with a code unit no word has can never be met in a text's words (and has no slot).
  for (let i = 0; i < token.length; i++) if (!isWordCode(token.charCodeAt(i))) return
  let node = TRIE_ROOT
  for (let i = 0; i < token.length; i++) {
    const code = token.charCodeAt(i)
    let next = childOf(node, code)
    if (next === undefined) {
      next = newNode()
      if (code < 128) (node.ascii ??= new Array<TrieNode | undefined>(ASCII_SLOTS))[slotOf(code)] = next
      else (node.wide ??= new Map()).set(code, next)
    }
    node = next
  }
  node.id = id
}

const tokenId = (token: string): number => {
  let id = TOKEN_IDS.get(token)
  if (id === undefined) {
    TOKEN_IDS.set(token, id = TOKEN_IDS.size)
    addToTrie(token, id)
  }
  return id
}

export const ruleSet = (rules: ReadonlyArray<Rule>, execOnly: boolean): RuleSet => {
  const byEnd: Array<Indexed[] | undefined> = []
  const byAny: Array<Indexed[] | undefined> = []
  const redirects: Array<{ id: number; rule: Extract<Rule, { kind: "redirect" }> }> = []
  const programs: Array<{ id: number; rule: Extract<Rule, { kind: "program" }> }> = []
  const views: Array<{ id: number; rule: Extract<Rule, { kind: "view" }> }> = []
  rules.forEach((rule, id) => {
    switch (rule.kind) {
      case "redirect":
        redirects.push({ id, rule })
        return
      case "program":
        programs.push({ id, rule })
        return
      case "view":
        views.push({ id, rule })
        return
      case "word": {
        const index = rule.at === "end" ? byEnd : byAny
        for (const token of rule.on) (index[tokenId(token)] ??= []).push({ id, rule })
      }
    }
  })
  return { rules, byEndToken: byEnd, byAnyToken: byAny, redirects, programs, programsFor: programIndex(programs), views, execOnly }
}

/** Names remembered per rule set; a line of made-up names cannot grow it without bound (it starts over). */
const NAMES_KEPT = 4096

const programIndex = (programs: Of<"program">): ((name: string) => Of<"program">) => {
  const byName = new Map<string, Of<"program">>()
  return (name) => {
    let list = byName.get(name)
    if (list === undefined) {
      if (byName.size >= NAMES_KEPT) byName.clear()
      list = programs.filter(({ rule }) => rule.only === undefined || rule.only(name))
      byName.set(name, list)
    }
    return list
  }
}

/** The number of a token some rule is triggered by, or undefined. */
export const knownTokenId = (token: string): number | undefined => TOKEN_IDS.get(token)

/** A code unit of a word: `[a-z0-9_\u0080-\uffff]` (a token is a longest run of them). */
const isWordCode = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95 || c > 127

/** A text's known tokens (ids, in order), and the id of its last token when it ends the text (else -1). */
export interface TextTokens {
  readonly ids: ReadonlyArray<number>
  readonly last: number
}

const NO_TOKENS: TextTokens = { ids: [], last: -1 }

export const textTokens = (t: string): TextTokens => {
  let ids: number[] | undefined
  let last = -1
  const n = t.length
  let i = 0
  while (i < n) {
    if (!isWordCode(t.charCodeAt(i))) {
      i++
      continue
    }
    // One word: follow the trie while it knows the prefix; the word is a token when its whole run ends on one.
    let node: TrieNode | undefined = TRIE_ROOT
    for (; i < n; i++) {
      const c = t.charCodeAt(i)
      if (!isWordCode(c)) break
      if (node !== undefined) node = childOf(node, c)
    }
    const id = node === undefined ? -1 : node.id
    if (id >= 0) (ids ??= []).push(id)
    if (i === n) last = id
  }
  return ids === undefined ? NO_TOKENS : { ids, last }
}

/** The known tokens of a command's i-th text, worked out once per view (both rule sets and both tiers read them). */
const tokensOf = (c: CmdView, i: number, t: string): TextTokens => {
  const cache = c.tokens
  if (cache === undefined) return textTokens(t)
  let tokens = cache[i]
  if (tokens === undefined) cache[i] = tokens = textTokens(t)
  return tokens
}

/** Index of the first matching rule, or -1. Rules past the best match so far are never run. */
export const firstMatch = (set: RuleSet, v: View, env: RuleEnv = NO_ENV): number => {
  let best = Number.MAX_SAFE_INTEGER
  for (const c of v.cmds) {
    const runs = c.cmd.cls === "exec"
    if (set.execOnly && !runs) continue
    for (let i = 0; i < c.texts.length; i++) {
      const t = c.texts[i] ?? ""
      if (t === "") continue
      const { ids, last } = tokensOf(c, i, t)
      for (const tok of ids) {
        const list = set.byAnyToken[tok]
        if (list === undefined) continue
        for (const { id, rule } of list) if (id < best && rule.test(v, c, i, env)) best = id
      }
      if (last >= 0) {
        const list = set.byEndToken[last]
        if (list !== undefined) for (const { id, rule } of list) if (id < best && rule.test(v, c, i, env)) best = id
      }
    }
    for (let r = 0; r < c.redirectTexts.length; r++) {
      for (const { id, rule } of set.redirects) if (id < best && rule.test(v, c, r, env)) best = id
    }
    if (runs && c.head >= 0) for (const { id, rule } of set.programsFor(c.name)) if (id < best && rule.test(v, c, env)) best = id
  }
  for (const { id, rule } of set.views) if (id < best && rule.test(v, env)) best = id
  return best === Number.MAX_SAFE_INTEGER ? -1 : best
}
