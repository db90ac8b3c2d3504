/**
 * The verdict for one approval request, looking into the task's environment
 * where the text alone cannot tell: a command word held in a variable the
 * task exported earlier, a local script the command runs (its text is judged
 * before it runs), a path that leads into the runtime's home through a
 * symlink. Detection itself stays pure; this is the only part that reads.
 * Whatever cannot be read is judged dangerous: fail closed.
 */
import { posix } from "node:path"
import { Effect, Option } from "effect"
import type { CodeLanguage, CommandApprovalRequest, CommandSurroundings, Detection } from "../../../services/Approval.js"
import { D, PARSER_LIMIT_DESCRIPTION, UNREADABLE_SCRIPT_DESCRIPTION } from "../detect/descriptions.js"
import type { DetectionEnv } from "../detect/detectionEnv.js"
import type { Inspection } from "../detect/detect.js"
import type { GitDirRef, LoadedModule, RunnerRef } from "../detect/resolve/localFiles.js"
import type { ScriptRef } from "../detect/resolve/resolver.js"
import {
  dotenvAssignments,
  ARCHIVE_PATH,
  ctestFile,
  INSTALL_SCRIPTS,
  localDependencies,
  makeRecipes,
  ninjaCommands,
  npmrcAssignments,
  packageScriptText,
  pytestConfigPlugins,
  workspacePatterns,
  yarnPath
} from "./projectRunners.js"
import { isStdinPath } from "../detect/resolve/codeSources.js"
import type { PipSource } from "../detect/resolve/pipBuilds.js"
import { projectMetadata, requirementLines, requirementPath } from "../detect/resolve/pipBuilds.js"
import { PYTEST_CONFIGS } from "../detect/resolve/localFiles.js"
import { exCommands, exShellText } from "../detect/editorCommands.js"
import { consoleText, isConsole } from "../detect/consoleCommands.js"
import { inputCommands } from "../detect/inputCommands.js"
import { gitConfigJudged, implicitlyExecuted, otherUsersHome } from "../detect/implicitExec.js"
import { PLANTABLE, PLANTABLE_HOME } from "../detect/rules/operands.js"
import { patchTargets } from "./patchTargets.js"
import { gitConfigText } from "./gitConfigText.js"
import { cacheDirs, cacheFor, extensionModuleFor, PYC_HEADER_BYTES, pythonSource, uncheckedHashPyc } from "./compiledModules.js"
import type { InstalledPythonMemo, Remembered } from "./installedPython.js"
import { installedPython } from "./installedPython.js"
import { codeSearchDirs, MODULE_PATH_VARIABLES, moduleFileCandidates } from "../detect/code/localImports.js"
import { PERL_LIBRARY_MODULES, PYTHON_LIBRARY_MODULES } from "../detect/code/libraryModules.js"
import { hasTraversalComponent } from "../../../lib/pathSafety.js"
import { lookupTable } from "../../../lib/lookupTable.js"
import { asCommandSees, globMatches, hasGlob, intoOtherProcess } from "../detect/pathClasses.js"

export type { Inspection } from "../detect/detect.js"
export type { ScriptRef } from "../detect/resolve/resolver.js"

/** The pure detectors judge uses (the approval layer passes the real ones). */
export interface Detectors {
  readonly inspect: (command: string, env: DetectionEnv & { readonly variables?: Readonly<Record<string, string>> }) => Inspection
  readonly detectCode: (language: CodeLanguage, text: string, env: DetectionEnv) => Detection
  /** The file paths a program spells as literals: the judge looks where they lead. */
  readonly codePaths: (language: CodeLanguage, text: string) => ReadonlyArray<string>
  /** Files a python/node program loads from beside itself (relative candidates). */
  readonly localImports: (language: CodeLanguage, text: string) => ReadonlyArray<string>
  /** Files a program loads by module name from a directory of its module search path (relative candidates). */
  readonly searchPathModules: (language: CodeLanguage, text: string) => ReadonlyArray<string>
  /** PATH directories the operator's own programs come from: a program found there is judged by its name. */
  readonly trustedPathDirs: ReadonlyArray<string>
}

export interface Verdict {
  readonly detection: Detection
  /** Where the finding came from when it is not the command itself (shown to the approver, not part of the key). */
  readonly note?: string | undefined
}

export { UNREADABLE_SCRIPT_DESCRIPTION }
export const RUNTIME_HOME_LINK_DESCRIPTION = "path leads into the runtime's home (config, approvals, skills)"
/** Same key as the pure rule for `mv /`, `mv ~`, `mv ..`: one allowlist key for the class. */
export const MOVE_DIRECTORY_DESCRIPTION = D.moveDir
export const UNINSTALLED_BINARY_DESCRIPTION = "runs a compiled program that is not an installed one (its bytes tell nothing)"
export const PLANTED_PROGRAM_DESCRIPTION = "runs a program from a directory the task put on PATH"
export const UNKNOWN_SCRIPT_DIR_DESCRIPTION = "runs a script by a relative path from a directory not known before it runs"
export const UNKNOWN_PROJECT_DIR_DESCRIPTION = "runs project scripts (make, npm) in a directory not known before it runs"
export const HARD_LINKED_WRITE_DESCRIPTION =
  "writes a file that has other names (hard links): what else the write changes cannot be seen"
export const UNKNOWN_GLOB_WRITE_DESCRIPTION = "writes to files a pattern names, too many or not listable before it runs"
export const OTHER_PROCESS_VIEW_DESCRIPTION = "writes through another process's directory (/proc/<pid>/cwd or root)"
export const PROJECT_CODE_DESCRIPTION =
  "runs commands or code kept in a project file the gate does not read (a task runner's: justfile, Taskfile, noxfile.py, tasks.py, Rakefile, tox.ini, deno tasks, pre-commit's config; a linter's hooks or plugins; uv's local sources; a Gradle, Maven, sbt, mix, Swift, Meson or Bazel build)"
export const PLANTED_GIT_CONFIG_DESCRIPTION =
  "runs git with hooks or configuration it reads from files whose writes are not judged as git's (core.hooksPath naming another folder, an included file)"
export const PLANTED_REPOSITORY_DESCRIPTION =
  "runs git in a repository whose configuration is not under a .git directory (a bare repository, or a .git file, link or commondir pointing elsewhere)"

/** Git configuration files read for one git command (its own, the user's, the system's and what they include). */
const MAX_GIT_CONFIGS = 16
const MAX_GIT_INCLUDE_DEPTH = 4
/** Files in a hooks folder read for one git command; a fuller folder needs approval. */
const MAX_HOOK_FILES = 48
/** Scripts larger than this are not read: judged unreadable. */
export const MAX_SCRIPT_BYTES = 2 * 1024 * 1024
/** Scripts a script runs are followed this deep. */
const MAX_SCRIPT_DEPTH = 3
/** Requirement files one pip command reads, nested ones included; more ask. */
const MAX_REQUIREMENT_FILES = 32
/** At most this many scripts and paths are looked at per command; past that, the command is judged unknown. */
const MAX_LOOKS = 32
/** At most this many files are read for one request; past that, what is left counts as unreadable. */
const MAX_FILES = 64
/** Bytecode cache headers read for one request; past that, a module with a cache needs approval. */
const MAX_PYC_HEADERS = 64
/** Files named like library modules read from one folder (more cannot all be judged: the command is asked about). */
const MAX_SHADOWING = 48
/** `File`, `File::Spec`: the folders perl's library modules live in (a planted `File/Basename.pm` is found there). */
const PERL_LIBRARY_PREFIXES: ReadonlySet<string> = new Set(
  [...PERL_LIBRARY_MODULES].flatMap((m) => m.split("::").slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join("::")))
)
/** Path literals looked up for one request (a test suite's files included); past that, the request needs approval. */
const MAX_CODE_PATH_LOOKS = 2048
/** A test runner's walk reads at most this many test files and conftests; a larger suite needs approval. */
const MAX_TEST_FILES = 400
/** And lists at most this many directories, this deep. */
const MAX_TEST_DIRS = 400
const MAX_TEST_DEPTH = 8
/** pytest's default `norecursedirs` (and a venv's packages): never collected. */
/** Local packages of one package.json read for their install scripts (more ask: a project rarely has many). */
const MAX_LOCAL_PACKAGES = 64
/** Makefile and build.ninja lines that pull in another file. */
const MAKE_INCLUDE = /^\s*-?(?:include|sinclude)\s+(.+)$/
const NINJA_INCLUDE = /^(?:include|subninja)\s+(.+)$/
const NOT_COLLECTED = /^(?:\..*|.*\.egg|_darcs|build|CVS|dist|node_modules|venv|\{arch\}|__pycache__|site-packages)$/

/** A rule line's targets (`a b: deps`, not `x := v`, not a recipe line). */
const RULE_TARGETS = /^([^\t#:=][^:=]*?)\s*::?(?!=)/

/** Whether a makefile text has a rule whose target (a name, or a `%` pattern) is `name`. */
const remadeByRules = (text: string, name: string): boolean => {
  const bare = name.replace(/^\.\//, "")
  for (const line of text.split("\n")) {
    const m = RULE_TARGETS.exec(line)
    if (m === null) continue
    for (const target of (m[1] ?? "").trim().split(/\s+/)) {
      if (target === bare || target === name) return true
      if (target.includes("%")) {
        const at = target.indexOf("%")
        if (bare.startsWith(target.slice(0, at)) && bare.endsWith(target.slice(at + 1)) && bare.length >= target.length - 1) return true
      }
    }
  }
  return false
}

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

/** The `#!` line of a file run as a program, without the `#!`; "" when it has none. */
const shebangOf = (text: string): string => (text.startsWith("#!") ? text.slice(2, text.indexOf("\n") >>> 0).trim() : "")

/**
 * A file run as a program: its `#!` line says how it is read; none means the shell (execve falls back to sh). An
 * interpreter the gate does not read (`#!/usr/bin/tclsh`, `#!/usr/bin/make -f`) is "opaque".
 */
const languageOf = (ref: ScriptRef, text: string): CodeLanguage | "binary" | "opaque" => {
  if (text.includes("\u0000")) return "binary"
  if (ref.language !== "unknown") return ref.language
  const first = shebangOf(text)
  if (first === "") return "shell"
  // The program the kernel starts, past `env` and its options (`env -S python3 -u`, `env VAR=1 node`).
  const words = first.split(/\s+/)
  let k = 0
  if (posix.basename(words[0] ?? "") === "env") {
    k = 1
    while (k < words.length && (/^-/.test(words[k] ?? "") || (words[k] ?? "").includes("="))) k += words[k] === "-u" ? 2 : 1
  }
  const program = posix.basename(words[k] ?? "")
  for (const [re, language] of SHEBANG) if (re.test(program)) return language
  return "opaque"
}

const joinPath = (cwd: string, written: string, home: string | undefined): string => {
  // `/proc/self/cwd/x` opened by the command (or code it runs) is `./x` where it stands, not where the runtime does.
  const path = asCommandSees(written)
  if (path === "~" && home !== undefined) return home
  if (path.startsWith("~/") && home !== undefined) return `${home}/${path.slice(2)}`
  return path.startsWith("/") ? path : `${cwd.replace(/\/+$/, "")}/${path}`
}

/** Absolute, `.`/`..` folded, no trailing slash (a relative path counts from `/`). */
const normalize = (path: string): string => posix.resolve("/", path)

/**
 * Where the kernel lands on a path, normalised: `..` after a symlink climbs from where the link points (`i/..` with
 * `i` → `/x/y` is `/x`), which folding the text would put beside `i`. Only a path with `..` costs a look-up.
 */
const landing = (surroundings: CommandSurroundings, path: string): Effect.Effect<string> =>
  hasTraversalComponent(path) ? Effect.map(surroundings.realPath(path), normalize) : Effect.succeed(normalize(path))

const under = (path: string, dir: string): boolean => path === dir || path.startsWith(`${dir}/`)

/** What a rewritten file is, by its reader, for the approver. */
const WRITTEN_NOTE: Readonly<Record<string, string>> = lookupTable({
  "pytest-conftests": "a conftest.py pytest imports for",
  "pip-project": "a build file of the local project",
  "pip-requirements": "requirements file"
})

/** A local source pip builds, as the folder (or packed file) the judge looks into. */
const pipSourceRef = (source: PipSource): ScriptRef => ({
  path: source.path,
  language: source.kind === "project" ? "python" : "unknown",
  optional: true,
  reader: source.kind === "project" ? "pip-project" : "pip-packed"
})

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
  detectors: Detectors,
  /** What the approval layer keeps across requests (installed Python packages per environment); none: all is looked up. */
  memo?: InstalledPythonMemo
): Effect.Effect<Verdict> => {
  const remembered = memo === undefined ? undefined : { memo, environment: `${request.backend.kind}/${request.context.taskId}` }
  // The caller could not tell how the text will be read: it asks, unless the text is worse (a hardline) on its own.
  const uncertain = request.uncertain
  if (uncertain === undefined) return judgeText(request, env, detectors, remembered)
  return Effect.map(judgeText(request, env, detectors, remembered), (verdict) => stronger(verdict, { detection: dangerous(uncertain) }))
}

const judgeText = (
  request: CommandApprovalRequest,
  env: DetectionEnv,
  detectors: Detectors,
  remembered: Remembered | undefined
): Effect.Effect<Verdict> => {
  const language = request.language ?? "shell"
  // Typed into a console: its shell escapes ask, and the commands they spell out are judged as shell.
  if (isConsole(language)) {
    const found = consoleText(language, request.command)
    const inner = detectors.inspect(exShellText(found).join("\n"), env).detection
    return Effect.succeed({ detection: found.runs && !inner.hardline ? dangerous(D.consoleCommands) : inner })
  }
  if (language === "opaque") return Effect.succeed({ detection: dangerous(D.opaqueCode) })
  if (language !== "shell") return judgeTypedCode(request, language, env, detectors, remembered)
  const held = request.surroundings?.shellFunctions
  // A persistent shell: the functions earlier commands left in it are names this line may call.
  if (held !== undefined) {
    return Effect.flatMap(held, (functions) =>
      judgeShellText(request, functions === undefined ? env : { ...env, shellFunctions: functions, shellKeepsVariables: true }, detectors, remembered)
    )
  }
  return judgeShellText(request, env, detectors, remembered)
}

/** How each language runs a file, for judging typed code as the script it amounts to. */
const TYPED_AS_SCRIPT: Readonly<Record<Exclude<CodeLanguage, "shell">, { readonly program: string; readonly ext: string }>> = {
  python: { program: "python3", ext: ".py" },
  node: { program: "node", ext: ".js" },
  perl: { program: "perl", ext: ".pl" },
  ruby: { program: "ruby", ext: ".rb" },
  php: { program: "php", ext: ".php" }
}

/**
 * Code typed into a REPL or debugger: its own text, and what it loads by name from where its reader stands (a REPL
 * imports from its working directory as a script does from beside itself: `import evil` runs a planted `evil.py`,
 * `import json` a planted `json.py`). It is judged as a script file of that text in the reader's directory, which
 * the surroundings serve from memory, so its imports are read as any script's are.
 */
const judgeTypedCode = (
  request: CommandApprovalRequest,
  language: Exclude<CodeLanguage, "shell">,
  env: DetectionEnv,
  detectors: Detectors,
  remembered: Remembered | undefined
): Effect.Effect<Verdict> => {
  const own: Verdict = { detection: detectors.detectCode(language, request.command, env) }
  const surroundings = request.surroundings
  if (surroundings === undefined || own.detection.dangerous) return Effect.succeed(own)
  return Effect.flatMap(surroundings.cwd, (cwd) => {
    const { program, ext } = TYPED_AS_SCRIPT[language]
    const path = posix.join(cwd, `.hermes-typed-input${ext}`)
    const text = request.command
    const typed: CommandSurroundings = {
      ...surroundings,
      readText: (p, maxBytes) =>
        p === path ? Effect.succeed(Buffer.byteLength(text) <= maxBytes ? Option.some(text) : Option.none()) : surroundings.readText(p, maxBytes),
      realPath: (p) => (p === path ? Effect.succeed(p) : surroundings.realPath(p)),
      fileKind: (p) => (p === path ? Effect.succeed("file" as const) : surroundings.fileKind(p))
    }
    const asScript: CommandApprovalRequest = { ...request, command: `${program} '${path.replace(/'/g, "'\\''")}'`, language: "shell", surroundings: typed }
    return Effect.map(judgeShellText(asScript, env, detectors, remembered), (verdict) => stronger(own, verdict))
  })
}

const judgeShellText = (
  request: CommandApprovalRequest,
  env: DetectionEnv,
  detectors: Detectors,
  remembered: Remembered | undefined
): Effect.Effect<Verdict> => {
  const surroundings = request.surroundings
  // Nothing to look with: the text's own verdict (unknowns already count as dangerous).
  if (surroundings === undefined) return Effect.succeed({ detection: detectors.inspect(request.command, env).detection })
  // Where the shell stands decides what a relative operand deletes (`rm -rf *` in `/`).
  return Effect.flatMap(surroundings.cwd, (cwd) =>
    judgeFrom(request, { ...env, cwd, runtimeProcess: surroundings.runtimeProcess }, detectors, surroundings, remembered))
}

const judgeFrom = (
  request: CommandApprovalRequest,
  env: DetectionEnv,
  detectors: Detectors,
  surroundings: CommandSurroundings,
  remembered: Remembered | undefined
): Effect.Effect<Verdict> => {
  const first = detectors.inspect(request.command, env)
  if (first.detection.hardline) return Effect.succeed({ detection: first.detection })
  const looks = looksNeeded(first)
  if (looks === "none") return Effect.succeed({ detection: first.detection })
  if (looks === "more") return judgeWith(request.command, first, env, detectors, surroundings, remembered)
  // Most commands: only their program names to look up, which matters only where the task's PATH (or the line)
  // adds a directory to find them in. The usual PATH adds none, and the text's verdict stands without the full look.
  return Effect.flatMap(surroundings.variables, (variables) =>
    Effect.flatMap(
      addedPathDirs(variables?.["PATH"], first.pathDirs, env.cwd ?? "/", env, detectors.trustedPathDirs, surroundings),
      (added) =>
        added.length === 0
          ? Effect.succeed({ detection: first.detection })
          : judgeWith(request.command, first, env, detectors, surroundings, remembered, { variables, added })
    ))
}

/** What the text alone leaves to look at: nothing, only the programs it names, or more (judgeWith). */
const looksNeeded = (first: Inspection): "none" | "programs" | "more" => {
  const rest = first.unresolved.length === 0 && first.scripts.length === 0 && first.paths.length === 0 &&
    first.runners.length === 0 && first.moves.length === 0 && !first.computedMove && first.gitDirs.length === 0 &&
    first.startWrites.length === 0 && !first.startFills && first.patchInputs.length === 0
  if (!rest) return "more"
  if (first.programs.length === 0) return "none"
  return first.writes.length === 0 && first.loadedModules.length === 0 && !first.programsCapped ? "programs" : "more"
}

const SYSTEM_PATH_DIRS = ["/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin", "/usr/games", "/usr/local/games", "/snap/bin"]

/**
 * The operator's program directories: the system ones and the absolute
 * entries of the runtime's own PATH at start (its node, its tools), except
 * node_modules/.bin folders. Relative entries are never trusted: they mean
 * whatever directory a command is in.
 */
export const trustedPathDirs = (path: string | undefined): ReadonlyArray<string> => {
  const out = [...SYSTEM_PATH_DIRS]
  for (const entry of (path ?? "").split(":")) {
    if (!entry.startsWith("/")) continue
    const dir = normalize(entry)
    // `npx hermes-effect` puts the project's node_modules/.bin on PATH: a folder a tool can write to.
    if (dir.endsWith("/node_modules/.bin")) continue
    if (!out.includes(dir)) out.push(dir)
  }
  return out
}

/** A PATH entry that cannot be known before the command runs. */
const UNKNOWN_DIR = "$unknown"

/** PATH entries a program may come from that the operator did not put there (relative ones are the cwd's). */
const addedPathDirs = (
  path: string | undefined,
  lineDirs: ReadonlyArray<string>,
  cwd: string,
  env: DetectionEnv,
  trusted: ReadonlyArray<string>,
  surroundings: CommandSurroundings
): Effect.Effect<ReadonlyArray<string>> => {
  // The task's own PATH, as most commands meet it: the answer of the last call with the same inputs (pure).
  const remembered = lineDirs.length === 0 ? lastPathDirs : undefined
  if (remembered !== undefined && remembered.path === path && remembered.cwd === cwd && remembered.home === env.home && remembered.trusted === trusted) {
    return Effect.succeed(remembered.added)
  }
  // In PATH order (the first directory holding a name is the one the shell runs); a look-up only for entries with `..`.
  const entries: Array<string | Effect.Effect<string>> = []
  let lookUps = false
  for (const raw of [...lineDirs, ...(path ?? "").split(":")]) {
    const entry = raw.replace(/\$\{?PWD\}?(?![A-Za-z0-9_])/g, cwd)
    // Still holding an expansion: a directory only known when the command runs (a variable an earlier call left).
    if (entry.includes("$")) {
      entries.push(UNKNOWN_DIR)
      continue
    }
    const written = joinPath(cwd, entry === "" ? "." : entry, env.home)
    if (hasTraversalComponent(written)) {
      lookUps = true
      entries.push(landing(surroundings, written))
    } else {
      entries.push(normalize(written))
    }
  }
  const added = (dirs: ReadonlyArray<string>): ReadonlyArray<string> => {
    const out: Array<string> = []
    for (const dir of dirs) if ((dir === UNKNOWN_DIR || !trusted.includes(dir)) && !out.includes(dir)) out.push(dir)
    return out
  }
  if (lookUps) return Effect.map(Effect.forEach(entries, (e) => (typeof e === "string" ? Effect.succeed(e) : e)), added)
  const answer = added(entries as ReadonlyArray<string>)
  // Only an answer the text alone gave (no look-up: where a `..` lands can change between calls).
  if (lineDirs.length === 0) lastPathDirs = { path, cwd, home: env.home, trusted, added: answer }
  return Effect.succeed(answer)
}

/** addedPathDirs' last answer for a task PATH with no `..` in it (one entry: a task's PATH rarely changes). */
let lastPathDirs:
  | {
    readonly path: string | undefined
    readonly cwd: string
    readonly home: string | undefined
    readonly trusted: ReadonlyArray<string>
    readonly added: ReadonlyArray<string>
  }
  | undefined

/**
 * Directories each language searches for modules before its own library:
 * those a module search path variable names in the line, then the task's
 * exported value. Entries only known at run time are left out.
 */
const moduleSearchDirs = (
  inspection: Inspection,
  variables: Readonly<Record<string, string>> | undefined,
  cwd: string,
  env: DetectionEnv,
  surroundings: CommandSurroundings
): Effect.Effect<ReadonlyMap<CodeLanguage, ReadonlyArray<string>>> =>
  Effect.gen(function*() {
    const out = new Map<CodeLanguage, ReadonlyArray<string>>()
    for (const [language, names] of Object.entries(MODULE_PATH_VARIABLES) as Array<[CodeLanguage, ReadonlyArray<string>]>) {
      const dirs: Array<string> = []
      for (const name of names) {
        const entries = [...inspection.moduleDirs.filter((m) => m.variable === name).map((m) => m.dir), ...(variables?.[name] ?? "").split(":")]
        for (const entry of entries) {
          if (entry === "" || entry.includes("$")) continue
          const dir = yield* landing(surroundings, joinPath(cwd, entry, env.home))
          if (!dirs.includes(dir)) dirs.push(dir)
        }
      }
      if (dirs.length > 0) out.set(language, dirs)
    }
    return out
  })

/** Exported names that change how the shell reads a line without naming them: patterns, `cd NAME`, splitting. */
const SHELL_READING: ReadonlyArray<string> = ["GLOBIGNORE", "CDPATH", "IFS", "BASHOPTS", "SHELLOPTS"]

const judgeWith = (
  command: string,
  first: Inspection,
  env: DetectionEnv,
  detectors: Detectors,
  surroundings: CommandSurroundings,
  remembered: Remembered | undefined,
  /** What judgeFrom already read for a line whose only look-up is its programs (none unresolved: `first` stands). */
  known?: { readonly variables: Readonly<Record<string, string>> | undefined; readonly added: ReadonlyArray<string> }
): Effect.Effect<Verdict> =>
  Effect.gen(function*() {
    let variables: Readonly<Record<string, string>> | undefined = known?.variables
    let inspection = first
    if (known === undefined && (first.unresolved.length > 0 || first.programs.length > 0 || first.scripts.length > 0)) {
      variables = yield* surroundings.variables
    }
    // The first look asks for the exports where a `$` word or an environment-dependent check needs them (unresolved);
    // exports that change how the shell reads any line (GLOBIGNORE, CDPATH, IFS…) are looked at again whatever it asked.
    if (variables !== undefined && (first.unresolved.length > 0 || SHELL_READING.some((n) => Object.hasOwn(variables, n)))) {
      inspection = detectors.inspect(command, { ...env, variables })
    }
    const cwd = yield* surroundings.cwd
    const scriptEnv = variables === undefined ? env : { ...env, variables }
    let verdict: Verdict = { detection: inspection.detection }
    if (verdict.detection.hardline) return verdict
    const looks = inspection.scripts.length + inspection.paths.length + inspection.runners.length + inspection.moves.length
    if (looks > MAX_LOOKS) {
      return stronger(verdict, { detection: dangerous(UNREADABLE_SCRIPT_DESCRIPTION), note: "too many scripts and paths to look at" })
    }
    const prefix = variables?.["PYTHONPYCACHEPREFIX"]
    const pycachePrefix = prefix === undefined || prefix === "" || prefix.includes("$") ? undefined : joinPath(cwd, prefix, env.home)
    const written = new Set(inspection.writes.map((w) => normalize(joinPath(cwd, w, env.home))))
    const look = new Looker(scriptEnv, detectors, surroundings, yield* moduleSearchDirs(inspection, variables, cwd, env, surroundings), pycachePrefix, written, remembered)
    verdict = stronger(verdict, yield* look.scripts(inspection.scripts, cwd, 1))
    if (verdict.detection.hardline) return verdict
    verdict = stronger(verdict, yield* look.loadedModules(inspection.loadedModules))
    if (verdict.detection.hardline) return verdict
    const added = known?.added ?? (yield* addedPathDirs(variables?.["PATH"], inspection.pathDirs, cwd, env, detectors.trustedPathDirs, surroundings))
    verdict = stronger(verdict, yield* look.planted(inspection.programs, added))
    // Programs the look above could not cover: too many to list, or a directory only known at run time.
    if (added.length > 0 && (inspection.programsCapped || (added.includes(UNKNOWN_DIR) && inspection.programs.length > 0))) {
      verdict = stronger(verdict, {
        detection: dangerous(PLANTED_PROGRAM_DESCRIPTION),
        note: inspection.programsCapped ? "more programs than can be looked up" : "a PATH directory only known when the command runs"
      })
    }
    if (verdict.detection.hardline) return verdict
    verdict = stronger(verdict, yield* look.runners(inspection.runners, cwd))
    if (verdict.detection.hardline) return verdict
    verdict = stronger(verdict, yield* look.repositories(inspection.gitDirs, cwd))
    // A directory moved from outside the working directory is gone from where everything expects it;
    // renaming one inside the project (`mv build dist`) is ordinary work.
    if (inspection.computedMove) {
      verdict = stronger(verdict, { detection: dangerous(MOVE_DIRECTORY_DESCRIPTION), note: "what it moves is computed at run time" })
    }
    for (const source of inspection.moves) {
      const raw = joinPath(cwd, source, env.home)
      const path = yield* landing(surroundings, raw)
      // Climbed through a link: compared with where the working directory really is.
      const inside = hasTraversalComponent(raw) ? normalize(yield* surroundings.realPath(cwd)) : normalize(cwd)
      if (under(path, inside)) continue
      if ((yield* surroundings.fileKind(path)) === "directory") {
        verdict = stronger(verdict, { detection: dangerous(MOVE_DIRECTORY_DESCRIPTION), note: `${source} is a directory` })
        break
      }
    }
    // Relative writes land where the command starts: a `cd .git/hooks` in an earlier call makes `cp x pre-commit`
    // a hook, which the rules (that never know the directory) cannot see.
    const fills = !inspection.startFills ? [] : env.home !== undefined && normalize(cwd) === normalize(env.home) ? PLANTABLE_HOME : PLANTABLE
    for (const written of [...inspection.startWrites, ...fills]) {
      const path = yield* landing(surroundings, joinPath(cwd, written, env.home))
      const description = implicitlyExecuted(path, { home: env.home, hermesHome: env.hermesHome })
      if (description !== null && !otherUsersHome(path, env.home)) {
        verdict = stronger(verdict, { detection: dangerous(description), note: `${written} in ${cwd}` })
        break
      }
    }
    // `patch` writes the names inside its diff, which only a read of the diff where the command starts shows.
    const patched = inspection.patchInputs.length === 0 ? null : yield* patchTargets(surroundings, env, cwd, inspection.patchInputs)
    if (patched !== null) verdict = stronger(verdict, { detection: dangerous(patched.description), note: patched.note })
    // Writes through another name: a symlink an earlier call made, `..` after one, a hard link.
    if (!verdict.detection.dangerous) verdict = stronger(verdict, yield* linkedWrites(surroundings, env, cwd, inspection.writes, "writes"))
    // On a backend sharing the host's files, a path may lead into the runtime's home through a symlink.
    if (surroundings.sharesHostFiles && env.hermesHome !== undefined && inspection.paths.length > 0) {
      const home = normalize(env.hermesHome)
      const reals = yield* Effect.forEach(inspection.paths, (path) => surroundings.realPath(joinPath(cwd, path, env.home)), { batching: true })
      const k = reals.findIndex((real) => under(normalize(real), home))
      if (k >= 0) verdict = stronger(verdict, { detection: dangerous(RUNTIME_HOME_LINK_DESCRIPTION), note: `${inspection.paths[k]} → ${normalize(reals[k] ?? "")}` })
    }
    return verdict
  })

/** Device and kernel files: written all the time (`> /dev/null`), never a second name of a file that runs. */
const KERNEL_FILES = /^\/(?:dev|proc|sys)(?:\/|$)/
/** Names of the command's own descriptors, which resolve, where the judge looks them up, to the runtime's. */
const OWN_DESCRIPTORS = /^\/(?:dev|proc\/(?:self|thread-self))(?:\/|$)/
/** A path through another process's directories (`/proc/self/…` is translated where the command stands). */
const OTHER_PROCESS_VIEW = /^\/proc\/[^/]+\/(?:cwd|root)(?:\/|$)/
/**
 * The operating system's own trees: code naming `/bin/sh` or `/etc/localtime` names the system's links, not ones a
 * task made (a task's write there needs approval already).
 */
const SYSTEM_NAMES = /^\/(?:usr|bin|sbin|lib\d*|etc|dev|proc|sys|snap)(?:\/|$)/

/**
 * Files written (or named by code) through another name. A symlink an earlier call made (`notes.txt` →
 * `.git/hooks/pre-commit`), or `..` after one, lands elsewhere than the text says: judged where it lands. A regular
 * file with other names (hard links: `ln .git/config notes.txt`) changes under names nothing here spells: it needs
 * approval. Every look-up of one request is made together (one round trip on ssh and containers).
 */
const linkedWrites = (
  surroundings: CommandSurroundings,
  env: DetectionEnv,
  cwd: string,
  written: ReadonlyArray<string>,
  verb: "writes" | "names"
): Effect.Effect<Verdict> =>
  Effect.gen(function*() {
    // `/proc/$PPID/cwd/x`: where another process stands (the runtime's, a parent's) is not where this one does.
    const viaOther = verb === "writes" ? written.find((w) => OTHER_PROCESS_VIEW.test(w)) : undefined
    if (viaOther !== undefined) return { detection: dangerous(OTHER_PROCESS_VIEW_DESCRIPTION), note: `writes ${viaOther}` }
    const plain = [...new Set(written.filter((w) => w !== "" && !w.includes("$") && !w.includes("`") && !(verb === "names" && SYSTEM_NAMES.test(asCommandSees(w)))))]
    // A glob in a write target (`> .gi?/config`, `cp x .g*/hooks/pre-commit`) is expanded by the shell against the
    // files there: the rules only saw the pattern, so what it matches is judged here as written.
    const expanded: Array<string> = []
    for (const target of verb === "writes" ? plain.filter(hasGlob) : []) {
      const matches = yield* expandGlob(surroundings, normalize(joinPath(cwd, target, env.home)))
      if (matches === "unknown") return { detection: dangerous(UNKNOWN_GLOB_WRITE_DESCRIPTION), note: `writes ${target}` }
      for (const m of matches) {
        const description = implicitlyExecuted(m, { home: env.home, hermesHome: env.hermesHome })
        if (description !== null && !otherUsersHome(m, env.home)) return { detection: dangerous(description), note: `writes ${target} → ${m}` }
        expanded.push(m)
      }
    }
    const targets = [...plain, ...expanded]
    if (targets.length === 0) return { detection: SAFE }
    const count = surroundings.linkCount
    // Resolved as written: `i/../hooks/x` climbs from where `i` points.
    const raws = targets.map((target) => joinPath(cwd, target, env.home))
    // Into another process (`/proc/<pid>/fd/0`, its `mem`) through a link an earlier call made: the path as written,
    // from where the command stands, is the rules' (`rules/runtimeProcess.ts`); where links lead is looked up here.
    const looked = yield* Effect.forEach(raws, (raw) => {
      const links = count === undefined || KERNEL_FILES.test(normalize(raw)) ? Effect.succeed(1) : count(raw)
      // The folder's real path: a descriptor's own link (`/proc/<pid>/fd/0` → `pipe:[…]`) leads nowhere a path does.
      const folder = verb === "writes" ? surroundings.realPath(posix.dirname(raw)) : Effect.succeed("")
      return Effect.all([surroundings.realPath(raw), links, folder], { concurrency: 3, batching: true })
    }, { concurrency: "unbounded", batching: true })
    let verdict: Verdict = { detection: SAFE }
    for (const [k, [real, , folder]] of looked.entries()) {
      // The command's own streams (`/dev/stdout`, `/proc/self/fd/1`) lead, looked up from here, to the runtime's.
      if (OWN_DESCRIPTORS.test(normalize(raws[k] ?? ""))) continue
      // A link an earlier call made (`l` → `/proc/<pid>/fd/0`): the walk stops inside that folder.
      const into = [folder === "" ? "" : `${normalize(folder)}/${posix.basename(raws[k] ?? "")}`, verb === "writes" ? normalize(real) : ""]
        .find((p) => p !== "" && intoOtherProcess(p))
      if (into !== undefined) return { detection: dangerous(D.otherProcessFiles), note: `writes ${targets[k]} → ${into}` }
    }
    for (const [k, target] of targets.entries()) {
      const [realPath, links] = looked[k] ?? ["", 1]
      const real = normalize(realPath)
      const description = real === normalize(raws[k] ?? "") ? null : implicitlyExecuted(real, { home: env.home, hermesHome: env.hermesHome })
      if (description !== null && !otherUsersHome(real, env.home)) {
        return stronger(verdict, { detection: dangerous(description), note: `${verb} ${target} → ${real}` })
      }
      if (links > 1) verdict = stronger(verdict, { detection: dangerous(HARD_LINKED_WRITE_DESCRIPTION), note: `${verb} ${target}, a file with ${links} names` })
    }
    return verdict
  })

/** At most this many directories are listed, and names kept, to expand one write target's glob. */
const MAX_GLOB_LISTS = 16
const MAX_GLOB_MATCHES = 256

/**
 * The existing paths an absolute pattern matches, listed as the shell would (hidden names only when the component
 * starts with a dot); "unknown" when the environment cannot list or the pattern is too wide to follow.
 */
const expandGlob = (surroundings: CommandSurroundings, pattern: string): Effect.Effect<ReadonlyArray<string> | "unknown"> =>
  Effect.gen(function*() {
    const list = surroundings.listDir
    if (list === undefined) return "unknown" as const
    let bases = ["/"]
    let lists = 0
    for (const component of pattern.split("/").filter((c) => c !== "")) {
      const next: Array<string> = []
      for (const base of bases) {
        const prefix = base === "/" ? "" : base
        if (!hasGlob(component)) {
          next.push(`${prefix}/${component}`)
          continue
        }
        if (++lists > MAX_GLOB_LISTS) return "unknown" as const
        for (const e of yield* list(base)) if (globMatches(component, e.name)) next.push(`${prefix}/${e.name}`)
      }
      if (next.length > MAX_GLOB_MATCHES) return "unknown" as const
      bases = next
    }
    return bases
  })

/**
 * A file too large or too deeply nested to parse is not known to be
 * hardline (a big generated bundle is ordinary): it needs approval instead.
 * Only a command the model typed itself keeps the parser limit as hardline.
 */
const tooLargeToJudge = (detection: Detection): Detection =>
  detection.hardline && detection.hardline_description === PARSER_LIMIT_DESCRIPTION
    ? dangerous(UNREADABLE_SCRIPT_DESCRIPTION)
    : detection

/** `python3.11` → `python`: the program whatever version suffix it carries. */
const family = (name: string): string => name.replace(/[\d.-]+$/, "")

/** Reads files through the task's environment and judges the code in them; at most MAX_FILES reads per request. */
class Looker {
  private reads = 0
  /** Path literals of the code read so far, each looked up on the filesystem. */
  private pathLooks = 0
  /** Raised by a test walk for the files it found (up to MAX_TEST_FILES). */
  private readLimit = MAX_FILES
  /** Bytecode headers read so far (MAX_PYC_HEADERS). */
  private pycHeaders = 0
  /** Directory listings by path (a script's imports share one directory and one `__pycache__`). */
  private readonly listings = new Map<string, ReadonlyArray<string>>()
  /** Top-level modules of the installed Python packages (installedPython), once listed. */
  private installedModules: ReadonlySet<string> | undefined
  constructor(
    private readonly env: DetectionEnv,
    private readonly detectors: Detectors,
    private readonly surroundings: CommandSurroundings,
    /** Module search path directories by language (`PYTHONPATH`…): modules found there shadow the library's. */
    private readonly moduleDirs: ReadonlyMap<CodeLanguage, ReadonlyArray<string>> = new Map(),
    /** The task's `PYTHONPYCACHEPREFIX`, absolute: where Python keeps its bytecode caches instead of `__pycache__`. */
    private readonly pycachePrefix?: string | undefined,
    /** The files the command writes, absolute: one found to read (a module, a project's setup.py) tells nothing now. */
    private readonly written: ReadonlySet<string> = new Set(),
    /** Where the installed Python packages listed for this environment before are kept (installedPython.ts). */
    private readonly remembered?: Remembered | undefined
  ) {}

  /** Folders whose conftest.py and config files were looked at already (pytest's paths share their parents). */
  private readonly conftestDirs = new Set<string>()
  /** Files judged already (absolute): a conftest.py the line names is not read again on the climb. */
  private readonly judged = new Set<string>()

  /** The names in a directory (none when it is missing or unreadable); null when the environment cannot list. */
  private names(dir: string): Effect.Effect<ReadonlyArray<string> | null> {
    const self = this
    return Effect.gen(function*() {
      const list = self.surroundings.listDir
      if (list === undefined) return null
      const known = self.listings.get(dir)
      if (known !== undefined) return known
      const names = (yield* list(dir)).map((e) => e.name)
      self.listings.set(dir, names)
      return names
    })
  }

  /**
   * Files in `dir`, a folder the interpreter searches before its own library, named like one of that library's
   * modules or of an installed package's (`gettext.py`, `idna.py` beside a script, `lib/Exporter.pm` on PERL5LIB): the
   * library code the program imports loads them by name, so they run though the program never names them. As optional refs relative to `dir`;
   * a bytecode or extension file stands for its source (compiledInstead judges it). More than MAX_SHADOWING of
   * them cannot all be read: the answer is then a ref that cannot be read either.
   */
  private shadowing(language: CodeLanguage, dir: string): Effect.Effect<ReadonlyArray<ScriptRef>> {
    const self = this
    return Effect.gen(function*() {
      if (language !== "python" && language !== "perl") return []
      const installed = language === "python" ? yield* self.installedPython() : new Set<string>()
      const library = (name: string) => PYTHON_LIBRARY_MODULES.has(name) || installed.has(name)
      const found: Array<string> = []
      const visit = (sub: string, depth: number): Effect.Effect<void> =>
        Effect.gen(function*() {
          const names = yield* self.names(sub === "" ? dir : `${dir}/${sub}`)
          for (const name of names ?? []) {
            if (found.length > MAX_SHADOWING) return
            const rel = sub === "" ? name : `${sub}/${name}`
            if (language === "python") {
              const stem = /^([A-Za-z_]\w*)(?:\.py|\.pyc|(?:\.[\w-]+)?\.(?:so|pyd))$/.exec(name)?.[1]
              if (depth === 0 && stem !== undefined && library(stem)) found.push(`${stem}.py`)
              // A folder by a library module's name is that package: every module in it runs as the library's.
              else if (depth === 0 && library(name)) yield* visit(rel, 1)
              else if (depth > 0 && name.endsWith(".py")) found.push(rel)
            } else {
              const module = rel.replace(/\.pm$/, "").replaceAll("/", "::")
              if (name.endsWith(".pm") && PERL_LIBRARY_MODULES.has(module)) found.push(rel)
              else if (depth < 3 && /^\w+$/.test(name) && PERL_LIBRARY_PREFIXES.has(module)) yield* visit(rel, depth + 1)
            }
          }
        })
      yield* visit("", 0)
      if (found.length > MAX_SHADOWING) return [{ path: `${dir}/*`, language: "unknown" }]
      return found.map((path): ScriptRef => ({ path, language, optional: true }))
    })
  }

  /** Top-level module names of the installed Python packages (installedPython.ts), looked up once per request. */
  private installedPython(): Effect.Effect<ReadonlySet<string>> {
    if (this.installedModules !== undefined) return Effect.succeed(this.installedModules)
    return Effect.tap(installedPython(this.env, this.surroundings, this.remembered), (names) => {
      this.installedModules = names
    })
  }

  /** Whether the file exists in any form. */
  private exists(path: string): Effect.Effect<boolean> {
    return Effect.map(this.surroundings.fileKind(path), (kind) => kind !== "missing")
  }

  /**
   * What Python would load for the module source `path` instead of its text (compiledModules.ts): a note naming
   * it, or null when the source is what runs. Python finds an extension module before the source, a sourceless
   * `.pyc` where the source is missing (or removed first), and uses a cache only when the source is there.
   */
  private compiledInstead(path: string): Effect.Effect<string | null> {
    const self = this
    return Effect.gen(function*() {
      // `./helper.py` as `python -m` names it: the same folder (a `..` is left alone: it climbs from a link's target).
      const file = path.replace(/\/\.(?=\/)/g, "")
      const source = pythonSource(file)
      if (source === null) return null
      const { dir, stem } = source
      if (yield* self.exists(`${dir}/${stem}.pyc`)) return `bytecode ${dir}/${stem}.pyc, loaded without a source`
      const beside = yield* self.names(dir)
      const extension = beside === null
        ? (yield* Effect.filter([`${stem}.so`, `${stem}.abi3.so`], (n) => self.exists(`${dir}/${n}`)))[0]
        : beside.find((n) => extensionModuleFor(stem, n))
      if (extension !== undefined) return `extension module ${dir}/${extension}, loaded before ${stem}.py`
      if ((yield* self.surroundings.fileKind(file)) !== "file") return null
      for (const cache of cacheDirs(dir, self.pycachePrefix)) {
        const names = yield* self.names(cache)
        // Nothing to list with: a cache folder that is there cannot be looked into.
        if (names === null) {
          if ((yield* self.surroundings.fileKind(cache)) === "directory") return `bytecode caches in ${cache}, not listable`
          continue
        }
        for (const name of names.filter((n) => cacheFor(stem, n))) {
          if (++self.pycHeaders > MAX_PYC_HEADERS) return `more than ${MAX_PYC_HEADERS} bytecode caches to look at`
          const head = self.surroundings.readHead === undefined ? Option.none<Uint8Array>() : yield* self.surroundings.readHead(`${cache}/${name}`, PYC_HEADER_BYTES)
          if (Option.isNone(head)) return `bytecode ${cache}/${name}, unreadable`
          if (uncheckedHashPyc(head.value)) return `bytecode ${cache}/${name}, run without checking ${stem}.py`
        }
      }
      return null
    })
  }

  /**
   * The file is a program in the operator's directories (`/bin/sh`, whatever it links to), or a link into them
   * that keeps the program's name (a venv's `python` → `/usr/bin/python3.11`). A copy, a link to another program
   * (`ls` → `/bin/rm`) or a link to a file outside those directories is not.
   */
  private installed(path: string): Effect.Effect<boolean> {
    const self = this
    return Effect.gen(function*() {
      const trusted = self.detectors.trustedPathDirs
      const lexical = yield* landing(self.surroundings, path)
      if (trusted.includes(posix.dirname(lexical))) return true
      const real = normalize(yield* self.surroundings.realPath(path))
      return real !== lexical && trusted.includes(posix.dirname(real)) && family(posix.basename(real)) === family(posix.basename(lexical))
    })
  }

  /** A file's text; none when absent or not a regular file; "too-large" when it cannot be read whole. */
  private read(path: string): Effect.Effect<Option.Option<string> | "too-large"> {
    const self = this
    return Effect.gen(function*() {
      if (++self.reads > self.readLimit) return "too-large" as const
      const text = yield* self.surroundings.readText(path, MAX_SCRIPT_BYTES)
      if (Option.isSome(text)) return text
      return (yield* self.surroundings.fileKind(path)) === "file" ? ("too-large" as const) : Option.none<string>()
    })
  }

  scripts(scripts: ReadonlyArray<ScriptRef>, cwd: string, depth: number): Effect.Effect<Verdict> {
    const self = this
    return Effect.gen(function*() {
      let verdict: Verdict = { detection: SAFE }
      for (const ref of scripts) {
        // `cd "$(cat f)" && ./x.sh`: the file read here would be another one than the one that runs.
        if (ref.unplaced === true && ref.optional !== true) {
          verdict = stronger(verdict, { detection: dangerous(UNKNOWN_SCRIPT_DIR_DESCRIPTION), note: `script ${ref.path}` })
          continue
        }
        if (ref.fromStdin === true) {
          verdict = stronger(verdict, { detection: dangerous(D.stdinProgram), note: `program file ${ref.path}` })
          continue
        }
        // `cp evil.sh x.sh && bash x.sh`: the command writes the file before running it; what is there now tells nothing.
        if (ref.rewritten === true) {
          verdict = stronger(verdict, { detection: dangerous(UNREADABLE_SCRIPT_DESCRIPTION), note: `${WRITTEN_NOTE[ref.reader ?? ""] ?? "script"} ${ref.path}, written by the command itself` })
          continue
        }
        const path = joinPath(cwd, ref.path, self.env.home)
        // Found here rather than named by the line (a module beside a script, a project a requirements file names).
        if (self.written.has(normalize(path))) {
          verdict = stronger(verdict, { detection: dangerous(UNREADABLE_SCRIPT_DESCRIPTION), note: `${ref.path}, written by the command itself` })
          continue
        }
        // A folder python searches first (the working directory under `python -m`): library-named modules there run.
        if (ref.reader === "module-path") {
          const dir = yield* landing(self.surroundings, path)
          if (depth < MAX_SCRIPT_DEPTH) verdict = stronger(verdict, yield* self.scripts(yield* self.shadowing("python", dir), dir, depth + 1))
          continue
        }
        if (ref.reader === "pytest-conftests" || ref.reader === "pip-project" || ref.reader === "pip-packed") {
          verdict = stronger(verdict, yield* self.folder(ref, path, cwd, depth))
          if (verdict.detection.hardline) return verdict
          continue
        }
        // A python module may run from compiled code beside its source (or in its place): that code cannot be read.
        if (ref.optional === true && ref.language === "python") {
          const compiled = yield* self.compiledInstead(path)
          if (compiled !== null) {
            verdict = stronger(verdict, { detection: dangerous(UNREADABLE_SCRIPT_DESCRIPTION), note: compiled })
            continue
          }
        }
        // A candidate module that is not there costs no read (a script with many imports looks at many names).
        if (ref.optional === true && (yield* self.surroundings.fileKind(path)) === "missing") continue
        const text = ref.language === "unknown" && ref.path.includes("$") ? Option.none<string>() : yield* self.read(path)
        if (text === "too-large" || Option.isNone(text)) {
          if (text !== "too-large" && ref.optional === true) continue
          // An installed program too large to read (`/usr/bin/cmake`, which CMake's makefiles run by path) is judged
          // by how it is invoked, as an installed binary is below.
          if (text === "too-large" && (yield* self.installed(path))) continue
          verdict = stronger(verdict, { detection: dangerous(UNREADABLE_SCRIPT_DESCRIPTION), note: `${ref.reader === "pip-requirements" ? "requirements file" : "script"} ${ref.path}` })
          continue
        }
        self.judged.add(normalize(path))
        // A task runner's or build tool's file in a format the gate does not read (projectCode.ts).
        if (ref.reader === "project-opaque") {
          if (ref.opaqueWhen === undefined || new RegExp(ref.opaqueWhen, "m").test(text.value)) {
            verdict = stronger(verdict, { detection: dangerous(PROJECT_CODE_DESCRIPTION), note: ref.path })
          }
          continue
        }
        // pytest's config: plugins its `addopts` loads with `-p` are imported from beside it, or where pytest runs.
        if (ref.reader === "pytest-config") {
          const plugins = pytestConfigPlugins(text.value).flatMap((mod) => moduleFileCandidates("python", mod))
          const refs = plugins.map((p): ScriptRef => ({ path: p, language: "python", optional: true }))
          const beside = posix.dirname(yield* landing(self.surroundings, path))
          const runsIn = ref.runsIn === undefined ? beside : yield* landing(self.surroundings, joinPath(cwd, ref.runsIn, self.env.home))
          for (const dir of refs.length > 0 && depth < MAX_SCRIPT_DEPTH ? new Set([beside, runsIn]) : []) {
            verdict = stronger(verdict, yield* self.scripts(refs, dir, depth + 1))
          }
          continue
        }
        if (ref.reader === "pip-requirements") {
          verdict = stronger(verdict, yield* self.requirements(path, text.value, joinPath(cwd, ref.runsIn ?? ".", self.env.home), depth))
          if (verdict.detection.hardline) return verdict
          continue
        }
        // A local project's build files: the local projects they depend on are built too, an in-tree backend runs.
        if (ref.reader === "pip-metadata") {
          verdict = stronger(verdict, yield* self.projectBuild(text.value, posix.dirname(path), ref.language === "python", depth))
          if (ref.language !== "python") continue
        }
        const language = languageOf(ref, text.value)
        const shebang = ref.language === "unknown" ? shebangOf(text.value) : ""
        if (shebang !== "") {
          // The kernel runs the `#!` line with the script's path appended (`#!/usr/bin/env -S rm -rf /x`), and its
          // interpreter may itself be a planted script.
          const line = self.detectors.inspect(`${shebang} '${ref.path.replaceAll("'", "'\\''")}'`, self.env)
          verdict = stronger(verdict, { detection: tooLargeToJudge(line.detection), note: `#! line of ${ref.path}` })
          const interpreter = shebang.split(/\s+/)[0] ?? ""
          if (depth < MAX_SCRIPT_DEPTH && !(yield* self.installed(interpreter))) {
            verdict = stronger(verdict, yield* self.scripts([{ path: interpreter, language: "unknown" }], cwd, depth + 1))
          }
          if (verdict.detection.hardline) return verdict
        }
        if (language === "opaque") {
          verdict = stronger(verdict, { detection: dangerous(D.opaqueCode), note: `script ${ref.path} (#!${shebang})` })
          continue
        }
        if (language === "binary") {
          // An installed program (or a link to one under its own name) is judged by how it is invoked; any other
          // binary could be a copy of `rm` under an innocent name, and its bytes tell nothing: it needs approval.
          if (yield* self.installed(path)) continue
          verdict = stronger(verdict, { detection: dangerous(UNINSTALLED_BINARY_DESCRIPTION), note: `program ${ref.path}` })
          continue
        }
        const note = `in script ${ref.path}`
        // An awk or sed program file: `system($0)` or sed's `e` run what the program reads.
        if ((ref.reader === "awk" || ref.reader === "sed") && inputCommands(ref.reader, ref.reader === "sed" ? ["-e", text.value] : [text.value]).runs) {
          verdict = stronger(verdict, { detection: dangerous(D.inputCommands), note })
        }
        // An editor's script: its `!` commands are shell, its vimscript runs what it builds.
        if (ref.reader === "ex" || ref.reader === "ed" || isConsole(ref.reader)) {
          const ex = isConsole(ref.reader) ? consoleText(ref.reader, text.value) : exCommands(text.value, ref.reader === "ed")
          if (ex.runs) verdict = stronger(verdict, { detection: dangerous(isConsole(ref.reader) ? D.consoleCommands : D.inputCommands), note })
          verdict = stronger(verdict, { detection: tooLargeToJudge(self.detectors.inspect(exShellText(ex).join("\n"), self.env).detection), note })
          if (verdict.detection.hardline) return verdict
          continue
        }
        if (language !== "shell") {
          verdict = stronger(verdict, { detection: tooLargeToJudge(self.detectors.detectCode(language, text.value, self.env)), note })
          // Paths the code spells may be links an earlier call made: `open("notes.txt", "a")` with notes.txt → .git/config.
          if (!verdict.detection.dangerous) {
            const paths = self.detectors.codePaths(language, text.value)
            self.pathLooks += paths.length
            if (self.pathLooks > MAX_CODE_PATH_LOOKS) {
              verdict = stronger(verdict, { detection: dangerous(UNREADABLE_SCRIPT_DESCRIPTION), note: `more than ${MAX_CODE_PATH_LOOKS} paths in code to look up` })
            } else {
              const named = yield* linkedWrites(self.surroundings, self.env, cwd, paths, "names")
              verdict = stronger(verdict, { ...named, note: `${named.note ?? ""} ${note}`.trim() })
            }
          }
          // Modules it loads from beside itself run as part of it (a planted json.py, ./lib.js).
          if (depth < MAX_SCRIPT_DEPTH && !verdict.detection.hardline) {
            const near = self.detectors.localImports(language, text.value).map((p): ScriptRef => ({ path: p, language, optional: true }))
            // Beside the file itself: python and node resolve a linked script before looking next to it. Python
            // also finds the library's own modules there first, whoever imports them (argparse → gettext.py).
            if (near.length > 0 || language === "python") {
              const beside = posix.dirname(normalize(yield* self.surroundings.realPath(path)))
              const shadows = language === "python" ? yield* self.shadowing(language, beside) : []
              verdict = stronger(verdict, yield* self.scripts([...near, ...shadows], beside, depth + 1))
            }
            // And those it finds on a module search path the task set (a json.py in a PYTHONPATH directory).
            // And in directories the code adds to its own search path (`sys.path.insert(0, "/x/lib")`).
            const own = yield* Effect.forEach(codeSearchDirs(language, text.value), (d) => landing(self.surroundings, joinPath(cwd, d, self.env.home)))
            const dirs = [...(self.moduleDirs.get(language) ?? []), ...own]
            const named = dirs.length === 0 ? [] : self.detectors.searchPathModules(language, text.value)
            for (const dir of dirs) {
              if (verdict.detection.hardline) break
              const refs = [...named.map((p): ScriptRef => ({ path: p, language, optional: true })), ...(yield* self.shadowing(language, dir))]
              if (refs.length > 0) verdict = stronger(verdict, yield* self.scripts(refs, dir, depth + 1))
            }
          }
        } else {
          const inner = self.detectors.inspect(text.value, self.env)
          verdict = stronger(verdict, { detection: tooLargeToJudge(inner.detection), note })
          if (depth < MAX_SCRIPT_DEPTH && inner.scripts.length > 0 && !verdict.detection.hardline) {
            verdict = stronger(verdict, yield* self.scripts(inner.scripts, cwd, depth + 1))
          }
        }
        if (verdict.detection.hardline) return verdict
      }
      return verdict
    })
  }

  /**
   * A reader's folder: pytest's conftest.py files from it up to `/`, a local project pip builds, a packed source
   * pip builds (an archive, a local repository: its build code cannot be read before pip unpacks it). One the line
   * only knows when it runs (computed, or relative to a folder not known) was made certain: it asks.
   */
  private folder(ref: ScriptRef, path: string, cwd: string, depth: number): Effect.Effect<Verdict> {
    const self = this
    return Effect.gen(function*() {
      const what = ref.reader === "pytest-conftests" ? "tests" : "local project"
      if (ref.optional !== true) return { detection: dangerous(UNREADABLE_SCRIPT_DESCRIPTION), note: `${what} ${ref.path}, only known when the command runs` }
      if (ref.reader === "pytest-conftests") return yield* self.conftests(path, ref.runsIn, cwd, depth)
      const place = yield* landing(self.surroundings, path)
      const kind = yield* self.surroundings.fileKind(place)
      if (ref.reader === "pip-packed") {
        if (kind === "missing") return { detection: SAFE }
        // A folder pip finds packages in (--find-links, PIP_FIND_LINKS) that holds only wheels: nothing there is built.
        const list = self.surroundings.listDir
        if (kind === "directory" && list !== undefined) {
          const entries = yield* list(place)
          if (entries.every((e) => e.type === "file" && /\.whl$/i.test(e.name))) return { detection: SAFE }
        }
        return { detection: dangerous(UNREADABLE_SCRIPT_DESCRIPTION), note: `packed source ${ref.path}: pip unpacks it and runs its build code` }
      }
      if (kind !== "directory") return { detection: SAFE }
      const files = ["setup.py", "pyproject.toml", "setup.cfg"].map((name): ScriptRef => ({
        path: `${place === "/" ? "" : place}/${name}`,
        language: name === "setup.py" ? "python" : "unknown",
        optional: true,
        reader: "pip-metadata"
      }))
      // pip runs the build in the project's folder.
      return yield* self.scripts(files, place, depth)
    })
  }

  /**
   * The conftest.py pytest may import from `start` and every folder above it (its root may be anywhere up there),
   * and the config files there (the first found up the tree is pytest's, and its `addopts` may load plugins).
   * pytest imports only a conftest.py that is there: a missing one costs no look at caches.
   */
  private conftests(start: string, runsIn: string | undefined, cwd: string, depth: number): Effect.Effect<Verdict> {
    const self = this
    return Effect.gen(function*() {
      const candidates: Array<ScriptRef> = []
      for (let dir = yield* landing(self.surroundings, start); !self.conftestDirs.has(dir); dir = posix.dirname(dir)) {
        self.conftestDirs.add(dir)
        const base = dir === "/" ? "" : dir
        candidates.push({ path: `${base}/conftest.py`, language: "python", optional: true })
        for (const config of PYTEST_CONFIGS) candidates.push({ path: `${base}/${config.slice(2)}`, language: "unknown", optional: true, reader: "pytest-config", runsIn })
        if (dir === "/") break
      }
      // Those the line names (`./conftest.py`, `./pytest.ini`) were read already.
      const unread = candidates.filter((c) => !self.judged.has(c.path))
      // Looked up together (one round trip where the files are remote).
      const kinds = yield* Effect.forEach(unread, (c) => self.surroundings.fileKind(c.path), { concurrency: "unbounded", batching: true })
      const refs = unread.filter((_, k) => kinds[k] === "file")
      return refs.length === 0 ? { detection: SAFE } : yield* self.scripts(refs, cwd, depth)
    })
  }

  /**
   * A requirements (or constraints) file pip reads, and those it nests (relative to it): every one must be readable,
   * and the local sources their lines name (relative to where pip runs, `runsIn`) are looked into.
   */
  private requirements(first: string, text: string, runsIn: string, depth: number): Effect.Effect<Verdict> {
    const self = this
    return Effect.gen(function*() {
      const unreadable = (note: string): Verdict => ({ detection: dangerous(UNREADABLE_SCRIPT_DESCRIPTION), note })
      const sources: Array<PipSource> = []
      const queue = [{ path: normalize(first), text }]
      const seen = new Set([normalize(first)])
      for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
        const lines = requirementLines(file.text)
        if (lines.computed.length > 0) return unreadable(`${lines.computed[0] ?? ""} in ${file.path}: pip expands the variable when it runs`)
        sources.push(...lines.sources)
        for (const nested of lines.requirements) {
          const path = normalize(joinPath(posix.dirname(file.path), requirementPath(nested), self.env.home))
          if (seen.has(path)) continue
          if (seen.size >= MAX_REQUIREMENT_FILES) return unreadable(`more than ${MAX_REQUIREMENT_FILES} requirement files`)
          seen.add(path)
          if (self.written.has(path)) return unreadable(`requirements file ${nested}, written by the command itself`)
          const nestedText = isStdinPath(nested) ? "too-large" : yield* self.read(path)
          if (nestedText === "too-large" || Option.isNone(nestedText)) return unreadable(`requirements file ${nested}, named in ${file.path}`)
          queue.push({ path, text: nestedText.value })
        }
      }
      // Only the sources there are looked into (a long list of package names costs one batch of look-ups).
      const dir = normalize(runsIn)
      const kinds = yield* Effect.forEach(
        sources,
        (s) => Effect.flatMap(landing(self.surroundings, joinPath(dir, s.path, self.env.home)), self.surroundings.fileKind),
        { concurrency: "unbounded", batching: true }
      )
      const present = sources.filter((_, k) => kinds[k] !== "missing")
      return present.length === 0 ? { detection: SAFE } : yield* self.scripts(present.map(pipSourceRef), dir, depth)
    })
  }

  /**
   * What a local project's build files make pip build or import besides: local projects it depends on (`file:`
   * URLs, relative to the project), and for pyproject.toml and setup.cfg the project's modules its build imports
   * (setup.py's own imports are followed as the Python it is).
   */
  private projectBuild(text: string, dir: string, code: boolean, depth: number): Effect.Effect<Verdict> {
    const self = this
    return Effect.gen(function*() {
      const meta = projectMetadata(text)
      const modules = code ? [] : meta.modules.flatMap((mod) => moduleFileCandidates("python", mod))
      const refs = [
        ...meta.moduleDirs.flatMap((d) => modules.map((m): ScriptRef => ({ path: d === "." ? m : `${d}/${m}`, language: "python", optional: true }))),
        ...meta.sources.map(pipSourceRef)
      ]
      if (refs.length === 0) return { detection: SAFE }
      if (depth >= MAX_SCRIPT_DEPTH) return { detection: dangerous(UNREADABLE_SCRIPT_DESCRIPTION), note: `local projects and build modules nested deeper than ${MAX_SCRIPT_DEPTH} in ${dir}` }
      return yield* self.scripts(refs, dir, depth + 1)
    })
  }

  /**
   * Modules the command line loads by name (`python -m mod`, `perl -Mmod`, `ruby -rfeat`) found in a directory of
   * the module search path (`-I`, PYTHONPATH, PERL5LIB, RUBYLIB): judged like the script.
   */
  loadedModules(modules: ReadonlyArray<LoadedModule>): Effect.Effect<Verdict> {
    const self = this
    return Effect.gen(function*() {
      let verdict: Verdict = { detection: SAFE }
      for (const mod of modules) {
        const refs = moduleFileCandidates(mod.language, mod.name).map((p): ScriptRef => ({ path: p, language: mod.language, optional: true }))
        for (const dir of self.moduleDirs.get(mod.language) ?? []) {
          verdict = stronger(verdict, yield* self.scripts(refs, dir, 1))
          if (verdict.detection.hardline) return verdict
        }
      }
      return verdict
    })
  }

  /**
   * Bare program names looked up in PATH directories the task added (an
   * `export PATH=…`, `PATH=dir cmd`, npm's node_modules/.bin): a script found
   * there is judged like one run by path; a binary is fine only when it is a
   * link to a program in the operator's own directories.
   */
  planted(programs: ReadonlyArray<string>, dirs: ReadonlyArray<string>): Effect.Effect<Verdict> {
    const self = this
    return Effect.gen(function*() {
      let verdict: Verdict = { detection: SAFE }
      if (dirs.length === 0) return verdict
      for (const program of programs) {
        for (const dir of dirs) {
          if (dir === UNKNOWN_DIR) continue
          const path = `${dir}/${program}`
          const kind = yield* self.surroundings.fileKind(path)
          if (kind === "missing" || kind === "directory") continue
          const text = yield* self.read(path)
          const binary = text !== "too-large" && Option.isSome(text) && text.value.includes("\u0000")
          // A link to the same program under its versioned name (a venv's python → python3.11) is that program,
          // judged by its name already; a copy, or a link to another program (`ls` → /bin/rm), is not.
          if ((binary || text === "too-large") && (yield* self.installed(path))) break
          if (binary || text === "too-large") {
            verdict = stronger(verdict, { detection: dangerous(PLANTED_PROGRAM_DESCRIPTION), note: `${program} is ${path}` })
          } else {
            verdict = stronger(verdict, yield* self.scripts([{ path, language: "unknown" }], dir, 2))
          }
          // The first directory that has it is the one the shell runs.
          break
        }
        if (verdict.detection.hardline) return verdict
      }
      return verdict
    })
  }

  /**
   * The repositories git may use from where it starts, resolved as git resolves them, and whose config it will read
   * (and run: core.fsmonitor, `!` aliases, pagers) and whose hooks it runs. A write to config or hooks under a `.git`
   * or `*.git` directory needs approval already (implicitExec.ts); one reached anywhere else (a bare repository not
   * named `*.git`, a `.git` file or link, a `commondir` sending git to an ordinary folder) is how a planted config
   * would run without one, so git there needs approval. Every enclosing candidate is judged, not only the nearest:
   * the line may remove that one before git looks.
   */
  repositories(refs: ReadonlyArray<GitDirRef>, cwd: string): Effect.Effect<Verdict> {
    const self = this
    return Effect.gen(function*() {
      for (const ref of refs) {
        if (!ref.sure) return { detection: dangerous(PLANTED_REPOSITORY_DESCRIPTION), note: "git starts in a directory only known when it runs" }
        const start = joinPath(cwd, ref.dir, self.env.home)
        const note = ref.gitDir === undefined
          ? yield* self.foundRepository(start)
          : yield* self.plantedRepository(yield* self.realDir(joinPath(start, ref.gitDir, self.env.home)), `--git-dir ${ref.gitDir}`)
        if (note !== null) return { detection: dangerous(PLANTED_REPOSITORY_DESCRIPTION), note }
        const hooks = yield* self.hookFolders(ref.gitDir === undefined ? start : null, start)
        if (hooks.detection.dangerous) return hooks
      }
      return { detection: SAFE }
    })
  }

  /**
   * The configuration files git reads for the repository found from `start` (none: outside any, or one `--git-dir`
   * names, whose config is judged above), the user's and the system's, and what they include. An included file in
   * the worktree whose writes are not judged as git's (`include.path = ../tools/gitconfig`) that sets a key running
   * a program needs approval. The folders `core.hooksPath` names, where writes are not judged as hooks (anything but a
   * git directory, `.husky/` and `.githooks/`: `git config core.hooksPath tools` by the operator, then a quiet write
   * of `tools/pre-commit`), hold files git runs: each is read as the script it is.
   */
  private hookFolders(start: string | null, cwd: string): Effect.Effect<Verdict> {
    const self = this
    return Effect.gen(function*() {
      const repo = start === null ? null : yield* self.nearestRepository(start)
      const home = self.env.home
      const queue: Array<{ readonly path: string; readonly depth: number }> = [
        ...(repo === null ? [] : [{ path: `${repo.common}/config`, depth: 0 }, { path: `${repo.gitDir}/config.worktree`, depth: 0 }]),
        ...(home === undefined ? [] : [{ path: joinPath(home, ".gitconfig", home), depth: 0 }, { path: joinPath(home, ".config/git/config", home), depth: 0 }]),
        { path: "/etc/gitconfig", depth: 0 }
      ]
      const hooksPaths: string[] = []
      const seen = new Set<string>()
      // Git's own files are looked up together (one round trip on ssh and containers); included ones as found.
      const lookUp = (path: string) => Effect.flatMap(self.realDir(path), (real) => Effect.map(self.read(real), (text) => ({ real, text })))
      const roots = yield* Effect.forEach(queue, ({ path }) => lookUp(path), { concurrency: "unbounded", batching: true })
      for (let k = 0; k < queue.length; k++) {
        const { path, depth } = queue[k] ?? { path: "", depth: 0 }
        const { real, text } = roots[k] ?? (yield* lookUp(path))
        if (seen.has(real)) continue
        seen.add(real)
        if (seen.size > MAX_GIT_CONFIGS) return { detection: dangerous(PLANTED_GIT_CONFIG_DESCRIPTION), note: "more configuration files included than are read" }
        if (text === "too-large") return { detection: dangerous(PLANTED_GIT_CONFIG_DESCRIPTION), note: `${path} is unreadable` }
        if (Option.isNone(text)) continue
        const config = gitConfigText(text.value)
        // Git's own files are where a write asks (or needs root); an included file inside the worktree is the
        // project's text. (One elsewhere, a home's `~/.gitconfig.local`, is the operator's: read for hooksPath only.)
        const projects = depth > 0 && repo?.worktree !== undefined && under(real, repo.worktree)
        if (projects && implicitlyExecuted(real, { home, hermesHome: self.env.hermesHome }) === null && config.execKeys.length > 0) {
          return { detection: dangerous(PLANTED_GIT_CONFIG_DESCRIPTION), note: `${path} sets ${config.execKeys[0] ?? ""}` }
        }
        hooksPaths.push(...config.hooksPaths)
        // An include counts from the including file's folder; a conditional one is read as if its condition held.
        for (const included of config.includes) {
          if (depth >= MAX_GIT_INCLUDE_DEPTH) return { detection: dangerous(PLANTED_GIT_CONFIG_DESCRIPTION), note: `${path} includes too deep` }
          queue.push({ path: joinPath(posix.dirname(real), included, home), depth: depth + 1 })
        }
      }
      // A relative hooksPath counts from where hooks run: the worktree's top (a bare repository's git directory).
      const base = repo?.worktree ?? cwd
      for (const value of new Set(hooksPaths)) {
        const folder = yield* self.realDir(joinPath(base, value, home))
        // Writes there ask already (implicitExec.ts): the hooks there are ones a person allowed.
        if (implicitlyExecuted(`${folder}/pre-commit`, { home, hermesHome: self.env.hermesHome }) !== null) continue
        const entries = self.surroundings.listDir === undefined ? null : yield* self.surroundings.listDir(folder)
        if (entries === null || entries.length > MAX_HOOK_FILES) {
          return { detection: dangerous(PLANTED_GIT_CONFIG_DESCRIPTION), note: `hooks in ${folder} (core.hooksPath ${value}) cannot all be read` }
        }
        for (const entry of entries) {
          if (entry.type === "directory") continue
          const hook = `${folder}/${entry.name}`
          const verdict = yield* self.scripts([{ path: hook, language: "unknown" }], folder, 1)
          if (verdict.detection.dangerous) return { ...verdict, note: `git runs ${hook} as a hook (core.hooksPath ${value})${verdict.note === undefined ? "" : `: ${verdict.note}`}` }
        }
      }
      return { detection: SAFE }
    })
  }

  /**
   * The repository git finds from `start` (the nearest `.git` directory or file, or a bare repository): its git
   * directory, the common one its config lives in, and its worktree (a bare one has none); null outside any.
   */
  private nearestRepository(start: string): Effect.Effect<{ readonly gitDir: string; readonly common: string; readonly worktree: string | undefined } | null> {
    const self = this
    return Effect.gen(function*() {
      let dir = yield* self.realDir(start)
      for (let level = 0; level < 64; level++) {
        const dotGit = `${dir === "/" ? "" : dir}/.git`
        const kind = yield* self.surroundings.fileKind(dotGit)
        let gitDir: string | undefined
        if (kind === "file") {
          const named = yield* self.gitdirNamedBy(dotGit)
          if (named !== undefined) gitDir = yield* self.realDir(joinPath(dir, named, self.env.home))
        } else if (kind === "directory" && (yield* self.gitDirectory(yield* self.realDir(dotGit)))) gitDir = yield* self.realDir(dotGit)
        if (gitDir !== undefined) return { gitDir, common: (yield* self.commonDir(gitDir)) ?? gitDir, worktree: dir }
        if (yield* self.gitDirectory(dir)) return { gitDir: dir, common: (yield* self.commonDir(dir)) ?? dir, worktree: undefined }
        if (dir === "/") break
        dir = posix.dirname(dir)
      }
      return null
    })
  }

  /** The `gitdir:` a `.git` file names, or undefined when it names none (or cannot be read whole). */
  private gitdirNamedBy(dotGit: string): Effect.Effect<string | undefined> {
    return Effect.map(this.read(dotGit), (text) =>
      text !== "too-large" && Option.isSome(text) ? /^gitdir:\s*(.+?)\s*$/m.exec(text.value)?.[1] : undefined)
  }

  /** A path with its symlinks resolved, normalised. */
  private realDir(path: string): Effect.Effect<string> {
    return Effect.map(this.surroundings.realPath(path), normalize)
  }

  /**
   * Walking up from `start` as git does (from the directory it really is in): each `.git` file's gitdir, each `.git`
   * directory git would take, each directory that is itself a git directory (bare). Why one of them is planted, or null.
   */
  private foundRepository(start: string): Effect.Effect<string | null> {
    const self = this
    return Effect.gen(function*() {
      let dir = yield* self.realDir(start)
      for (let level = 0; level < 64; level++) {
        const dotGit = `${dir === "/" ? "" : dir}/.git`
        const kind = yield* self.surroundings.fileKind(dotGit)
        if (kind === "file") {
          const named = yield* self.gitdirNamedBy(dotGit)
          if (named === undefined) return `${dotGit} points to an unreadable place`
          // A relative gitdir counts from the folder holding the file; git then resolves it to where it really is.
          const note = yield* self.plantedRepository(yield* self.realDir(joinPath(dir, named, self.env.home)), `${dotGit} (gitdir: ${named})`)
          if (note !== null) return note
        } else if (kind === "directory") {
          const gitDir = yield* self.realDir(dotGit)
          const note = (yield* self.gitDirectory(gitDir)) ? yield* self.plantedRepository(gitDir, dotGit) : null
          if (note !== null) return note
        }
        if (yield* self.gitDirectory(dir)) {
          const note = yield* self.plantedRepository(dir, `${dir} (a bare repository)`)
          if (note !== null) return note
        }
        if (dir === "/") break
        dir = posix.dirname(dir)
      }
      return null
    })
  }

  /** Whether git takes `dir` for a git directory: a HEAD, and objects and refs in its common directory. */
  private gitDirectory(dir: string): Effect.Effect<boolean> {
    const self = this
    return Effect.gen(function*() {
      if ((yield* self.surroundings.fileKind(`${dir}/HEAD`)) !== "file") return false
      const common = yield* self.commonDir(dir)
      if (common === null) return true
      const kinds = yield* Effect.all([self.surroundings.fileKind(`${common}/objects`), self.surroundings.fileKind(`${common}/refs`)])
      return kinds.every((k) => k === "directory")
    })
  }

  /**
   * The directory whose config and hooks git uses for the git directory `gitDir` (symlinks resolved): the one its
   * `commondir` file names (a linked worktree's is the main repository's), else itself; null when that file cannot
   * be read.
   */
  private commonDir(gitDir: string): Effect.Effect<string | null> {
    const self = this
    return Effect.gen(function*() {
      const text = yield* self.read(`${gitDir}/commondir`)
      if (text === "too-large") return null
      if (Option.isNone(text)) return gitDir
      const named = text.value.split("\n")[0]?.trim() ?? ""
      return named === "" ? gitDir : yield* self.realDir(joinPath(gitDir, named, self.env.home))
    })
  }

  /**
   * Why git's config and hooks for the git directory `gitDir` (reached through `from`) are planted: they, or the
   * config file itself, lie where a write is not judged as one to git's config; null when they do not.
   */
  private plantedRepository(gitDir: string, from: string): Effect.Effect<string | null> {
    const self = this
    return Effect.gen(function*() {
      if (!gitConfigJudged(gitDir)) return `${from} leads to ${gitDir}`
      const common = yield* self.commonDir(gitDir)
      if (common === null) return `${gitDir}/commondir is unreadable`
      if (!gitConfigJudged(common)) return `${gitDir}/commondir leads to ${common}`
      const config = yield* self.realDir(`${common}/config`)
      return gitConfigJudged(posix.dirname(config)) ? null : `${common}/config leads to ${config}`
    })
  }

  /**
   * `make` and `npm test`-style commands run shell text kept in project files
   * (Makefile recipes and the makefiles they include, package.json scripts)
   * that a model could have written: that text is judged as if typed. A
   * missing or unparsable file makes the runner fail before it runs anything.
   */
  runners(runners: ReadonlyArray<RunnerRef>, cwd: string): Effect.Effect<Verdict> {
    const self = this
    return Effect.gen(function*() {
      let verdict: Verdict = { detection: SAFE }
      for (const ref of runners) {
        if (!ref.sure) {
          verdict = stronger(verdict, { detection: dangerous(UNKNOWN_PROJECT_DIR_DESCRIPTION) })
          continue
        }
        const dir = yield* landing(self.surroundings, joinPath(cwd, ref.dir, self.env.home))
        const { runner } = ref
        let text: string | null = null
        let source = ""
        if (runner.kind === "tests") {
          verdict = stronger(verdict, yield* self.testFiles(runner.roots, runner.pattern, dir, runner.language ?? "python", runner.folder))
          if (verdict.detection.hardline) return verdict
          continue
        }
        if (runner.kind === "make") {
          // `make -f -`, `-f /dev/stdin`: the makefile is whatever the pipe or redirect holds.
          const fromStdin = runner.files.find(isStdinPath)
          if (fromStdin !== undefined) return stronger(verdict, { detection: dangerous(D.stdinProgram), note: `makefile ${fromStdin}` })
          // Every `-f` file is read, in order (a later one can redefine a target); else the first that exists.
          const texts: Array<string> = []
          for (const name of runner.files) {
            const file = yield* self.read(joinPath(dir, name, self.env.home))
            if (file === "too-large") return stronger(verdict, { detection: dangerous(UNREADABLE_SCRIPT_DESCRIPTION), note: `makefile ${name}` })
            if (Option.isNone(file)) continue
            const includedNames: Array<string> = []
            const included = yield* self.includes(file.value, dir, 1, MAKE_INCLUDE, includedNames)
            if (included === "too-large") return stronger(verdict, { detection: dangerous(UNREADABLE_SCRIPT_DESCRIPTION), note: `included by ${name}` })
            // A makefile (or one it includes) that its own rules make is made first, and make starts over reading it.
            const remade = [name, ...includedNames].find((n) => remadeByRules(`${file.value}\n${included}`, n))
            if (remade !== undefined) return stronger(verdict, { detection: dangerous(UNREADABLE_SCRIPT_DESCRIPTION), note: `makefile ${remade} is remade by its rules` })
            texts.push(`${file.value}\n${included}`)
            source = source === "" ? name : `${source}, ${name}`
            if (!runner.named) break
          }
          if (texts.length > 0) text = makeRecipes(texts.join("\n"), runner.targets)
        } else if (runner.kind === "ninja") {
          const name = runner.file
          if (isStdinPath(name)) return stronger(verdict, { detection: dangerous(D.stdinProgram), note: `build file ${name}` })
          const file = yield* self.read(joinPath(dir, name, self.env.home))
          if (file === "too-large") return stronger(verdict, { detection: dangerous(UNREADABLE_SCRIPT_DESCRIPTION), note: `build file ${name}` })
          if (Option.isSome(file)) {
            const included = yield* self.includes(file.value, dir, 1, NINJA_INCLUDE)
            if (included === "too-large") return stronger(verdict, { detection: dangerous(UNREADABLE_SCRIPT_DESCRIPTION), note: `included by ${name}` })
            text = ninjaCommands(`${file.value}\n${included}`, runner.targets)
            source = name
          }
        } else if (runner.kind === "ctest") {
          // The tree's CTestTestfile.cmake and those of the subdirectories it names, breadth first, bounded.
          const lines: Array<string> = []
          const queue = ["."]
          for (let n = 0; queue.length > 0; n++) {
            const sub = queue.shift() ?? "."
            if (n >= MAX_TEST_DIRS) return stronger(verdict, { detection: dangerous(UNREADABLE_SCRIPT_DESCRIPTION), note: `more than ${MAX_TEST_DIRS} test directories` })
            const name = sub === "." ? "CTestTestfile.cmake" : `${sub}/CTestTestfile.cmake`
            const file = yield* self.read(joinPath(dir, name, self.env.home))
            if (file === "too-large") return stronger(verdict, { detection: dangerous(UNREADABLE_SCRIPT_DESCRIPTION), note: name })
            if (Option.isNone(file)) continue
            const tests = ctestFile(file.value)
            if (tests.opaque) return stronger(verdict, { detection: dangerous(D.opaqueCode), note: `CMake code in ${name}` })
            lines.push(tests.commands)
            for (const d of tests.subdirs) queue.push(d.startsWith("/") ? d : sub === "." ? d : `${sub}/${d}`)
          }
          text = lines.join("\n")
          source = "CTestTestfile.cmake"
        } else if (runner.kind === "envFile") {
          // node takes the file's variables for itself: NODE_OPTIONS=--require ./x there loads x before any script.
          for (const name of runner.files) {
            if (isStdinPath(name)) return stronger(verdict, { detection: dangerous(D.stdinProgram), note: `env file ${name}` })
            const env = yield* self.read(joinPath(dir, name, self.env.home))
            if (env === "too-large") return stronger(verdict, { detection: dangerous(UNREADABLE_SCRIPT_DESCRIPTION), note: `env file ${name}` })
            const assignments = Option.isSome(env) ? dotenvAssignments(env.value) : ""
            if (assignments === "") continue
            verdict = stronger(verdict, { detection: self.detectors.inspect(`${assignments} node x`, self.env).detection, note: `in ${name}` })
          }
          continue
        } else {
          // A package archive holds its scripts packed: nothing to read until it is unpacked.
          if (runner.archive === true) return stronger(verdict, { detection: dangerous(UNREADABLE_SCRIPT_DESCRIPTION), note: `package archive ${ref.dir}` })
          const file = yield* self.read(joinPath(dir, "package.json", self.env.home))
          if (file === "too-large") return stronger(verdict, { detection: dangerous(UNREADABLE_SCRIPT_DESCRIPTION), note: "package.json" })
          if (Option.isSome(file)) {
            text = packageScriptText(file.value, runner.scripts)
            source = "package.json"
            // An install installs the local packages the project depends on and its workspaces, and runs their
            // install scripts.
            if (runner.installs === true && text !== null) {
              const deps = yield* self.installedLocally(file.value, dir)
              if (typeof deps === "string") return stronger(verdict, { detection: dangerous(UNREADABLE_SCRIPT_DESCRIPTION), note: deps })
              for (const dep of deps) {
                const depFile = yield* self.read(joinPath(joinPath(dir, dep, self.env.home), "package.json", self.env.home))
                if (depFile === "too-large") return stronger(verdict, { detection: dangerous(UNREADABLE_SCRIPT_DESCRIPTION), note: `${dep}/package.json` })
                const depText = Option.isSome(depFile) ? packageScriptText(depFile.value, INSTALL_SCRIPTS) : null
                if (depText !== null && depText.trim() !== "") {
                  text = `${text}\n${depText}`
                  source = `${source}, ${dep}/package.json`
                }
              }
            }
          }
          // yarn runs the yarn `.yarnrc.yml` names (any command), pnpm loads `.pnpmfile.cjs` hooks: node code of the project's.
          const projectCode: Array<ScriptRef> = []
          if (runner.tool === "yarn") {
            const rc = yield* self.read(joinPath(dir, ".yarnrc.yml", self.env.home))
            if (rc === "too-large") return stronger(verdict, { detection: dangerous(UNREADABLE_SCRIPT_DESCRIPTION), note: ".yarnrc.yml" })
            const path = Option.isSome(rc) ? yarnPath(rc.value) : null
            if (path !== null) projectCode.push({ path: joinPath(dir, path, self.env.home), language: "node" })
          }
          if (runner.tool === "pnpm") projectCode.push({ path: joinPath(dir, ".pnpmfile.cjs", self.env.home), language: "node", optional: true })
          if (projectCode.length > 0) verdict = stronger(verdict, yield* self.scripts(projectCode, dir, 1))
          // The project's and the user's .npmrc can name the shell scripts run in, or code node loads first.
          for (const npmrc of [joinPath(dir, ".npmrc", self.env.home), joinPath(dir, "~/.npmrc", self.env.home)]) {
            const rc = yield* self.read(npmrc)
            if (rc === "too-large") return stronger(verdict, { detection: dangerous(UNREADABLE_SCRIPT_DESCRIPTION), note: npmrc })
            const assignments = Option.isSome(rc) ? npmrcAssignments(rc.value) : ""
            if (assignments === "") continue
            verdict = stronger(verdict, { detection: self.detectors.inspect(`${assignments} npm run x`, self.env).detection, note: `in ${npmrc}` })
          }
        }
        if (text === null || text.trim() === "") continue
        const inner = self.detectors.inspect(text, self.env)
        verdict = stronger(verdict, { detection: inner.detection, note: `in ${source} of ${ref.dir}` })
        if (verdict.detection.hardline) return verdict
        // Scripts the recipes run are read as well (`make` → `./deploy.sh`), and the test files a test runner they
        // start collects (`"test": "jest"`, `pytest`). (Only test runners: a script starting another project runner
        // would be read again and again.)
        if (inner.scripts.length > 0) verdict = stronger(verdict, yield* self.scripts(inner.scripts, dir, 2))
        const tests = inner.runners.filter((r) => r.runner.kind === "tests")
        if (tests.length > 0) verdict = stronger(verdict, yield* self.runners(tests, dir))
        // npm puts node_modules/.bin first on PATH for its scripts.
        if (runner.kind === "package") {
          verdict = stronger(verdict, yield* self.planted(inner.programs, [`${dir}/node_modules/.bin`]))
        }
        if (verdict.detection.hardline) return verdict
      }
      return verdict
    })
  }

  /**
   * `pytest`, `python -m unittest discover`: the test files (and conftests) they would collect under `roots`, found
   * by listing directories as the runner walks them, are read and judged as the Python they are. Without a way to
   * list, nothing is walked (the conftests and named files are read elsewhere).
   */
  private testFiles(roots: ReadonlyArray<string>, pattern: RegExp, dir: string, language: "python" | "node", folder?: RegExp): Effect.Effect<Verdict> {
    const self = this
    return Effect.gen(function*() {
      const list = self.surroundings.listDir
      if (list === undefined) return { detection: SAFE }
      const files: Array<string> = []
      const queue = yield* Effect.forEach(roots, (r) => Effect.map(landing(self.surroundings, joinPath(dir, r, self.env.home)), (path) => ({ path, depth: 0 })))
      let listed = 0
      while (queue.length > 0) {
        const next = queue.shift()
        if (next === undefined) break
        if (++listed > MAX_TEST_DIRS) return { detection: dangerous(UNREADABLE_SCRIPT_DESCRIPTION), note: `more than ${MAX_TEST_DIRS} test directories` }
        const entries = yield* list(next.path)
        // A virtualenv is not collected.
        if (entries.some((e) => e.name === "pyvenv.cfg")) continue
        const inTestFolder = folder !== undefined && folder.test(posix.basename(next.path))
        for (const e of entries) {
          const path = `${next.path}/${e.name}`
          if (e.type === "directory" && next.depth < MAX_TEST_DEPTH && !NOT_COLLECTED.test(e.name)) queue.push({ path, depth: next.depth + 1 })
          else if (e.type !== "directory" && (pattern.test(e.name) || (language === "python" ? e.name === "conftest.py" : inTestFolder && /\.[cm]?[jt]sx?$/.test(e.name)))) files.push(path)
        }
        if (files.length > MAX_TEST_FILES) return { detection: dangerous(UNREADABLE_SCRIPT_DESCRIPTION), note: `more than ${MAX_TEST_FILES} test files` }
      }
      self.readLimit += files.length
      return yield* self.scripts(files.map((path): ScriptRef => ({ path, language, optional: true })), dir, 1)
    })
  }

  /**
   * The directories of the local packages a package.json installs (`file:` dependencies, workspaces; a `dir/*`
   * workspace is listed), or why they cannot be known: an archive, a wider glob, too many.
   */
  private installedLocally(packageJson: string, dir: string): Effect.Effect<ReadonlyArray<string> | string> {
    const self = this
    return Effect.gen(function*() {
      const out: Array<string> = [...localDependencies(packageJson)]
      const archive = out.find((d) => ARCHIVE_PATH.test(d))
      if (archive !== undefined) return `package archive ${archive}`
      for (const pattern of workspacePatterns(packageJson)) {
        const clean = pattern.replace(/^\.\//, "").replace(/\/$/, "")
        if (!/[*?[{]/.test(clean)) {
          out.push(clean)
          continue
        }
        const parent = /^([^*?[{]*)\/\*$/.exec(clean)?.[1]
        const list = self.surroundings.listDir
        if (parent === undefined || list === undefined) return `workspaces ${pattern}`
        for (const e of yield* list(yield* landing(self.surroundings, joinPath(dir, parent, self.env.home)))) {
          if (e.type === "directory" || e.type === "symlink") out.push(`${parent}/${e.name}`)
        }
      }
      return out.length > MAX_LOCAL_PACKAGES ? `more than ${MAX_LOCAL_PACKAGES} local packages` : out
    })
  }

  /**
   * The text of the files an `include` line names (literal names, relative to the directory), recursively; their
   * names go to `names`. A makefile's include of a file that is not there is a file make first makes with its own
   * rules, then reads: what it will hold is not known here.
   */
  private includes(
    makefile: string,
    dir: string,
    depth: number,
    pattern: RegExp = MAKE_INCLUDE,
    names: Array<string> = []
  ): Effect.Effect<string | "too-large"> {
    const self = this
    return Effect.gen(function*() {
      const out: Array<string> = []
      for (const line of makefile.split("\n")) {
        const m = pattern.exec(line)
        if (m === null) continue
        for (const name of (m[1] ?? "").trim().split(/\s+/)) {
          if (name.includes("$") || name === "") {
            return "too-large" as const
          }
          const file = yield* self.read(joinPath(dir, name, self.env.home))
          if (file === "too-large") return file
          if (Option.isNone(file)) {
            if (pattern === MAKE_INCLUDE) return "too-large" as const
            continue
          }
          names.push(name)
          out.push(file.value)
          if (depth < MAX_SCRIPT_DEPTH) {
            const deeper = yield* self.includes(file.value, dir, depth + 1, pattern, names)
            if (deeper === "too-large") return deeper
            out.push(deeper)
          }
        }
      }
      return out.join("\n")
    })
  }
}
