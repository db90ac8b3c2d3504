/**
 * Commands that run shell text kept in a project file: `make` runs Makefile
 * recipes, `npm test` / `yarn build` / `pnpm run x` run package.json scripts.
 * A model that can write those files can make an innocent-looking `make` or
 * `npm test` run anything, so approval judges the text they would run.
 * Pure: the caller reads the files.
 */

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
  }
  | {
    readonly kind: "package"
    readonly dir: string | undefined
    /** Script names in the order they run (pre…, the script, post…). */
    readonly scripts: ReadonlyArray<string>
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

/** npm's lifecycle: `npm test` runs pretest, test, posttest; install runs the install hooks and prepare. */
const lifecycle = (name: string): ReadonlyArray<string> =>
  name === "install" || name === "ci" || name === "i"
    ? ["preinstall", "install", "postinstall", "prepublish", "preprepare", "prepare", "postprepare"]
    : [`pre${name}`, name, `post${name}`]

const NPM_ALIASES: Readonly<Record<string, string>> = { t: "test", tst: "test", rum: "run", "run-script": "run", i: "install", it: "install-test" }

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
  if (first === undefined) return tool === "npm" ? null : { kind: "package", dir, scripts: lifecycle("install") }
  const verb = NPM_ALIASES[first] ?? first
  if (verb === "run" || verb === "exec" && tool !== "npm") {
    const name = words[1]
    return name === undefined ? null : { kind: "package", dir, scripts: lifecycle(name) }
  }
  if (verb === "install-test") return { kind: "package", dir, scripts: [...lifecycle("install"), ...lifecycle("test")] }
  if (["test", "start", "stop", "restart", "install", "ci"].includes(verb)) {
    // `npm install <pkg>` installs a dependency: its scripts are the registry's, not the project's.
    if ((verb === "install" || verb === "ci") && words.length > 1) return null
    return { kind: "package", dir, scripts: lifecycle(verb) }
  }
  // yarn / pnpm / bun run a script named as the first word.
  return tool === "npm" ? null : { kind: "package", dir, scripts: lifecycle(verb) }
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

/** The runner behind one executed command (program basename and its arguments), or null. */
export const runnerOf = (program: string, args: ReadonlyArray<string>): Runner | null => {
  if (program === "pytest" || program === "py.test") return pytestRunner(args)
  if (/^python[\d.]*$/.test(program)) {
    const m = args.indexOf("-m")
    const mod = m >= 0 ? args[m + 1] : undefined
    if (mod === "pytest" || mod === "py.test") return pytestRunner(args.slice(m + 2))
    if (mod === "unittest") return unittestRunner(args.slice(m + 2))
    return null
  }
  if (program === "make" || program === "gmake") return makeRunner(args)
  if (program === "npm" || program === "yarn" || program === "pnpm") return packageRunner(program, args)
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

const BUILTIN_VARS: Readonly<Record<string, string>> = {
  CC: "cc", CXX: "g++", CPP: "cc -E", LD: "ld", AR: "ar", AS: "as", RM: "rm -f", MAKE: "make", SHELL: "/bin/sh",
  INSTALL: "install", MKDIR_P: "mkdir -p", LN_S: "ln -s", PYTHON: "python3", FC: "f77", YACC: "yacc", LEX: "lex"
}

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
  return out.join("\n")
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
const NPMRC_VARIABLES: Readonly<Record<string, string>> = {
  "script-shell": "npm_config_script_shell",
  "node-options": "NODE_OPTIONS",
  shell: "SHELL",
  editor: "EDITOR",
  browser: "BROWSER",
  userconfig: "npm_config_userconfig",
  globalconfig: "npm_config_globalconfig"
}

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
