/**
 * Rule tables and the matcher that runs them. A rule is triggered by a
 * token in a word (so most words touch no rule at all), by a redirect, by a
 * command that runs, or by the whole view; the first rule in table order that
 * holds anywhere wins, as in Hermes.
 */
import type { CmdView, View } from "../view.js"

export type Rule =
  | {
      readonly kind: "word"
      readonly description: string
      /** Tokens that trigger the rule; `end`: the token must end the word (`\bname\s`). */
      readonly on: ReadonlyArray<string>
      readonly at: "end" | "any"
      readonly test: (v: View, c: CmdView, i: number) => boolean
    }
  | {
      readonly kind: "redirect"
      readonly description: string
      readonly test: (v: View, c: CmdView, r: number) => boolean
    }
  | {
      /** Only commands that run, inspected through their program word. */
      readonly kind: "program"
      readonly description: string
      readonly test: (v: View, c: CmdView) => boolean
    }
  | {
      readonly kind: "view"
      readonly description: string
      readonly test: (v: View) => boolean
    }

type Indexed = { readonly id: number; readonly rule: Extract<Rule, { kind: "word" }> }

export interface RuleSet {
  readonly rules: ReadonlyArray<Rule>
  readonly byEndToken: ReadonlyMap<string, ReadonlyArray<Indexed>>
  readonly byAnyToken: ReadonlyMap<string, ReadonlyArray<Indexed>>
  readonly others: ReadonlyArray<{ readonly id: number; readonly rule: Exclude<Rule, { kind: "word" }> }>
  /** Only look at commands that run (hardline) or at everything (dangerous). */
  readonly execOnly: boolean
}

export const ruleSet = (rules: ReadonlyArray<Rule>, execOnly: boolean): RuleSet => {
  const byEnd = new Map<string, Indexed[]>()
  const byAny = new Map<string, Indexed[]>()
  const others: Array<{ id: number; rule: Exclude<Rule, { kind: "word" }> }> = []
  rules.forEach((rule, id) => {
    if (rule.kind !== "word") {
      others.push({ id, rule })
      return
    }
    const index = rule.at === "end" ? byEnd : byAny
    for (const token of rule.on) {
      const list = index.get(token) ?? []
      list.push({ id, rule })
      index.set(token, list)
    }
  })
  return { rules, byEndToken: byEnd, byAnyToken: byAny, others, execOnly }
}

const TOKEN = /[a-z0-9_\u0080-\uffff]+/g

const lastCharIsWord = (t: string): boolean => {
  const c = t.charCodeAt(t.length - 1)
  return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95 || c > 127
}

/** Index of the first matching rule, or -1. */
export const firstMatch = (set: RuleSet, v: View): number => {
  let best = Number.MAX_SAFE_INTEGER
  const tryRule = (id: number, ok: () => boolean): void => {
    if (id < best && ok()) best = id
  }
  for (const c of v.cmds) {
    const runs = c.cmd.cls === "exec"
    if (set.execOnly && !runs) continue
    c.t.forEach((t, i) => {
      if (t === "") return
      const tokens = t.match(TOKEN)
      if (tokens === null) return
      if (set.byAnyToken.size > 0) {
        for (const tok of tokens) {
          for (const { id, rule } of set.byAnyToken.get(tok) ?? []) tryRule(id, () => rule.test(v, c, i))
        }
      }
      if (lastCharIsWord(t)) {
        const last = tokens[tokens.length - 1] ?? ""
        for (const { id, rule } of set.byEndToken.get(last) ?? []) tryRule(id, () => rule.test(v, c, i))
      }
    })
    for (const { id, rule } of set.others) {
      if (rule.kind === "redirect") c.rt.forEach((_, r) => tryRule(id, () => rule.test(v, c, r)))
      else if (rule.kind === "program" && runs && c.head >= 0) tryRule(id, () => rule.test(v, c))
    }
  }
  for (const { id, rule } of set.others) if (rule.kind === "view") tryRule(id, () => rule.test(v))
  return best === Number.MAX_SAFE_INTEGER ? -1 : best
}
