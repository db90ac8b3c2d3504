/**
 * Rule tables and the matcher that runs them. A rule is triggered by a
 * token in a word (so most words touch no rule at all), by a redirect, by a
 * command that runs, or by the whole view; the first rule in table order that
 * holds anywhere wins, as in Hermes.
 */
import type { ResolvedEnv } from "../detectionEnv.js"
import type { CmdView, View } from "../ruleInput.js"

/** Where the paths rules compare against live (the user's and the runtime's home). */
export type RuleEnv = Pick<ResolvedEnv, "home" | "hermesHome">

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
  readonly byEndToken: ReadonlyMap<string, ReadonlyArray<Indexed>>
  readonly byAnyToken: ReadonlyMap<string, ReadonlyArray<Indexed>>
  readonly redirects: Of<"redirect">
  readonly programs: Of<"program">
  readonly views: Of<"view">
  /** Only look at commands that run (hardline) or at everything (dangerous). */
  readonly execOnly: boolean
}

export const ruleSet = (rules: ReadonlyArray<Rule>, execOnly: boolean): RuleSet => {
  const byEnd = new Map<string, Indexed[]>()
  const byAny = new Map<string, Indexed[]>()
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
        for (const token of rule.on) {
          const list = index.get(token) ?? []
          list.push({ id, rule })
          index.set(token, list)
        }
      }
    }
  })
  return { rules, byEndToken: byEnd, byAnyToken: byAny, redirects, programs, views, execOnly }
}

const TOKEN = /[a-z0-9_\u0080-\uffff]+/g

const lastCharIsWord = (t: string): boolean => {
  const c = t.charCodeAt(t.length - 1)
  return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95 || c > 127
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
      const tokens = t.match(TOKEN)
      if (tokens === null) continue
      if (set.byAnyToken.size > 0) {
        for (const tok of tokens) {
          const list = set.byAnyToken.get(tok)
          if (list === undefined) continue
          for (const { id, rule } of list) if (id < best && rule.test(v, c, i, env)) best = id
        }
      }
      if (lastCharIsWord(t)) {
        const list = set.byEndToken.get(tokens[tokens.length - 1] ?? "")
        if (list !== undefined) for (const { id, rule } of list) if (id < best && rule.test(v, c, i, env)) best = id
      }
    }
    for (let r = 0; r < c.redirectTexts.length; r++) {
      for (const { id, rule } of set.redirects) if (id < best && rule.test(v, c, r, env)) best = id
    }
    if (runs && c.head >= 0) for (const { id, rule } of set.programs) if (id < best && rule.test(v, c, env)) best = id
  }
  for (const { id, rule } of set.views) if (id < best && rule.test(v, env)) best = id
  return best === Number.MAX_SAFE_INTEGER ? -1 : best
}
