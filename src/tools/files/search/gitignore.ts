/**
 * gitignore-style patterns, as ripgrep applies them to ignore files
 * (`.gitignore`, `.ignore`, `.rgignore`) and to `--glob` overrides:
 *
 * - `!` negates, a trailing `/` matches directories only;
 * - a pattern with a `/` at the start or in the middle is anchored to the
 *   directory of its file (or the search root); otherwise it matches a name at
 *   any depth;
 * - `*` and `?` stay within one component, `**` crosses them, `[...]` is a class.
 */

export interface Rule {
  readonly negated: boolean
  readonly dirOnly: boolean
  readonly regex: RegExp
}

const escapeRegex = (c: string) => c.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&")

/** The body of a character class `[...]` starting after `[`; returns the regex class and the index after `]`. */
const charClass = (glob: string, start: number): readonly [string, number] | undefined => {
  let i = start
  let out = "["
  if (glob[i] === "!" || glob[i] === "^") {
    out += "^"
    i++
  }
  // A `]` right after the opening is literal.
  if (glob[i] === "]") {
    out += "\\]"
    i++
  }
  while (i < glob.length && glob[i] !== "]") {
    const c = glob[i] as string
    if (c === "\\" && i + 1 < glob.length) {
      out += escapeRegex(glob[i + 1] as string)
      i += 2
      continue
    }
    if (c === "[" && glob[i + 1] === ":") {
      const close = glob.indexOf(":]", i + 2)
      if (close > 0) {
        const name = glob.slice(i + 2, close)
        const posix: Record<string, string> = {
          alpha: "A-Za-z", digit: "0-9", alnum: "A-Za-z0-9", upper: "A-Z", lower: "a-z", space: "\\s", punct: "!-\\/:-@\\[-`{-~", xdigit: "0-9A-Fa-f"
        }
        out += posix[name] ?? ""
        i = close + 2
        continue
      }
    }
    out += c === "-" ? "-" : escapeRegex(c)
    i++
  }
  if (i >= glob.length) return undefined
  return [`${out}]`, i + 1]
}

/** Regex source for a glob body (no anchoring decisions). */
const globBody = (glob: string): string => {
  let out = ""
  let i = 0
  while (i < glob.length) {
    const c = glob[i] as string
    if (c === "*") {
      if (glob[i + 1] === "*") {
        const atStart = i === 0 || glob[i - 1] === "/"
        const atEnd = i + 2 === glob.length || glob[i + 2] === "/"
        if (atStart && atEnd) {
          if (i + 2 === glob.length) {
            out += ".*"
            i += 2
          } else {
            // `**/` : zero or more whole directories.
            out += "(?:.*/)?"
            i += 3
          }
          continue
        }
        out += "[^/]*"
        i += 2
        continue
      }
      out += "[^/]*"
      i++
    } else if (c === "?") {
      out += "[^/]"
      i++
    } else if (c === "[") {
      const cls = charClass(glob, i + 1)
      if (cls === undefined) {
        out += "\\["
        i++
      } else {
        out += cls[0]
        i = cls[1]
      }
    } else if (c === "\\" && i + 1 < glob.length) {
      out += escapeRegex(glob[i + 1] as string)
      i += 2
    } else {
      out += escapeRegex(c)
      i++
    }
  }
  return out
}

/** One line of an ignore file (or one `--glob`); undefined for blanks and comments. */
export const parseRule = (line: string): Rule | undefined => {
  let text = line.endsWith("\r") ? line.slice(0, -1) : line
  if (text.length === 0 || text.startsWith("#")) return undefined
  // Trailing spaces are ignored unless escaped.
  text = text.replace(/(?<!\\) +$/, "")
  if (text.length === 0) return undefined
  let negated = false
  if (text.startsWith("!")) {
    negated = true
    text = text.slice(1)
  } else if (text.startsWith("\\!") || text.startsWith("\\#")) {
    text = text.slice(1)
  }
  let dirOnly = false
  if (text.endsWith("/") && text.length > 1) {
    dirOnly = true
    text = text.slice(0, -1)
  }
  if (text.length === 0) return undefined
  const anchored = text.includes("/") && !(text.startsWith("**/") && !text.slice(3).includes("/"))
  const body = globBody(text.startsWith("/") ? text.slice(1) : text)
  const source = anchored ? `^${body}$` : `(?:^|/)${body}$`
  return { negated, dirOnly, regex: new RegExp(source, "s") }
}

/** Rules of one file (or one set of globs), last match wins. */
export class RuleSet {
  constructor(readonly rules: ReadonlyArray<Rule>) {}

  static parse(text: string): RuleSet {
    return new RuleSet(text.split("\n").map(parseRule).filter((r): r is Rule => r !== undefined))
  }

  /** "ignore", "whitelist", or undefined when no rule matches `relative` (a path below the set's directory). */
  decide(relative: string, isDir: boolean): "ignore" | "whitelist" | undefined {
    for (let i = this.rules.length - 1; i >= 0; i--) {
      const rule = this.rules[i] as Rule
      if (rule.dirOnly && !isDir) continue
      if (rule.regex.test(relative)) return rule.negated ? "whitelist" : "ignore"
    }
    return undefined
  }
}

/**
 * `--glob` overrides: a matching glob includes (a `!glob` excludes) whatever
 * the ignore rules say; with any including glob, a file that matches none is
 * left out. Directories that match nothing are still walked.
 */
export class Overrides {
  private readonly rules: ReadonlyArray<Rule>
  private readonly whitelists: number

  constructor(globs: ReadonlyArray<string>) {
    // An override glob is an inverted ignore rule: `x` includes, `!x` excludes.
    this.rules = globs.map(parseRule).filter((r): r is Rule => r !== undefined)
    this.whitelists = this.rules.filter((r) => !r.negated).length
  }

  get empty(): boolean {
    return this.rules.length === 0
  }

  decide(relative: string, isDir: boolean): "include" | "exclude" | undefined {
    for (let i = this.rules.length - 1; i >= 0; i--) {
      const rule = this.rules[i] as Rule
      if (rule.dirOnly && !isDir) continue
      if (rule.regex.test(relative)) return rule.negated ? "exclude" : "include"
    }
    return this.whitelists > 0 && !isDir ? "exclude" : undefined
  }
}

/** A file glob matched the way `--glob` matches a path relative to the search root (no negation). */
export const globMatcher = (glob: string): ((relative: string) => boolean) => {
  const rule = parseRule(glob.startsWith("!") ? `\\${glob}` : glob)
  return rule === undefined ? () => false : (relative) => rule.regex.test(relative)
}
