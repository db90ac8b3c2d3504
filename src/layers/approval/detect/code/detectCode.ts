/**
 * Detection for interpreter source text: what a python/node/perl/ruby/php
 * REPL is about to read, or a script a command runs. Same verdict shape as
 * shell detection. Code findings (deleting files, running programs, loading
 * code by a computed name, writing files other programs run, touching the
 * runtime's home) make it dangerous; string literals are judged by the shell
 * rules too, and in code that can run programs a hardline literal
 * (`os.system("rm -rf /")`) makes the code hardline.
 */
import type { CodeLanguage, Detection } from "../../../../services/Approval.js"
import { detectCommand } from "../detect.js"
import type { CodeKind } from "../descriptions.js"
import { codeDescription, DETECTOR_FAILURE_DESCRIPTION, PARSER_LIMIT_DESCRIPTION } from "../descriptions.js"
import type { DetectionEnv } from "../detectionEnv.js"
import { resolveEnv } from "../detectionEnv.js"
import type { RuleEnv } from "../rules/engine.js"
import type { Finding } from "./judges.js"
import { JUDGES } from "./judges.js"
import type { Language, Tok } from "./lexer.js"
import { lex } from "./lexer.js"
import { runtimeHomePath } from "./sensitivePaths.js"

const MAX_CODE_CHARS = 1_000_000
const MAX_LITERALS = 4_000
const MAX_DEPTH = 4
const PRIORITY: ReadonlyArray<CodeKind> = ["home", "run", "load", "unpickle", "delete", "write", "rewrite", "process", "console"]
/** Names that give code a way to run programs even where no call was recognised. */
const CAPABLE = new Set(["os", "subprocess", "pty", "ctypes", "commands", "pexpect", "posix", "child_process", "Open3", "Kernel", "IO", "Process", "PTY"])

const NONE: Detection = { dangerous: false, description: null, hardline: false, hardline_description: null }
const FAILURE: Detection = {
  dangerous: true,
  description: DETECTOR_FAILURE_DESCRIPTION,
  hardline: true,
  hardline_description: DETECTOR_FAILURE_DESCRIPTION
}
const LIMIT: Detection = {
  dangerous: true,
  description: PARSER_LIMIT_DESCRIPTION,
  hardline: true,
  hardline_description: PARSER_LIMIT_DESCRIPTION
}

/** `"r" + "m -rf /"`, `'r' . 'm'`, python/ruby `"a" "b"`: one literal, as the program would build it. */
const mergeStrings = (toks: ReadonlyArray<Tok>, lang: Language): Tok[] => {
  const joiner = lang === "perl" || lang === "php" ? "." : "+"
  const out: Tok[] = []
  for (const t of toks) {
    const last = out[out.length - 1]
    const before = out[out.length - 2]
    if (t.kind === "string" && last?.kind === "operator" && last.value === joiner && before?.kind === "string") {
      out.splice(out.length - 2, 2, { kind: "string", value: before.value + t.value, literal: before.literal && t.literal })
    } else if (t.kind === "string" && last?.kind === "string" && (lang === "python" || lang === "ruby")) {
      out[out.length - 1] = { kind: "string", value: last.value + t.value, literal: last.literal && t.literal }
    } else out.push(t)
  }
  return out
}

const HAS_LETTER = /[A-Za-z]/

const detect = (lang: Language, text: string, options: DetectionEnv | undefined, env: RuleEnv, depth: number): Detection => {
  if (text.length > MAX_CODE_CHARS || depth > MAX_DEPTH) return LIMIT
  const start = lang === "php" ? text.indexOf("<?") : -1
  const toks = mergeStrings(lex(start > 0 ? text.slice(start) : text, lang), lang)
  const findings: Finding[] = [...JUDGES[lang](toks, env)]
  const literals: string[] = []
  for (const t of toks) {
    if (t.kind === "command") findings.push({ kind: "run", runs: [t.value] })
    else if (t.kind === "string") {
      if (runtimeHomePath(t.value, env)) findings.push({ kind: "home" })
      literals.push(t.value)
    }
  }
  const nested = findings.flatMap((f) => (f.evaluates === undefined ? [] : [detect(lang, f.evaluates, options, env, depth + 1)]))
  const capable =
    findings.some((f) => f.kind === "run" || f.kind === "load") || toks.some((t) => t.kind === "identifier" && CAPABLE.has(t.value))
  const runTexts = new Set(findings.flatMap((f) => f.runs ?? []))

  let hardline: string | null = nested.find((d) => d.hardline)?.hardline_description ?? null
  let ranDangerous: string | null = null
  let proseDangerous: string | null = null
  const judged = [...runTexts, ...literals].slice(0, MAX_LITERALS)
  for (const s of judged) {
    if (s.length < 2 || !HAS_LETTER.test(s)) continue
    const ran = runTexts.has(s)
    // Outside code that can run programs, only text that reads like a command line (several words) is judged, as prose.
    if (!ran && !capable && !/\S\s+\S/.test(s)) continue
    const d = detectCommand(s, options)
    if (capable && d.hardline && hardline === null) hardline = d.hardline_description
    if (d.dangerous) {
      if (ran) ranDangerous ??= d.description
      else proseDangerous ??= d.description
    }
    if (hardline !== null && ranDangerous !== null) break
  }
  const kind = PRIORITY.find((k) => findings.some((f) => f.kind === k))
  const description =
    ranDangerous ??
    (kind === undefined ? null : codeDescription(lang, kind)) ??
    nested.find((d) => d.dangerous)?.description ??
    proseDangerous
  if (description === null && hardline === null) return NONE
  return { dangerous: description !== null, description, hardline: hardline !== null, hardline_description: hardline }
}

/** At most this many path literals of one program are looked up on the filesystem. */
const MAX_PATH_LITERALS = 64
/** A string that may name a file: a path, or a name with an extension; not prose, not a URL. */
const FILE_LITERAL = /^(?:[^\s/]*\/[^\n\0]*|[~.][^\s]*|[^\s]+\.\w+)$/

/**
 * The file paths a program spells as string literals (`"notes.txt"`, `"./x"`, `"a/b"`, `"~/x"`): where they lead on
 * the filesystem (through a symlink, or as a second name of a file) is for the judge to look up.
 */
export const codePathLiterals = (language: CodeLanguage, text: string): ReadonlyArray<string> => {
  if (language === "shell" || text.length > MAX_CODE_CHARS) return []
  const lang: Language = language
  const start = lang === "php" ? text.indexOf("<?") : -1
  const out = new Set<string>()
  try {
    for (const t of mergeStrings(lex(start > 0 ? text.slice(start) : text, lang), lang)) {
      if (t.kind !== "string" || t.value.length > 4096 || !FILE_LITERAL.test(t.value) || t.value.includes("://")) continue
      out.add(t.value)
      if (out.size >= MAX_PATH_LITERALS) break
    }
  } catch {
    return []
  }
  return [...out]
}

/** Judge `text` read as `language` (shell text goes to the shell rules). */
export const detectCode = (language: CodeLanguage, text: string, options?: DetectionEnv): Detection => {
  if (language === "shell") return detectCommand(text, options)
  const resolved = resolveEnv(options)
  try {
    return detect(language, text, options, { home: resolved.home, hermesHome: resolved.hermesHome }, 0)
  } catch (error) {
    // As for shell text: a bug in the detector refuses the code instead of letting it through or throwing.
    return error instanceof RangeError ? LIMIT : FAILURE
  }
}
