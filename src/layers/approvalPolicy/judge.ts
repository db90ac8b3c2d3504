/**
 * The verdict for one approval request, looking into the task's environment
 * where the text alone cannot tell: a command word held in a variable the
 * task exported earlier, a local script the command runs (its text is judged
 * before it runs), a path that leads into the runtime's home through a
 * symlink. Detection itself stays pure; this is the only part that reads.
 * Whatever cannot be read is judged dangerous: fail closed.
 */
import { Effect, Option } from "effect"
import type { CodeLanguage, CommandApprovalRequest, CommandSurroundings, Detection } from "../../services/Approval.js"
import { D } from "../approval/descriptions.js"
import type { DetectionEnv } from "../approval/env.js"
import type { RunnerRef } from "../approval/resolve/locals.js"
import { COMPUTED_MOVE } from "../approval/resolve/locals.js"
import { makeRecipes, packageScriptText } from "./projectRunners.js"

export interface ScriptRef {
  readonly path: string
  readonly language: CodeLanguage | "unknown"
}

export interface Inspection {
  readonly detection: Detection
  readonly unresolved: ReadonlyArray<string>
  readonly scripts: ReadonlyArray<ScriptRef>
  readonly paths: ReadonlyArray<string>
  readonly runners: ReadonlyArray<RunnerRef>
  readonly moves: ReadonlyArray<string>
}

/** The pure detectors judge uses (the approval layer passes the real ones). */
export interface Detectors {
  readonly inspect: (command: string, env: DetectionEnv & { readonly variables?: Readonly<Record<string, string>> }) => Inspection
  readonly detectCode: (language: CodeLanguage, text: string, env: DetectionEnv) => Detection
}

export interface Verdict {
  readonly detection: Detection
  /** Where the finding came from when it is not the command itself (shown to the approver, not part of the key). */
  readonly note?: string | undefined
}

export const UNREADABLE_SCRIPT_DESCRIPTION = "runs a local script that cannot be read before it runs"
export const RUNTIME_HOME_LINK_DESCRIPTION = "path leads into the runtime's home (config, approvals, skills)"
/** Same key as the pure rule for `mv /`, `mv ~`, `mv ..`: one allowlist key for the class. */
export const MOVE_DIRECTORY_DESCRIPTION = D.moveDir
export const UNKNOWN_PROJECT_DIR_DESCRIPTION = "runs project scripts (make, npm) in a directory not known before it runs"

/** Scripts larger than this are not read: judged unreadable. */
export const MAX_SCRIPT_BYTES = 2 * 1024 * 1024
/** Scripts a script runs are followed this deep. */
const MAX_SCRIPT_DEPTH = 3
/** At most this many scripts and paths are looked at per command; past that, the command is judged unknown. */
const MAX_LOOKS = 32

const SAFE: Detection = { dangerous: false, description: null, hardline: false, hardline_description: null }

const dangerous = (description: string): Detection => ({ ...SAFE, dangerous: true, description })

const SHEBANG: ReadonlyArray<readonly [RegExp, CodeLanguage]> = [
  [/\b(?:ba|da|z|k|fi)?sh\b/, "shell"],
  [/\bpython[\d.]*\b/, "python"],
  [/\b(?:node|nodejs|deno|bun)\b/, "node"],
  [/\bperl[\d.]*\b/, "perl"],
  [/\bruby[\d.]*\b/, "ruby"],
  [/\bphp[\d.]*\b/, "php"]
]

/** A file run as a program: its `#!` line says how it is read; none means the shell (execve falls back to sh). */
const languageOf = (ref: ScriptRef, text: string): CodeLanguage | "binary" => {
  if (text.includes("\u0000")) return "binary"
  if (ref.language !== "unknown") return ref.language
  const first = text.startsWith("#!") ? text.slice(0, text.indexOf("\n") >>> 0) : ""
  for (const [re, language] of SHEBANG) if (re.test(first)) return language
  return "shell"
}

const joinPath = (cwd: string, path: string, home: string | undefined): string => {
  if (path === "~" && home !== undefined) return home
  if (path.startsWith("~/") && home !== undefined) return `${home}/${path.slice(2)}`
  return path.startsWith("/") ? path : `${cwd.replace(/\/+$/, "")}/${path}`
}

const normalize = (path: string): string => {
  const parts: Array<string> = []
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue
    if (part === "..") parts.pop()
    else parts.push(part)
  }
  return `/${parts.join("/")}`
}

const under = (path: string, dir: string): boolean => path === dir || path.startsWith(`${dir}/`)

/** The stronger of two verdicts: hardline over dangerous over safe; the first finding of each kind is kept. */
const stronger = (a: Verdict, b: Verdict): Verdict => {
  if (a.detection.hardline) return a
  if (b.detection.hardline) return { detection: { ...b.detection, dangerous: true }, note: b.note }
  if (a.detection.dangerous) return a
  return b.detection.dangerous ? b : a
}

export const judgeRequest = (
  request: CommandApprovalRequest,
  env: DetectionEnv,
  detectors: Detectors
): Effect.Effect<Verdict> => {
  const language = request.language ?? "shell"
  if (language !== "shell") return Effect.succeed({ detection: detectors.detectCode(language, request.command, env) })
  const surroundings = request.surroundings
  const first = detectors.inspect(request.command, env)
  // Nothing to look at, or nothing to look with: the text's own verdict (unknowns already count as dangerous).
  if (surroundings === undefined) return Effect.succeed({ detection: first.detection })
  if (first.detection.hardline) return Effect.succeed({ detection: first.detection })
  const nothingToLook =
    first.unresolved.length === 0 && first.scripts.length === 0 && first.paths.length === 0 &&
    first.runners.length === 0 && first.moves.length === 0
  if (nothingToLook) {
    return Effect.succeed({ detection: first.detection })
  }
  return judgeWith(request.command, first, env, detectors, surroundings)
}

const judgeWith = (
  command: string,
  first: Inspection,
  env: DetectionEnv,
  detectors: Detectors,
  surroundings: CommandSurroundings
): Effect.Effect<Verdict> =>
  Effect.gen(function*() {
    let variables: Readonly<Record<string, string>> | undefined
    let inspection = first
    if (first.unresolved.length > 0) {
      variables = yield* surroundings.variables
      inspection = detectors.inspect(command, { ...env, variables })
    }
    const cwd = yield* surroundings.cwd
    const scriptEnv = variables === undefined ? env : { ...env, variables }
    let verdict: Verdict = { detection: inspection.detection }
    if (verdict.detection.hardline) return verdict
    if (inspection.scripts.length + inspection.paths.length + inspection.runners.length > MAX_LOOKS) {
      return stronger(verdict, { detection: dangerous(UNREADABLE_SCRIPT_DESCRIPTION), note: "too many scripts and paths to look at" })
    }
    verdict = stronger(verdict, yield* judgeScripts(inspection.scripts, cwd, scriptEnv, detectors, surroundings, 1))
    if (verdict.detection.hardline) return verdict
    verdict = stronger(verdict, yield* judgeRunners(inspection.runners, cwd, scriptEnv, detectors, surroundings))
    if (verdict.detection.hardline) return verdict
    // A directory moved from outside the working directory is gone from where everything expects it;
    // renaming one inside the project (`mv build dist`) is ordinary work.
    for (const source of inspection.moves) {
      if (source === COMPUTED_MOVE) {
        verdict = stronger(verdict, { detection: dangerous(MOVE_DIRECTORY_DESCRIPTION), note: "what it moves is computed at run time" })
        break
      }
      const path = normalize(joinPath(cwd, source, env.home))
      if (under(path, normalize(cwd))) continue
      if (yield* surroundings.isDirectory(path)) {
        verdict = stronger(verdict, { detection: dangerous(MOVE_DIRECTORY_DESCRIPTION), note: `${source} is a directory` })
        break
      }
    }
    if (surroundings.sharesHostFiles && env.hermesHome !== undefined) {
      const home = normalize(env.hermesHome)
      for (const path of inspection.paths) {
        const real = normalize(yield* surroundings.realPath(joinPath(cwd, path, env.home)))
        if (under(real, home)) {
          verdict = stronger(verdict, { detection: dangerous(RUNTIME_HOME_LINK_DESCRIPTION), note: `${path} → ${real}` })
          break
        }
      }
    }
    return verdict
  })

const judgeScripts = (
  scripts: ReadonlyArray<ScriptRef>,
  cwd: string,
  env: DetectionEnv,
  detectors: Detectors,
  surroundings: CommandSurroundings,
  depth: number
): Effect.Effect<Verdict> =>
  Effect.gen(function*() {
    let verdict: Verdict = { detection: SAFE }
    for (const ref of scripts) {
      const path = joinPath(cwd, ref.path, env.home)
      const text = ref.language === "unknown" && ref.path.includes("$")
        ? Option.none<string>()
        : yield* surroundings.readText(path, MAX_SCRIPT_BYTES)
      if (Option.isNone(text)) {
        verdict = stronger(verdict, { detection: dangerous(UNREADABLE_SCRIPT_DESCRIPTION), note: `script ${ref.path}` })
        continue
      }
      const language = languageOf(ref, text.value)
      // A compiled program is judged like any other program: by how it is invoked, not by its bytes.
      if (language === "binary") continue
      const note = `in script ${ref.path}`
      if (language !== "shell") {
        verdict = stronger(verdict, { detection: detectors.detectCode(language, text.value, env), note })
      } else {
        const inner = detectors.inspect(text.value, env)
        verdict = stronger(verdict, { detection: inner.detection, note })
        if (depth < MAX_SCRIPT_DEPTH && inner.scripts.length > 0 && !verdict.detection.hardline) {
          verdict = stronger(verdict, yield* judgeScripts(inner.scripts, cwd, env, detectors, surroundings, depth + 1))
        }
      }
      if (verdict.detection.hardline) return verdict
    }
    return verdict
  })

/**
 * `make` and `npm test`-style commands run shell text kept in project files
 * (Makefile recipes, package.json scripts) that a model could have written:
 * that text is judged as if typed. A missing or unparsable file makes the
 * runner fail before it runs anything, so it adds nothing.
 */
const judgeRunners = (
  runners: ReadonlyArray<RunnerRef>,
  cwd: string,
  env: DetectionEnv,
  detectors: Detectors,
  surroundings: CommandSurroundings
): Effect.Effect<Verdict> =>
  Effect.gen(function*() {
    let verdict: Verdict = { detection: SAFE }
    for (const ref of runners) {
      if (!ref.sure) {
        verdict = stronger(verdict, { detection: dangerous(UNKNOWN_PROJECT_DIR_DESCRIPTION) })
        continue
      }
      const dir = joinPath(cwd, ref.dir, env.home)
      const { runner } = ref
      let text: string | null = null
      let source = ""
      if (runner.kind === "make") {
        for (const name of runner.files) {
          const file = yield* surroundings.readText(joinPath(dir, name, env.home), MAX_SCRIPT_BYTES)
          if (Option.isSome(file)) {
            text = makeRecipes(file.value, runner.targets)
            source = name
            break
          }
        }
      } else {
        const file = yield* surroundings.readText(joinPath(dir, "package.json", env.home), MAX_SCRIPT_BYTES)
        if (Option.isSome(file)) {
          text = packageScriptText(file.value, runner.scripts)
          source = "package.json"
        }
      }
      if (text === null || text.trim() === "") continue
      const inner = detectors.inspect(text, env)
      verdict = stronger(verdict, { detection: inner.detection, note: `in ${source} of ${ref.dir}` })
      if (verdict.detection.hardline) return verdict
      // Scripts the recipes run are read as well (`make` → `./deploy.sh`).
      if (inner.scripts.length > 0) {
        verdict = stronger(verdict, yield* judgeScripts(inner.scripts, dir, env, detectors, surroundings, 2))
      }
    }
    return verdict
  })
