/**
 * Commands that run shell text kept in a project file: `make` runs Makefile
 * recipes, `ninja` the commands of build.ninja, `npm test` / `yarn build` /
 * `pnpm run x` / `npm pack` run package.json scripts (and `npm install
 * ../pkg` those of the package it installs), `node --env-file` applies a
 * file's variables (NODE_OPTIONS too) to node itself.
 * A model that can write those files can make an innocent-looking `make` or
 * `npm test` run anything, so approval judges the text they would run.
 * Pure: the caller reads the files.
 */
import { lookupTable } from "../../../lib/lookupTable.js"

export type Runner =
  | {
    readonly kind: "make"
    /** `-f FILE`, else the first of GNUmakefile, makefile, Makefile that exists. */
    readonly files: ReadonlyArray<string>
    /** The files were named with `-f`: make reads every one of them, in order. */
    readonly named: boolean
    /** `-C DIR`, relative to the command's directory. */
    readonly dir: string | undefined
    readonly targets: ReadonlyArray<string>
  }
  | {
    /** A test runner that collects test files by walking directories (pytest, unittest discover). */
    readonly kind: "tests"
    readonly dir: string | undefined
    /** Directories it walks, relative to `dir`. */
    readonly roots: ReadonlyArray<string>
    /** Names of the files it imports there. */
    readonly pattern: RegExp
    /** The language of those files (default python); a JavaScript runner also loads every script in a folder named so. */
    readonly language?: "node" | undefined
    readonly folder?: RegExp | undefined
  }
  | {
    readonly kind: "package"
    readonly dir: string | undefined
    /** Script names in the order they run (pre…, the script, post…). */
    readonly scripts: ReadonlyArray<string>
    /** An install: the local packages package.json depends on (`file:`, `link:`, a path) run their install scripts too. */
    readonly installs?: boolean
    /** A package archive (`npm install ./x.tgz`): its scripts cannot be read before it is unpacked. */
    readonly archive?: boolean
    /** The package manager: yarn runs the file `.yarnrc.yml`'s `yarnPath` names, pnpm loads `.pnpmfile.cjs`. */
    readonly tool?: string
  }
  | {
    /** `ninja [-C dir] [-f file] [targets]`: the commands of the build edges the targets need. */
    readonly kind: "ninja"
    readonly dir: string | undefined
    readonly file: string
    readonly targets: ReadonlyArray<string>
  }
  | {
    /** `ctest [--test-dir d]`: the tests CTestTestfile.cmake (and the subdirectories it names) add. */
    readonly kind: "ctest"
    readonly dir: string | undefined
  }
  | {
    /** `node --env-file=F`: node takes the file's variables (NODE_OPTIONS among them) for itself. */
    readonly kind: "envFile"
    readonly dir: undefined
    readonly files: ReadonlyArray<string>
  }

const MAKEFILES = ["GNUmakefile", "makefile", "Makefile"]
const MAKE_VALUE_OPTIONS = new Set(["-f", "--file", "--makefile", "-C", "--directory", "-I", "--include-dir", "-o", "--old-file", "-W", "--what-if", "-j", "-l", "-O"])

const makeRunner = (args: ReadonlyArray<string>): Runner => {
  const files: Array<string> = []
  let dir: string | undefined
  const targets: Array<string> = []
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? ""
    const eq = a.indexOf("=")
    if (a === "-f" || a === "--file" || a === "--makefile") files.push(args[++i] ?? "")
    else if (a.startsWith("--file=") || a.startsWith("--makefile=")) files.push(a.slice(eq + 1))
    else if (a.startsWith("-f") && a.length > 2) files.push(a.slice(2))
    else if (a === "-C" || a === "--directory") dir = args[++i]
    else if (a.startsWith("--directory=")) dir = a.slice(eq + 1)
    else if (a.startsWith("-C") && a.length > 2) dir = a.slice(2)
    else if (MAKE_VALUE_OPTIONS.has(a) && a !== "-j" && a !== "-l") i++
    else if (a.startsWith("-")) continue
    else if (eq > 0) continue // a variable override on the command line
    else targets.push(a)
  }
  return { kind: "make", files: files.length > 0 ? files : MAKEFILES, named: files.length > 0, dir, targets }
}

export const INSTALL_SCRIPTS: ReadonlyArray<string> = ["preinstall", "install", "postinstall", "prepublish", "preprepare", "prepare", "postprepare"]

/**
 * The scripts a package manager's command runs from the project's package.json, by npm's lifecycle: `npm test`
 * runs pretest, test, posttest; an install (and what reifies the tree: ci, update, uninstall, rebuild, link…) the
 * install hooks and prepare; pack, publish and version their own.
 */
const LIFECYCLES: Readonly<Record<string, ReadonlyArray<string>>> = lookupTable({
  install: INSTALL_SCRIPTS,
  rebuild: INSTALL_SCRIPTS,
  pack: ["prepack", "prepare", "postpack"],
  publish: ["prepublishOnly", "prepack", "prepare", "postpack", "publish", "postpublish"],
  version: ["preversion", "version", "postversion"],
  restart: ["prerestart", "restart", "postrestart", "prestop", "stop", "poststop", "prestart", "start", "poststart"]
})
const lifecycle = (name: string): ReadonlyArray<string> => LIFECYCLES[name] ?? [`pre${name}`, name, `post${name}`]

const NPM_ALIASES: Readonly<Record<string, string>> = lookupTable({
  t: "test", tst: "test", rum: "run", "run-script": "run", it: "install-test", cit: "install-ci-test",
  i: "install", in: "install", ins: "install", inst: "install", insta: "install", instal: "install", isnt: "install",
  isnta: "install", isntal: "install", isntall: "install", add: "install", ci: "install", "clean-install": "install",
  ic: "install", "install-clean": "install", "isntall-clean": "install", update: "install", up: "install",
  upgrade: "install", udpate: "install", dedupe: "install", ddp: "install", uninstall: "install", remove: "install",
  rm: "install", r: "install", un: "install", unlink: "install", prune: "install", link: "install", ln: "install",
  rb: "rebuild"
})

/** yarn's, pnpm's and bun's own verbs that reify the tree: every other first word names a script. */
const OTHER_ALIASES: Readonly<Record<string, string>> = lookupTable({
  t: "test", "run-script": "run", i: "install", add: "install", remove: "install", rm: "install", up: "install",
  update: "install", upgrade: "install", rebuild: "rebuild", rb: "rebuild", link: "install", ln: "install",
  unlink: "install", prune: "install", dedupe: "install", ci: "install"
})

/** Verbs of npm itself (not scripts): anything else, for npm, runs no project script. */
const NPM_VERBS = new Set(["test", "start", "stop", "restart", "install", "rebuild", "pack", "publish", "version"])

/**
 * A package spec that names something on this machine (`../pkg`, `file:./pkg`, `link:x`, `./x.tgz`): its scripts
 * are files a model could have written. Registry names and remote URLs are not (`left-pad`, `@s/x@1`, `user/repo`).
 */
export const localPackageSpec = (spec: string): string | null => {
  const m = /^(?:[\w@./-]+@)?(?:file|link):(.*)$/.exec(spec)
  if (m !== null) return m[1] === "" ? "." : (m[1] ?? ".")
  return /^(?:\.{1,2}(?:\/|$)|\/|~\/)/.test(spec) ? spec : null
}

export const ARCHIVE_PATH = /\.(?:tgz|tar|tar\.gz)$/i

const packageRunner = (tool: string, args: ReadonlyArray<string>): Runner | null => {
  const DIR_FLAGS = ["--prefix", "-C", "--cwd", "--dir"]
  let dir: string | undefined
  const words: Array<string> = []
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? ""
    const eq = a.indexOf("=")
    if (DIR_FLAGS.includes(a)) dir = args[++i]
    else if (eq > 0 && a.startsWith("--") && DIR_FLAGS.includes(a.slice(0, eq))) dir = a.slice(eq + 1)
    else if (!a.startsWith("-")) words.push(a)
  }
  const first = words[0]
  if (first === undefined) return tool === "npm" ? null : { kind: "package", dir, scripts: lifecycle("install"), installs: true }
  const verb = (tool === "npm" ? NPM_ALIASES : OTHER_ALIASES)[first] ?? first
  if (verb === "run" || verb === "exec" && tool !== "npm") {
    const name = words[1]
    return name === undefined ? null : { kind: "package", dir, scripts: lifecycle(name) }
  }
  if (verb === "install-test" || verb === "install-ci-test") {
    return { kind: "package", dir, scripts: [...lifecycle("install"), ...lifecycle("test")], installs: true }
  }
  if (NPM_VERBS.has(verb)) {
    // `npm install <pkg>` installs a dependency: a registry package's scripts are the registry's, not the project's
    // (a local one's are read through `localPackages`).
    if (verb === "install" && words.length > 1) return null
    return { kind: "package", dir, scripts: lifecycle(verb), ...(verb === "install" ? { installs: true } : {}) }
  }
  // yarn / pnpm / bun run a script named as the first word.
  if (tool === "npm") return null
  return { kind: "package", dir, scripts: lifecycle(verb), ...(verb === "install" ? { installs: true } : {}) }
}

/**
 * The local packages an install names (`npm install ../pkg`, `yarn add file:./x`, `pnpm add ./x.tgz`): each runs its
 * install scripts, read from its own package.json (an archive's cannot be read).
 */
export const localPackages = (program: string, args: ReadonlyArray<string>): ReadonlyArray<Runner> => {
  if (program !== "npm" && program !== "yarn" && program !== "pnpm" && program !== "bun") return []
  const words = args.filter((a, i) => !a.startsWith("-") && !["--prefix", "-C", "--cwd", "--dir"].includes(args[i - 1] ?? ""))
  if (((program === "npm" ? NPM_ALIASES : OTHER_ALIASES)[words[0] ?? ""] ?? words[0]) !== "install") return []
  const out: Array<Runner> = []
  for (const spec of words.slice(1)) {
    const path = localPackageSpec(spec)
    if (path === null) continue
    out.push({ kind: "package", dir: path, scripts: INSTALL_SCRIPTS, installs: true, ...(ARCHIVE_PATH.test(path) ? { archive: true } : {}) })
  }
  return out
}

/** A JSON object's fields; null when the text is not JSON or not an object. */
const jsonObject = (text: string): Readonly<Record<string, unknown>> | null => {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return null
  }
  return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null
}

/**
 * The directories of the local packages a package.json depends on (`"x": "file:../x"`, `"link:…"`, a path), in
 * every dependency table: installing the project installs them and runs their scripts.
 */
export const localDependencies = (packageJson: string): ReadonlyArray<string> => {
  const parsed = jsonObject(packageJson)
  if (parsed === null) return []
  const out: Array<string> = []
  for (const table of ["dependencies", "devDependencies", "optionalDependencies", "peerDependencies"]) {
    const deps = parsed[table]
    if (typeof deps !== "object" || deps === null) continue
    for (const spec of Object.values(deps as Record<string, unknown>)) {
      const path = typeof spec === "string" ? localPackageSpec(spec) : null
      if (path !== null && !out.includes(path)) out.push(path)
    }
  }
  return out
}

/**
 * The workspaces a package.json names (`"workspaces": ["packages/*", "tools/cli"]`, or `{ "packages": […] }`):
 * installing the root installs each, and runs its install scripts.
 */
export const workspacePatterns = (packageJson: string): ReadonlyArray<string> => {
  let spaces = jsonObject(packageJson)?.["workspaces"]
  if (typeof spaces === "object" && spaces !== null && !Array.isArray(spaces)) spaces = (spaces as Record<string, unknown>).packages
  return Array.isArray(spaces) ? spaces.filter((w): w is string => typeof w === "string") : []
}

const NINJA_VALUED = new Set(["-C", "-f", "-j", "-k", "-l", "-d", "-t", "-w"])

/** `ninja [-C dir] [-f file] [targets]`; `-t tool` runs a tool, not the build (`-t clean` only deletes outputs). */
const ninjaRunner = (args: ReadonlyArray<string>): Runner | null => {
  let dir: string | undefined
  let file = "build.ninja"
  const targets: Array<string> = []
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? ""
    const joined = /^-[Cf]./.test(a) ? a.slice(2) : undefined
    if (a === "-t" || a.startsWith("-t") && a.length > 2 || a === "--version" || a === "-h" || a === "--help" || a === "-n") return null
    if (a === "-C" || a.startsWith("-C") && joined !== undefined) dir = joined ?? args[++i]
    else if (a === "-f" || a.startsWith("-f") && joined !== undefined) file = joined ?? args[++i] ?? file
    else if (NINJA_VALUED.has(a)) i++
    else if (!a.startsWith("-")) targets.push(a)
  }
  return { kind: "ninja", dir, file, targets }
}

/** ctest options that take the next word. */
const CTEST_VALUED = new Set([
  "-C", "--build-config", "-j", "--parallel", "-R", "--tests-regex", "-E", "--exclude-regex", "-L", "--label-regex",
  "-LE", "--label-exclude", "-I", "--tests-information", "-O", "--output-log", "--output-junit", "--timeout",
  "--repeat", "--repeat-until-fail", "-FA", "-FS", "-FC", "--fixture-exclude-any", "--resource-spec-file",
  "--test-load", "--stop-time", "--test-dir", "-M", "--test-model", "-T", "--test-action", "-S", "-SP", "-SR",
  "--script", "--script-new-process", "-D", "--dashboard", "-A", "--add-notes", "--group", "--track", "--tests-from-file",
  "--exclude-from-file", "--max-width"
])

/** `ctest` running the tests a build tree lists; null for listing (-N) and information (its scripts are opaque code). */
const ctestRunner = (args: ReadonlyArray<string>): Runner | null => {
  let dir: string | undefined
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? ""
    if (a === "-N" || a === "--show-only" || a.startsWith("--show-only=") || a === "--version" || a === "--help") return null
    if (a === "--test-dir") dir = args[i + 1]
    else if (a.startsWith("--test-dir=")) dir = a.slice("--test-dir=".length)
    if (CTEST_VALUED.has(a)) i++
  }
  return { kind: "ctest", dir }
}

/** One CMake command of a file: its name (lower-cased) and its arguments, unquoted (`${…}` kept as written). */
const cmakeCommands = (text: string): ReadonlyArray<{ readonly name: string; readonly args: ReadonlyArray<string> }> => {
  const out: Array<{ name: string; args: Array<string> }> = []
  const src = text.replace(/#\[(=*)\[[\s\S]*?\]\1\]/g, " ")
  const head = /([A-Za-z_][A-Za-z0-9_]*)\s*\(/y
  let i = 0
  while (i < src.length) {
    const ch = src[i] ?? ""
    if (ch === "#") {
      const nl = src.indexOf("\n", i)
      i = nl < 0 ? src.length : nl + 1
      continue
    }
    if (/\s/.test(ch)) {
      i++
      continue
    }
    head.lastIndex = i
    const m = head.exec(src)
    if (m === null) return [{ name: "?", args: [] }]
    i = head.lastIndex
    const args: Array<string> = []
    let depth = 0
    while (i < src.length) {
      const c = src[i] ?? ""
      if (c === ")" && depth === 0) {
        i++
        break
      }
      if (c === "(" || c === ")") {
        depth += c === "(" ? 1 : -1
        i++
      } else if (/\s/.test(c)) i++
      else if (c === "#") {
        const nl = src.indexOf("\n", i)
        i = nl < 0 ? src.length : nl + 1
      } else if (c === "\"") {
        let v = ""
        i++
        while (i < src.length && src[i] !== "\"") {
          if (src[i] === "\\" && i + 1 < src.length) i++
          v += src[i]
          i++
        }
        i++
        args.push(v)
      } else if (c === "[" && /^\[=*\[/.test(src.slice(i, i + 40))) {
        const eqs = /^\[(=*)\[/.exec(src.slice(i))?.[1] ?? ""
        const close = `]${eqs}]`
        const end = src.indexOf(close, i)
        args.push(src.slice(i + eqs.length + 2, end < 0 ? src.length : end))
        i = end < 0 ? src.length : end + close.length
      } else {
        const m2 = /^[^\s()#"]+/.exec(src.slice(i, i + 4096))
        const v = m2?.[0] ?? c
        args.push(v)
        i += v.length
      }
    }
    out.push({ name: (m[1] ?? "").toLowerCase(), args })
  }
  return out
}

/** What a CTestTestfile.cmake holds besides tests and their properties: CMake code the gate does not read. */
const CTEST_FILE_COMMANDS = new Set(["add_test", "set_tests_properties", "subdirs", "set_directory_properties", "if", "elseif", "else", "endif"])

/**
 * A CTestTestfile.cmake (what `ctest` reads in a build tree) as the commands its tests run (each argument quoted,
 * one line per test), their ENVIRONMENT properties as assignments, and the subdirectories it names; `opaque` when
 * it holds any other CMake command (`execute_process`, `file(REMOVE…)`, `include`), which runs as ctest reads it.
 */
export const ctestFile = (text: string): { readonly commands: string; readonly subdirs: ReadonlyArray<string>; readonly opaque: boolean } => {
  const lines: Array<string> = []
  const subdirs: Array<string> = []
  let opaque = false
  for (const { name, args } of cmakeCommands(text)) {
    if (!CTEST_FILE_COMMANDS.has(name)) opaque = true
    else if (name === "add_test") {
      const named = args[0] === "NAME"
      const at = named ? args.indexOf("COMMAND") + 1 : 1
      const argv = (named ? args.slice(at).filter((a) => !["CONFIGURATIONS", "WORKING_DIRECTORY", "COMMAND_EXPAND_LISTS"].includes(a)) : args.slice(at))
      if (argv.length > 0 && argv[0] !== "NOT_AVAILABLE") lines.push(argv.map(singleQuoted).join(" ").replace(/'\$\{([^}']*)\}'/g, "${$1}"))
    } else if (name === "set_tests_properties") {
      const k = args.findIndex((a) => a === "ENVIRONMENT" || a === "ENVIRONMENT_MODIFICATION")
      const assignments = (args[k + 1] ?? "").split(";").map((e) => /^([A-Za-z_][A-Za-z0-9_]*)(?:=[a-z_]*:|=)(.*)$/.exec(e)).filter((m) => m !== null)
      if (k >= 0 && assignments.length > 0) lines.push(`${assignments.map((m) => `${m[1]}=${singleQuoted(m[2] ?? "")}`).join(" ")} x`)
    } else if (name === "subdirs") subdirs.push(...args)
  }
  return { commands: lines.join("\n"), subdirs, opaque }
}

/** `node --env-file=F` / `--env-file-if-exists F`: the files, in order. */
const envFileRunner = (args: ReadonlyArray<string>): Runner | null => {
  const files: Array<string> = []
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? ""
    if (!a.startsWith("-")) break
    const m = /^--env-file(?:-if-exists)?(?:=(.*))?$/.exec(a)
    if (m !== null) files.push(m[1] ?? args[++i] ?? "")
  }
  return files.length === 0 ? null : { kind: "envFile", dir: undefined, files }
}

/** pytest options that take the next word (shared with the conftest and plugin lookup in localFiles.ts). */
export const PYTEST_VALUED: ReadonlySet<string> = new Set([
  "-k", "-m", "-c", "-o", "-p", "-W", "--rootdir", "--confcutdir", "--basetemp", "--junitxml", "--junit-xml", "--tb",
  "--maxfail", "--durations", "--ignore", "--ignore-glob", "--deselect", "--log-level", "--log-file", "--cov",
  "--cov-report", "--capture", "--import-mode", "-n", "--numprocesses", "--timeout", "--override-ini", "--config-file"
])
/** pytest's default `python_files`, and unittest discover's default pattern. */
const PYTEST_FILES = /^(?:test_.*|.*_test)\.py$/
const UNITTEST_FILES = /^test.*\.py$/

/** `pytest [dirs…]`: with no path it walks the working directory; named files alone need no walk (read elsewhere). */
const pytestRunner = (args: ReadonlyArray<string>): Runner | null => {
  const paths: Array<string> = []
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? ""
    if (PYTEST_VALUED.has(a)) i++
    else if (!a.startsWith("-")) paths.push(a.split("::")[0] ?? a)
  }
  const roots = paths.length === 0 ? ["."] : paths.filter((p) => !p.endsWith(".py"))
  return roots.length === 0 ? null : { kind: "tests", dir: undefined, roots, pattern: PYTEST_FILES }
}

/** `python -m unittest` (no names) or `discover [-s dir] [-p pattern]`. */
const unittestRunner = (args: ReadonlyArray<string>): Runner | null => {
  const names = args.filter((a, i) => !a.startsWith("-") && !["-s", "-p", "-t", "-k", "--start-directory", "--pattern", "--top-level-directory"].includes(args[i - 1] ?? ""))
  if (names.length > 0 && names[0] !== "discover") return null
  const value = (flags: ReadonlyArray<string>) => {
    const i = args.findIndex((a) => flags.includes(a))
    return i >= 0 ? args[i + 1] : undefined
  }
  const start = value(["-s", "--start-directory"]) ?? names[1] ?? "."
  const glob = value(["-p", "--pattern"]) ?? names[2]
  const pattern = glob === undefined ? UNITTEST_FILES : new RegExp(`^${glob.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".")}$`)
  return { kind: "tests", dir: undefined, roots: [start], pattern }
}

/**
 * JavaScript test runners (round 9): jest, vitest, mocha and `bun test` load every `*.test.js` / `*.spec.ts` below
 * where they run (and jest the scripts in `__tests__`, mocha those in `test/`), whatever positional filters say. A
 * test file is code the model may have written: the judge reads each as node.
 */
const JS_TEST_FILES = /\.(?:test|spec)\.[cm]?[jt]sx?$/
const JS_TEST_FOLDERS = /^(?:__tests__|tests?)$/
const jsTestRunner = (program: string, args: ReadonlyArray<string>): Runner | null => {
  const verb = args.find((a) => !a.startsWith("-"))
  if (program === "bun" && verb !== "test") return null
  if (program === "vitest" && verb !== undefined && ["bench", "list", "init"].includes(verb)) return null
  return { kind: "tests", dir: undefined, roots: ["."], pattern: JS_TEST_FILES, language: "node", folder: JS_TEST_FOLDERS }
}
const JS_TEST_RUNNERS = new Set(["jest", "vitest", "mocha", "bun"])

/** The runner behind one executed command (program basename and its arguments), or null. */
export const runnerOf = (program: string, args: ReadonlyArray<string>): Runner | null => {
  if (program === "pytest" || program === "py.test") return pytestRunner(args)
  if (JS_TEST_RUNNERS.has(program) && (program !== "bun" || args.find((a) => !a.startsWith("-")) === "test")) return jsTestRunner(program, args)
  if (/^python[\d.]*$/.test(program)) {
    const m = args.indexOf("-m")
    const mod = m >= 0 ? args[m + 1] : undefined
    if (mod === "pytest" || mod === "py.test") return pytestRunner(args.slice(m + 2))
    if (mod === "unittest") return unittestRunner(args.slice(m + 2))
    return null
  }
  if (program === "make" || program === "gmake") return makeRunner(args)
  if (program === "ninja" || program === "samu") return ninjaRunner(args)
  if (program === "ctest") return ctestRunner(args)
  if (/^node(?:js)?[\d.]*$/.test(program)) return envFileRunner(args)
  if (program === "npm" || program === "yarn" || program === "pnpm") {
    const runner = packageRunner(program, args)
    // yarn and pnpm load project code for any command (yarnPath, .pnpmfile.cjs), scripts or none.
    if (runner === null && program !== "npm") return { kind: "package", dir: undefined, scripts: [], tool: program }
    return runner?.kind === "package" ? { ...runner, tool: program } : runner
  }
  if (program === "bun" && args[0] === "run") return packageRunner("bun", args)
  return null
}

/**
 * Plugins a pytest config loads from its `addopts` (`-p name`, `-pname`, `"-p", "name"` in a TOML list), from any of
 * pytest.ini, pyproject.toml, tox.ini and setup.cfg; `-p no:name` disables one.
 */
export const pytestConfigPlugins = (config: string): ReadonlyArray<string> => {
  const out: Array<string> = []
  for (const m of config.matchAll(/^\s*addopts\s*=([^\n]*(?:\n[ \t]+[^\n]*)*)/gm)) {
    const text = (m[1] ?? "").replace(/["',[\]]/g, " ")
    for (const p of text.matchAll(/(?:^|\s)-p\s*([A-Za-z_][\w.]*)/g)) if (!out.includes(p[1] ?? "")) out.push(p[1] ?? "")
  }
  return out
}

/** The shell text the named package.json scripts hold (absent ones skipped); null when the file is not JSON. */
export const packageScriptText = (packageJson: string, names: ReadonlyArray<string>): string | null => {
  let parsed: unknown
  try {
    parsed = JSON.parse(packageJson)
  } catch {
    return null
  }
  if (typeof parsed !== "object" || parsed === null || !("scripts" in parsed)) return ""
  const scripts = parsed.scripts
  if (typeof scripts !== "object" || scripts === null) return ""
  const table = scripts as Record<string, unknown>
  return names.map((n) => table[n]).filter((s): s is string => typeof s === "string").join("\n")
}

/**
 * CMake's generated build files re-run the configure when a CMakeLists.txt changed (`cmake --check-build-system`,
 * `--regenerate-during-build`). Such a line, alone and plain, is left out of the text judged, or every `make` of a
 * CMake tree would ask; typed as a command it is judged as the configure it is (opaqueInterpreters.ts).
 */
const CMAKE_REGENERATE = /^(?:cd [^\s;&|`$()<>]+ && )?[^\s;&|`$()<>]*cmake(?: [^;&|`$()<>\n]*)? --(?:check-build-system|regenerate-during-build)(?: [^;&|`$()<>\n]*)?$/
const notCMakeRegeneration = (line: string): boolean => !CMAKE_REGENERATE.test(line.trim())

const BUILTIN_VARS: Readonly<Record<string, string>> = lookupTable({
  CC: "cc", CXX: "g++", CPP: "cc -E", LD: "ld", AR: "ar", AS: "as", RM: "rm -f", MAKE: "make", SHELL: "/bin/sh",
  INSTALL: "install", MKDIR_P: "mkdir -p", LN_S: "ln -s", PYTHON: "python3", FC: "f77", YACC: "yacc", LEX: "lex"
})

const RULE = /^([^\s:=#][^:=#]*?)\s*::?\s*(?![=])([^;#]*)(?:;(.*))?$/
const ASSIGN = /^(?:override\s+|export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*(?::{1,3}|\?|\+|!)?=\s*(.*)$/

/**
 * Recipes `make` would run for `targets` (default: the first target), with the
 * prerequisites they pull in, as shell text. Make variables are substituted
 * from the file's simple assignments and make's defaults; an unknown one stays
 * a shell expansion, which the detector treats as computed.
 */
export const makeRecipes = (makefile: string, targets: ReadonlyArray<string>): string => {
  const vars = new Map<string, string>(Object.entries(BUILTIN_VARS))
  const rules = new Map<string, { prereqs: Array<string>; recipe: Array<string> }>()
  let order: Array<string> = []
  let current: Array<string> | null = null
  const parseTime: Array<string> = []
  const lines = makefile.replace(/\\\n/g, " ").split("\n")
  for (const line of lines) {
    if (line.startsWith("\t")) {
      if (current !== null) for (const t of current) rules.get(t)?.recipe.push(line.slice(1))
      continue
    }
    const trimmed = line.trim()
    if (trimmed === "" || trimmed.startsWith("#")) continue
    const assign = ASSIGN.exec(trimmed)
    if (assign !== null && !RULE.test(trimmed.replace(/:?=.*$/, ""))) {
      vars.set(assign[1] ?? "", assign[2] ?? "")
      // `$(shell …)` runs while make reads the file, whatever the target.
      if (/\$[({]shell\s/.test(assign[2] ?? "")) parseTime.push(assign[2] ?? "")
      current = null
      continue
    }
    const rule = RULE.exec(trimmed)
    if (rule === null) {
      current = null
      continue
    }
    const names = (rule[1] ?? "").split(/\s+/).filter((t) => t !== "")
    const prereqs = (rule[2] ?? "").split(/\s+/).filter((t) => t !== "" && t !== "|")
    for (const t of names) {
      const entry = rules.get(t) ?? { prereqs: [], recipe: [] }
      entry.prereqs.push(...prereqs)
      if (rule[3] !== undefined && rule[3].trim() !== "") entry.recipe.push(rule[3])
      rules.set(t, entry)
      if (!t.startsWith(".") && !order.includes(t)) order = [...order, t]
    }
    current = names
  }
  const wanted = targets.length > 0 ? [...targets] : order.slice(0, 1)
  const seen = new Set<string>()
  const out: Array<string> = parseTime.map((v) => v.replace(/\$[({]shell\s+/g, "$("))
  const visit = (target: string, depth: number) => {
    if (seen.has(target) || depth > 64) return
    seen.add(target)
    const rule = rules.get(target) ?? patternRule(rules, target)
    if (rule === undefined) return
    for (const p of rule.prereqs) visit(expand(p, vars, 0), depth + 1)
    for (const line of rule.recipe) out.push(expand(line.replace(/^[@+-]+/, ""), vars, 0))
  }
  for (const t of wanted) visit(t, 0)
  return out.filter(notCMakeRegeneration).join("\n")
}

/** A `%.o: %.c` rule for a target no explicit rule names. */
const patternRule = (rules: ReadonlyMap<string, { prereqs: Array<string>; recipe: Array<string> }>, target: string) => {
  for (const [name, rule] of rules) {
    const pct = name.indexOf("%")
    if (pct < 0) continue
    const [pre, post] = [name.slice(0, pct), name.slice(pct + 1)]
    if (target.startsWith(pre) && target.endsWith(post) && target.length >= pre.length + post.length) return rule
  }
  return undefined
}

const expand = (text: string, vars: ReadonlyMap<string, string>, depth: number): string =>
  text
    .replace(/\$\$/g, "\u0000")
    .replace(/\$[@<^*?%+|]/g, "target")
    .replace(/\$[({]([A-Za-z_][A-Za-z0-9_.-]*)[)}]|\$([A-Za-z_])/g, (all, long: string | undefined, short: string | undefined) => {
      const value = vars.get(long ?? short ?? "")
      if (value === undefined) return all.replace(/^\$[({]/, "${").replace(/[)]$/, "}")
      return depth < 8 ? expand(value, vars, depth + 1) : value
    })
    .replace(/\u0000/g, "$")

/** `.npmrc` settings that name a program npm runs, or code node loads, as the variables they stand for. */
const NPMRC_VARIABLES: Readonly<Record<string, string>> = lookupTable({
  "script-shell": "npm_config_script_shell",
  "node-options": "NODE_OPTIONS",
  shell: "SHELL",
  editor: "EDITOR",
  browser: "BROWSER",
  userconfig: "npm_config_userconfig",
  globalconfig: "npm_config_globalconfig"
})

const singleQuoted = (s: string): string => `'${s.replaceAll("'", "'\\''")}'`

/**
 * An `.npmrc` (the project's or the user's, read by npm, pnpm and yarn 1) as the variable assignments it amounts to
 * (`script-shell=./x` is `npm_config_script_shell=./x`), so the variable rules judge it; empty when it sets none.
 */
export const npmrcAssignments = (text: string): string => {
  const out: Array<string> = []
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim()
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue
    const eq = line.indexOf("=")
    if (eq < 0) continue
    const variable = NPMRC_VARIABLES[line.slice(0, eq).trim().toLowerCase()]
    if (variable === undefined) continue
    const value = line.slice(eq + 1).trim().replace(/^"(.*)"$/, "$1")
    out.push(`${variable}=${singleQuoted(value)}`)
  }
  return out.join(" ")
}

/**
 * The file `.yarnrc.yml` names as the yarn to run (`yarnPath: .yarn/releases/yarn-4.1.cjs`): yarn hands every
 * command to it, so it is a node script every `yarn` runs. Null when it names none.
 */
export const yarnPath = (yarnrc: string): string | null => {
  const m = /^yarnPath\s*:\s*(.+?)\s*$/m.exec(yarnrc)
  return m === null ? null : (m[1] ?? "").replace(/^(["'])(.*)\1$/, "$2")
}

/**
 * A dotenv file (`node --env-file`) as the variable assignments it amounts to (`NAME=value`, `export NAME="v"`,
 * comments and blank lines skipped), so the variable rules judge it; empty when it sets none.
 */
export const dotenvAssignments = (text: string): string => {
  const out: Array<string> = []
  for (const raw of text.split(/\r?\n/)) {
    const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*)$/.exec(raw)
    if (m === null) continue
    let value = (m[2] ?? "").trim()
    const quoted = /^(["'`])([\s\S]*)\1$/.exec(value)
    if (quoted !== null) value = quoted[2] ?? ""
    else value = value.replace(/\s+#.*$/, "")
    out.push(`${m[1]}=${singleQuoted(value)}`)
  }
  return out.join(" ")
}

/** `$$`, `$ ` and `$:` stand for a dollar, a space and a colon in every ninja value. */
const NINJA_ESCAPES: ReadonlyArray<readonly [RegExp, string]> = [[/\$\$/g, "\u0000"], [/\$ /g, "\u0001"], [/\$:/g, "\u0002"]]
const unescapeNinja = (text: string): string => text.replace(/\u0000/g, "$").replace(/\u0001/g, " ").replace(/\u0002/g, ":")

const expandNinja = (text: string, scopes: ReadonlyArray<ReadonlyMap<string, string>>, depth: number): string =>
  text.replace(/\$\{([A-Za-z0-9_.-]+)\}|\$([A-Za-z0-9_-]+)/g, (_all, braced: string | undefined, bare: string | undefined) => {
    const name = braced ?? bare ?? ""
    for (const scope of scopes) {
      const value = scope.get(name)
      if (value !== undefined) return depth < 8 ? expandNinja(value, scopes, depth + 1) : value
    }
    return `\${${name}}`
  })

/**
 * The commands `ninja` would run for a build file and targets (none: the `default` ones, else every output no edge
 * takes as input), with the edges they need first: each edge's rule command expanded as ninja does (the edge's
 * bindings, then the rule's, then the file's; `$in`, `$out`), one per line. An unknown variable stays a shell
 * expansion, which the detector treats as computed.
 */
export const ninjaCommands = (buildFile: string, targets: ReadonlyArray<string> = []): string => {
  let text = buildFile.replace(/\$\r?\n[ \t]*/g, "")
  for (const [pattern, mark] of NINJA_ESCAPES) text = text.replace(pattern, mark)
  const top = new Map<string, string>()
  const rules = new Map<string, Map<string, string>>()
  interface Edge {
    readonly rule: string
    readonly inputs: ReadonlyArray<string>
    readonly vars: Map<string, string>
  }
  const producer = new Map<string, Edge>()
  const consumed = new Set<string>()
  const defaults: Array<string> = []
  const words = (t: string) => unescapeNinja(t).split(/\s+/).filter((w) => w !== "")
  let block: Map<string, string> | null = null
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === "" || /^\s*#/.test(line)) continue
    const binding = /^\s*([A-Za-z0-9_.-]+)\s*=\s*(.*)$/.exec(line)
    if (/^[ \t]/.test(line)) {
      if (block !== null && binding !== null) block.set(binding[1] ?? "", binding[2] ?? "")
      continue
    }
    block = null
    const rule = /^rule\s+(\S+)/.exec(line)
    const edge = /^build\s+([^:]*):\s*(\S+)\s*(.*)$/.exec(line)
    if (rule !== null) {
      block = new Map()
      rules.set(rule[1] ?? "", block)
    } else if (edge !== null) {
      const outs = words((edge[1] ?? "").replace(/\|/g, " "))
      const explicit = (edge[3] ?? "").split(/\s+\|/)[0] ?? ""
      const inputs = words((edge[3] ?? "").replace(/\|\|?@?/g, " "))
      block = new Map([["out", words(edge[1]?.split("|")[0] ?? "").join(" ")], ["in", words(explicit).join(" ")], ["in_newline", words(explicit).join("\n")]])
      const e: Edge = { rule: edge[2] ?? "", inputs, vars: block }
      for (const o of outs) producer.set(o, e)
      for (const d of inputs) consumed.add(d)
    } else if (/^default\s/.test(line)) {
      defaults.push(...words(expandNinja(line.slice(8), [top], 0)))
    } else if (/^pool\s/.test(line)) {
      block = new Map()
    } else if (binding !== null) {
      top.set(binding[1] ?? "", expandNinja(binding[2] ?? "", [top], 0))
    }
  }
  const wanted = targets.length > 0 ? targets : defaults.length > 0 ? defaults : [...producer.keys()].filter((o) => !consumed.has(o))
  const seen = new Set<Edge>()
  const out = new Set<string>()
  const visit = (target: string, depth: number): void => {
    const e = producer.get(target)
    if (e === undefined || seen.has(e) || depth > 256) return
    seen.add(e)
    for (const d of e.inputs) visit(d, depth + 1)
    const rule = rules.get(e.rule)
    const command = rule?.get("command")
    if (rule !== undefined && command !== undefined) out.add(unescapeNinja(expandNinja(command, [e.vars, rule, top], 0)))
  }
  for (const t of wanted) visit(t, 0)
  return [...out].filter(notCMakeRegeneration).join("\n")
}
