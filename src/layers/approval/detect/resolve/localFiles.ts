/**
 * The local files a command line touches, for the caller to look at: the
 * scripts it runs (their text is judged before they run) and every path its
 * commands name (checked against protected directories through symlinks).
 * Relative paths follow the line's own `cd`s when those are literal.
 */
import type { CodeLanguage } from "../../../../services/Approval.js"
import type { Runner } from "../../policy/projectRunners.js"
import { localPackages, PYTEST_VALUED, runnerOf } from "../../policy/projectRunners.js"
import { posix } from "node:path"
import type { Cmd } from "../../shell/ast.js"
import { commandFillsCurrentDirectory, commandWrites } from "../rules/operands.js"
import { editorScripts, readsCommandsFromStdin } from "../editorCommands.js"
import { consoleOf, consoleScripts } from "../consoleCommands.js"
import { lookupTable } from "../../../../lib/lookupTable.js"
import { pythonRunnerTargets } from "./pythonRunners.js"
import type { PipSource } from "./pipBuilds.js"
import { buildSource, pipBuild, requirementPath } from "./pipBuilds.js"
import { projectCode } from "./projectCode.js"
import { gitOptions } from "../gitOptions.js"
import { asCommandSees } from "../pathClasses.js"
import { codeSource, isStdinPath, shellArgs } from "./codeSources.js"
import type { ScriptReader, ScriptRef } from "./resolver.js"
import { MODULE_PATH_VARIABLES } from "../code/localImports.js"

export interface WordText {
  readonly text: string
  /** False when the text is the word as written because it could not be resolved. */
  readonly known: boolean
}

const CD = new Set(["cd", "pushd"])
const PRINTERS = new Set(["echo", "printf"])
const NOT_TARGETS = new Set(["<<", "<<-", "<<<"])
const OPTION_VALUE = /^(?:--?[A-Za-z0-9][\w-]*|[A-Za-z_][A-Za-z0-9_]*)=([\s\S]+)$/

const pathLike = (s: string): boolean =>
  s !== "" && !s.includes("\n") && !s.includes("://") && (s.includes("/") || s.startsWith("~") || s.startsWith("."))

const join = (dir: string, path: string): string => {
  if (path === "." || path === "./") return dir
  const rest = path.startsWith("./") ? path.slice(2) : path
  return dir.endsWith("/") ? dir + rest : `${dir}/${rest}`
}

/** A build or package runner (`make`, `npm test`) and the directory it runs in; unknown when not `sure`. */
export interface RunnerRef {
  readonly runner: Runner
  readonly dir: string
  readonly sure: boolean
}

/** A directory a module search path variable (`PYTHONPATH`, `NODE_PATH`, `PERL5LIB`, `PERLLIB`, `RUBYLIB`) names. */
export interface ModuleDirRef {
  readonly variable: string
  readonly dir: string
}

const MODULE_PATH_NAMES: ReadonlySet<string> = new Set(Object.values(MODULE_PATH_VARIABLES).flat())

/** A module a command line loads by name (`python -m mod`, `perl -Mmod`, `ruby -rfeat`). */
export interface LoadedModule {
  readonly language: CodeLanguage
  readonly name: string
}

/** The directory a `git` command starts in (`-C` followed); unknown when not `sure`. */
export interface GitDirRef {
  readonly dir: string
  readonly sure: boolean
  /** The repository `--git-dir` names (from `dir`): git takes it instead of looking for one. */
  readonly gitDir?: string | undefined
}

/** node's options whose value is the next word (not a file it runs). */
const NODE_VALUED = new Set(["-r", "--require", "--import", "--loader", "--experimental-loader", "--test-reporter", "--test-reporter-destination", "--test-name-pattern", "--test-skip-pattern", "--test-concurrency", "--test-timeout", "--test-shard", "-C", "--conditions", "--env-file", "--input-type", "--title"])

/** Program names looked up on a PATH the task changed, per line. */
const MAX_PROGRAMS = 16

/** `./x.sh`, `x.sh` and `d/../x.sh` are one file. */
const samePath = (path: string): string => posix.normalize(path)

const lastPart = (text: string): string => text.slice(text.lastIndexOf("/") + 1)

/** The files pytest reads its options from (`addopts` may load plugins with `-p`): the first found wins. */
export const PYTEST_CONFIGS = ["./pytest.ini", "./pyproject.toml", "./tox.ini", "./setup.cfg"]

/** What pytest loads besides the tests it collects by walking (projectRunners.ts). */
interface PytestLoads {
  /** `conftest.py` where it starts and in `tests/` and `test/`, each test file it is given, each `-p` plugin. */
  readonly files: ReadonlyArray<string>
  /** Folders whose conftest.py pytest imports, with every folder above them: those of the paths it is given. */
  readonly folders: ReadonlyArray<string>
  /** Config files named with `-c` / `--config-file`. */
  readonly configs: ReadonlyArray<string>
}

const folderOf = (path: string): string => (path.includes("/") ? path.slice(0, path.lastIndexOf("/")) || "/" : ".")

/**
 * pytest imports the conftest.py of every folder from its root down to each path it is given (a file, a folder, a
 * node id `path::test`); the root may be above the working directory (`--rootdir`, a config file found there or
 * named with `-c`). Over-reading is harmless, so every folder up to `/` counts (the judge climbs).
 */
const pytestLoads = (args: ReadonlyArray<string>): PytestLoads => {
  const files = ["./conftest.py", "./tests/conftest.py", "./test/conftest.py"]
  const folders: Array<string> = []
  const configs: Array<string> = []
  let paths = 0
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? ""
    const eq = a.startsWith("--") ? a.indexOf("=") : -1
    const option = eq > 0 ? a.slice(0, eq) : a
    const value = eq > 0 ? a.slice(eq + 1) : PYTEST_VALUED.has(a) ? args[++i] : undefined
    if (value !== undefined) {
      if (option === "-p" && /^[A-Za-z_][\w.]*$/.test(value)) files.push(`./${value.replace(/\./g, "/")}.py`)
      if (option === "-c" || option === "--config-file") {
        configs.push(value)
        folders.push(folderOf(value))
      }
      if (option === "--rootdir") folders.push(value)
      continue
    }
    if (a.startsWith("-")) continue
    const path = a.split("::")[0] ?? a
    paths++
    if (path.endsWith(".py")) {
      files.push(path)
      folders.push(folderOf(path))
    } else folders.push(path.replace(/(.)\/+$/, "$1"))
  }
  if (paths === 0) folders.push(".")
  return { files, folders, configs }
}

/** Text still holding an expansion the resolver could not follow: a name only known when the command runs. */
const computedText = (text: string): boolean => /[$`]/.test(text)

/**
 * Readers whose path is a folder or a packed source the judge looks into (its name is the operand itself, so naming
 * it does not make it certain), and the files in it that, written by the command itself, make what is there now
 * tell nothing.
 */
const LOOKED_INTO: Readonly<Record<string, ReadonlyArray<string>>> = lookupTable({
  "pytest-conftests": ["conftest.py"],
  "pip-project": ["setup.py", "pyproject.toml", "setup.cfg"],
  "pip-packed": []
})

export class Locals {
  readonly scripts: ScriptRef[] = []
  readonly paths: string[] = []
  /** Files the command writes (redirects, cp/mv/ln/tee/sed -i destinations), placed; `sure` when the place is known. */
  private readonly written: Array<{ readonly path: string; readonly sure: boolean }> = []
  /** The last part of every word and redirect target (`conftest.py` of `> conftest.py`). */
  private readonly named = new Set<string>()

  /**
   * The scripts, where a candidate the program may load (`conftest.py`, a `json.py` beside it) counts as certain
   * when the command itself names a file of that name (`printf … > conftest.py && pytest`): missing now, it may
   * be there when the program runs, so it must be readable then too.
   */
  settledScripts(): ReadonlyArray<ScriptRef> {
    if (this.written.length === 0 && !this.scripts.some((s) => s.optional === true)) return this.scripts
    const written = new Set(this.written.map((w) => samePath(w.path)))
    const writtenNames = new Set(this.written.map((w) => lastPart(w.path)))
    return this.scripts.map((s) => {
      // `cp evil.sh x.sh && bash x.sh`: what runs is what the command wrote, not what is there now.
      if (written.has(samePath(s.path))) return { ...s, optional: false, rewritten: true }
      // A folder's files are found by the judge: a conftest.py or setup.py the command writes may be one of them.
      const inside = s.reader === undefined ? undefined : LOOKED_INTO[s.reader]
      if (inside !== undefined) return inside.some((n) => writtenNames.has(n)) ? { ...s, rewritten: true } : s
      return s.optional === true && this.named.has(lastPart(s.path)) ? { ...s, optional: false } : s
    })
  }

  /** The written files whose place is known (relative to where the command starts, or absolute): the judge follows their symlinks. */
  writes(): ReadonlyArray<string> {
    return [...new Set(this.written.filter((w) => w.sure).map((w) => w.path))]
  }

  /**
   * Relative files the command writes before any `cd` of its own: they land in the directory the command starts
   * in, which the judge knows (a `cd .git/hooks` in an earlier call), not the rules.
   */
  readonly startWrites: string[] = []
  /** The command extracts an archive, or downloads under a name the server picks, where it starts. */
  startFills = false

  readonly runners: RunnerRef[] = []
  /** What `mv` moves away (placed like paths): moving a whole directory out of the way needs a look. */
  readonly moves: string[] = []
  /** An `mv` source is computed at run time: where it points is only known when it runs. */
  computedMove = false
  /** Bare program names the line runs: a directory the task put on PATH may hold a planted one. */
  readonly programs: string[] = []
  /** More distinct programs ran than `programs` lists (a PATH the task changed is then judged as unknown). */
  programsCapped = false
  /** Where `git` commands start: git reads the configuration of the repository it finds from there. */
  readonly gitDirs: GitDirRef[] = []
  /** Directories a `PATH=` assignment in the line names. */
  readonly pathDirs: string[] = []
  /** Directories a module search path assignment in the line names (`PYTHONPATH=src`), by variable. */
  readonly moduleDirs: ModuleDirRef[] = []
  /** Modules loaded by name on the command line (`python -m mod`, `perl -Mmod`, `ruby -rfeat`): looked up on the module search path. */
  readonly loadedModules: LoadedModule[] = []
  /** undefined: where the command starts; null: somewhere not known before it runs. */
  private cwd: string | null | undefined = undefined
  /** CDPATH may be set where the next `cd` runs (the resolver says, from the line and the exports). */
  cdPath = false

  private place(written: string): { readonly path: string; readonly sure: boolean } {
    const path = asCommandSees(written)
    if (path.startsWith("/") || path.startsWith("~") || this.cwd === undefined) return { path, sure: true }
    if (this.cwd === null) return { path, sure: false }
    return { path: join(this.cwd, path), sure: true }
  }

  private startWrite(w: string): void {
    if (w.startsWith("/") || w.startsWith("~") || w.startsWith("$") || this.startWrites.includes(w)) return
    this.startWrites.push(w)
  }

  private addPath(t: WordText): void {
    if (t.text.startsWith("<(") || t.text.startsWith(">(")) return
    const m = OPTION_VALUE.exec(t.text)
    const text = m !== null ? (m[1] ?? "") : t.text.startsWith("-") ? "" : t.text
    if (!pathLike(text)) return
    const p = t.known ? this.place(text).path : text
    if (!this.paths.includes(p)) this.paths.push(p)
  }

  script(_cmd: Cmd | null, path: string, known: boolean, language: CodeLanguage | "unknown", reader?: ScriptReader, runsIn?: string): void {
    if (path === "") return
    // `awk -f -`, `sed -f /dev/stdin`, `sqlite3 -init /dev/stdin`: the program is whatever the pipe or redirect holds.
    if (isStdinPath(path)) {
      if (!this.scripts.some((s) => s.fromStdin === true)) this.scripts.push({ path, language, fromStdin: true, ...(reader === undefined ? {} : { reader }) })
      return
    }
    const placed = known ? this.place(path) : { path, sure: false }
    const ref: ScriptRef = {
      path: placed.path,
      language: placed.sure ? language : "unknown",
      ...(known && !placed.sure ? { unplaced: true } : {}),
      ...(reader === undefined ? {} : { reader }),
      ...(runsIn === undefined ? {} : { runsIn })
    }
    if (!this.scripts.some((s) => s.path === ref.path && s.language === ref.language && s.unplaced === ref.unplaced)) this.scripts.push(ref)
  }

  command(cmd: Cmd, head: number, name: string, word: (i: number) => WordText, target: (k: number) => WordText): void {
    // What echo/printf print is text, not paths (where it goes is a redirect target, below).
    const words = head < 0 ? 0 : PRINTERS.has(name) ? head + 1 : cmd.words.length
    // Code strings (`bash -c '…'`, eval's text) are read as commands of their own, with their own paths.
    const code = name === "eval" || codeSource(name, cmd.words.slice(head + 1).map((w) => w.value))?.from === "flag"
    for (let i = 0; i < words; i++) {
      const t = word(i)
      if (!(code && /\s/.test(t.text))) this.addPath(t)
    }
    for (let i = 0; i < cmd.words.length; i++) this.named.add(lastPart(word(i).text))
    for (const w of commandWrites(cmd, head, name)) {
      if (w === "") continue
      const placed = this.place(w)
      this.written.push(placed)
      if (this.cwd === undefined) this.startWrite(asCommandSees(w))
    }
    if (this.cwd === undefined && commandFillsCurrentDirectory(cmd, head, name)) this.startFills = true
    cmd.redirs.forEach((r, k) => {
      if (r.target !== null) this.named.add(lastPart(target(k).text))
    })
    const exInput = head >= 0 && readsCommandsFromStdin(name, cmd.words.slice(head + 1).map((w) => w.value))
    cmd.redirs.forEach((r, k) => {
      if (NOT_TARGETS.has(r.op) || r.target === null) return
      const t = target(k)
      // `ed f < script`, `vim -es < script`: the file is the editor's commands.
      if (exInput && r.op === "<") this.script(null, t.text, t.known, "shell", name === "ed" || name === "red" ? "ed" : "ex")
      if ((r.op === ">&" || r.op === "<&") && /^(?:\d+-?|-)$/.test(t.text)) return
      this.addPath(t)
    })
    for (let i = 0; i < (head < 0 ? cmd.words.length : head); i++) this.notePath(word(i))
    if (head < 0) return
    const program = word(head)
    if (program.text.includes("/")) this.script(cmd, program.text, program.known, "unknown")
    else if (program.known && !this.programs.includes(program.text)) {
      if (this.programs.length < MAX_PROGRAMS) this.programs.push(program.text)
      else this.programsCapped = true
    }
    if (name === "export" || name === "declare" || name === "typeset" || name === "env") {
      for (let i = head + 1; i < cmd.words.length; i++) this.notePath(word(i))
    }
    const args: Array<string> = []
    for (let i = head + 1; i < cmd.words.length; i++) args.push(word(i).text)
    this.localCode(name, args)
    if (name === "mv") this.noteMove(args, (i) => word(head + 1 + i).known)
    const runner = runnerOf(name, args)
    for (const r of runner === null ? localPackages(name, args) : [runner, ...localPackages(name, args)]) {
      const placed = this.place(r.dir ?? ".")
      this.runners.push({ runner: r, dir: placed.path, sure: placed.sure })
    }
    if (name === "git") this.noteGit(args, (i) => word(head + 1 + i).known)
    if (CD.has(name)) this.cd(cmd, head, word)
    else if (name === "popd") this.cwd = null
  }

  /** `PATH=dir:…`: the directories it puts on the search path (one still holding an expansion is kept as written). */
  private notePath(t: WordText): void {
    const eq = t.text.indexOf("=")
    const variable = eq < 0 ? "" : t.text.slice(0, eq)
    if (MODULE_PATH_NAMES.has(variable)) {
      for (const dir of t.text.slice(eq + 1).split(":")) {
        // The inherited value is the task's export (read by the judge); another expansion is only known when it runs.
        if (dir === "" || dir.includes("$")) continue
        const placed = this.place(dir)
        if (placed.sure && !this.moduleDirs.some((m) => m.variable === variable && m.dir === placed.path)) this.moduleDirs.push({ variable, dir: placed.path })
      }
      return
    }
    if (!t.text.startsWith("PATH=")) return
    for (const dir of t.text.slice(5).split(":")) {
      if (dir === "" || /^\$\{?PATH\}?$/.test(dir)) continue
      if (dir.includes("$")) {
        if (!this.pathDirs.includes(dir)) this.pathDirs.push(dir)
        continue
      }
      const placed = this.place(dir)
      if (!this.pathDirs.includes(placed.path)) this.pathDirs.push(placed.path)
    }
  }

  /**
   * Code a program loads from the project by name rather than by path:
   * `python -m mod` (the current directory comes first on sys.path),
   * `npx bin` / `npm exec bin` (node_modules/.bin), `awk -f` / `sed -f` files.
   */
  private localCode(name: string, args: ReadonlyArray<string>): void {
    const optional = (path: string, language: CodeLanguage | "unknown") => {
      const placed = this.place(path)
      if (!placed.sure) return
      const ref: ScriptRef = { path: placed.path, language, optional: true }
      if (!this.scripts.some((s) => s.path === ref.path)) this.scripts.push(ref)
    }
    if (/^(?:perl|ruby)[\d.]*$/.test(name)) {
      this.interpreterModules(name.startsWith("perl") ? "perl" : "ruby", args)
      return
    }
    // Task runners, linters' hooks, build front-ends: code kept in project files (projectCode.ts).
    const project = projectCode(name, args)
    if (project !== null) {
      for (const file of project.files) {
        if (file.language !== "opaque") optional(file.path, file.language)
        else {
          const placed = this.place(file.path)
          if (placed.sure && !this.scripts.some((s) => s.path === placed.path && s.reader === "project-opaque")) {
            this.scripts.push({ path: placed.path, language: "unknown", optional: true, reader: "project-opaque", ...(file.when === undefined ? {} : { opaqueWhen: file.when }) })
          }
        }
      }
      if (project.builds !== undefined) this.pipSource({ kind: "project", path: project.builds })
      return
    }
    if (/^python[\d.]*$/.test(name)) {
      const m = args.indexOf("-m")
      const mod = m >= 0 ? args[m + 1] : undefined
      if (mod === "pytest" || mod === "py.test") this.pytest(args.slice(m + 2), optional)
      const local = (name: string) => {
        if (!/^[A-Za-z_][\w.]*$/.test(name)) return
        this.loadModule("python", name)
        const base = name.replace(/\./g, "/")
        optional(`./${base}.py`, "python")
        optional(`./${base}/__main__.py`, "python")
        // `-m a.b` imports a first: a planted `a.py` runs even though `a.b` then fails to import.
        const top = name.split(".")[0] ?? name
        if (top !== name) optional(`./${top}.py`, "python")
        optional(`./${top}/__init__.py`, "python")
      }
      if (mod === "pip" || mod === "pip3") this.pip(args.slice(m + 2))
      if (mod === "build") this.pipSource({ kind: "project", path: buildSource(args.slice(m + 2)) })
      if (mod !== undefined) {
        // `-m` puts the working directory first on sys.path: a library-named module there runs (json.tool → gettext.py).
        const cwd = this.place(".")
        if (cwd.sure && !this.scripts.some((s) => s.reader === "module-path" && s.path === cwd.path)) {
          this.scripts.push({ path: cwd.path, language: "python", optional: true, reader: "module-path" })
        }
        local(mod)
        // `-m cProfile x.py`, `-m unittest test_x`, `-m doctest d.py`: what the runner module runs (pythonRunners.ts).
        const run = pythonRunnerTargets(mod, args.slice(m + 2))
        for (const file of run.files) optional(file, "python")
        for (const name of run.modules) local(name)
      }
      return
    }
    // `node -r ./setup.js app.js`, `--import ./hook.mjs`: a file loaded before the script (a bare name is a package).
    if (/^node(?:js)?[\d.]*$/.test(name)) {
      for (let i = 0; i < args.length; i++) {
        const a = args[i] ?? ""
        if (!a.startsWith("-")) break
        const m = /^(?:-r|--require|--import|--loader|--experimental-loader)(?:=(.*))?$/.exec(a)
        if (m === null) continue
        const value = m[1] ?? args[++i] ?? ""
        if (/^\.{0,2}\//.test(value)) optional(value, "node")
      }
      // `node --test` with no file runs every test file it finds from here down, as `node --test .` would.
      if (args.some((a) => a === "--test") && !args.some((a, i) => !a.startsWith("-") && !NODE_VALUED.has(args[i - 1] ?? ""))) {
        this.script(null, ".", true, "node")
      }
      return
    }
    if (name === "pytest" || name === "py.test") {
      this.pytest(args, optional)
      return
    }
    // `bash --rcfile f -i`, `--init-file f`: an interactive shell runs the file first.
    const shell = shellArgs(name, args)
    if (shell !== null) {
      shell.forEach((a, i) => {
        const file = a === "--rcfile" || a === "--init-file" ? shell[i + 1] : undefined
        if (file !== undefined) this.script(null, file, !file.includes("$"), "shell")
      })
      return
    }
    // `pip install .`, `-r requirements.txt`: building a local project runs its setup.py (pipBuilds.ts).
    if (/^pip[\d.]*$/.test(name) || (name === "uv" && args[0] === "pip")) {
      this.pip(name === "uv" ? args.slice(1) : args)
      return
    }
    if (name === "pyproject-build") {
      this.pipSource({ kind: "project", path: buildSource(args) })
      return
    }
    if (name === "npx" || ((name === "npm" || name === "pnpm") && args[0] === "exec")) {
      const bin = args.slice(name === "npx" ? 0 : 1).find((a) => !a.startsWith("-"))
      if (bin !== undefined && /^[\w@.-]+$/.test(bin)) optional(`./node_modules/.bin/${bin}`, "unknown")
      return
    }
    // vim's `-S file`, `-u vimrc`, `-s keystrokes`: ex commands and vimscript.
    for (const file of editorScripts(name, args)) this.script(null, file, true, "shell", "ex")
    // `sqlite3 -init f`, `gdb -x f`, `psql -f f`: console commands.
    const console = consoleOf(name)
    if (console !== null) for (const file of consoleScripts(console, args, name)) this.script(null, file, true, "shell", console)
    if (name === "awk" || name === "gawk" || name === "mawk" || name === "nawk" || name === "sed") {
      for (let i = 0; i < args.length; i++) {
        const a = args[i] ?? ""
        const file = a === "-f" || a === "--file" ? args[i + 1] : a.startsWith("--file=") ? a.slice(7) : undefined
        // Their programs run commands (`system()`, sed's `e`): read as text, the shell rules find literal ones, and
        // the file is judged as the reader's program too.
        if (file !== undefined) this.script(null, file, true, "shell", name === "sed" ? "sed" : "awk")
      }
    }
  }

  /** `git [-C dir]…`: the directory git starts its repository search from. */
  private noteGit(args: ReadonlyArray<string>, known: (i: number) => boolean): void {
    let dir = "."
    let sure = true
    let gitDir: string | undefined
    for (const o of gitOptions(args).options) {
      if (o.value === null || (o.name !== "-C" && o.name !== "--git-dir")) continue
      sure &&= known(o.valueAt)
      if (o.name === "--git-dir") gitDir = o.value
      else dir = o.value.startsWith("/") || o.value.startsWith("~") ? o.value : join(dir, o.value)
    }
    const placed = sure ? this.place(dir) : { path: dir, sure: false }
    const ref: GitDirRef = gitDir === undefined ? { dir: placed.path, sure: placed.sure } : { dir: placed.path, sure: placed.sure, gitDir }
    if (!this.gitDirs.some((g) => g.dir === ref.dir && g.sure === ref.sure && g.gitDir === ref.gitDir)) this.gitDirs.push(ref)
  }

  /**
   * pytest's conftest files (the judge climbs from each folder), named tests and `-p` plugins, and its config files
   * (their `addopts` can load plugins, found beside the file or where pytest runs).
   */
  private pytest(args: ReadonlyArray<string>, optional: (path: string, language: CodeLanguage | "unknown") => void): void {
    const loads = pytestLoads(args)
    const runsIn = this.place(".")
    for (const path of loads.files) optional(path, "python")
    for (const folder of loads.folders) {
      if (computedText(folder)) this.script(null, folder, false, "unknown", "pytest-conftests")
      else this.optionalRef(folder, "python", "pytest-conftests", runsIn.path)
    }
    for (const path of [...PYTEST_CONFIGS, ...loads.configs]) {
      if (computedText(path)) this.script(null, path, false, "unknown", "pytest-config")
      else this.optionalRef(path, "unknown", "pytest-config", runsIn.path)
    }
  }

  /** A candidate file or folder the judge reads when it is there (nothing when its place is unknown). */
  private optionalRef(path: string, language: CodeLanguage | "unknown", reader: ScriptReader, runsIn?: string): void {
    const placed = this.place(path)
    if (!placed.sure || this.scripts.some((s) => s.path === placed.path && s.reader === reader)) return
    this.scripts.push({ path: placed.path, language, optional: true, reader, ...(runsIn === undefined ? {} : { runsIn }) })
  }

  /**
   * `pip install|wheel|download`: the requirement files it reads must be read (the local projects they name run
   * their build code: the judge follows them from where pip runs), and the local sources it is given are looked into.
   */
  private pip(args: ReadonlyArray<string>): void {
    const build = pipBuild(args)
    if (build === null) return
    const runsIn = this.place(".")
    for (const file of build.requirements) this.script(null, requirementPath(file), !computedText(file), "unknown", "pip-requirements", runsIn.path)
    for (const source of build.sources) this.pipSource(source)
  }

  /**
   * A local project pip builds (its folder: the judge reads its build files) or a packed one. A computed one asks;
   * so does one in a folder only known when the command runs, unless it is a bare name (pip takes that for a
   * package; an editable's name came as `./name`).
   */
  private pipSource(source: PipSource): void {
    const reader = source.kind === "project" ? "pip-project" : "pip-packed"
    const bare = !source.path.includes("/") && !source.path.startsWith(".")
    if (computedText(source.path) || (this.cwd === null && !bare && !source.path.startsWith("/"))) {
      this.script(null, source.path, false, "unknown", reader)
      return
    }
    this.optionalRef(source.path, source.kind === "project" ? "python" : "unknown", reader)
  }

  private loadModule(language: CodeLanguage, name: string): void {
    if (!this.loadedModules.some((m) => m.language === language && m.name === name)) this.loadedModules.push({ language, name })
  }

  /**
   * `perl -I dir -Mmod`, `ruby -I dir -rfeat`: `-I` puts a directory ahead of the library for this run (as PERL5LIB
   * and RUBYLIB do), and `-M`/`-m`/`-r` load a module by name from there before the script runs.
   */
  private interpreterModules(language: "perl" | "ruby", args: ReadonlyArray<string>): void {
    const variable = language === "perl" ? "PERL5LIB" : "RUBYLIB"
    const loads = language === "perl" ? ["-M", "-m"] : ["-r"]
    const valued = language === "perl" ? ["-e", "-E"] : ["-e", "-E", "-C", "-F"]
    for (let i = 0; i < args.length; i++) {
      const a = args[i] ?? ""
      // The script (or standard input) comes next: nothing after it is the interpreter's.
      if (a === "--" || a === "-" || !a.startsWith("-")) return
      const option = a.slice(0, 2)
      if (option !== "-I" && !loads.includes(option)) {
        if (valued.includes(a)) i++
        continue
      }
      const value = a.length > 2 ? a.slice(2) : args[++i]
      if (value === undefined) return
      if (option === "-I") {
        const placed = this.place(value)
        if (placed.sure && !this.moduleDirs.some((m) => m.variable === variable && m.dir === placed.path)) this.moduleDirs.push({ variable, dir: placed.path })
        continue
      }
      // `-MFoo::Bar=x,y` and `-M-Foo` (no) name the module before `=`; ruby's feature is a path without `.rb`.
      const mod = value.replace(/^-/, "").split("=")[0] ?? ""
      if (/^[A-Za-z_][\w:./-]*$/.test(mod)) this.loadModule(language, mod)
    }
  }

  private noteMove(args: ReadonlyArray<string>, known: (i: number) => boolean): void {
    const sources: Array<number> = []
    let toDir = false
    let options = true
    for (let i = 0; i < args.length; i++) {
      const a = args[i] ?? ""
      if (options && a === "--") options = false
      else if (options && (a === "-t" || a === "--target-directory" || a === "-S" || a === "--suffix")) {
        if (a === "-t" || a === "--target-directory") toDir = true
        i++
      } else if (options && a.startsWith("-") && a !== "-") {
        if (a.startsWith("--target-directory=") || /^-[^-]*t/.test(a)) toDir = true
      } else sources.push(i)
    }
    for (const i of toDir ? sources : sources.slice(0, -1)) {
      const text = args[i] ?? ""
      if (text === "") continue
      if (!known(i)) {
        // Where a computed source points is only known when it runs: fail closed.
        this.computedMove = true
        continue
      }
      const placed = this.place(text)
      if (placed.sure && !this.moves.includes(placed.path)) this.moves.push(placed.path)
    }
  }

  private cd(cmd: Cmd, head: number, word: (i: number) => WordText): void {
    let t: WordText = { text: "~", known: true }
    for (let i = head + 1; i < cmd.words.length; i++) {
      const w = word(i)
      if (w.text === "--") continue
      if (/^-[LPe@]+$/.test(w.text)) continue
      t = w
      break
    }
    if (!t.known || t.text === "-" || /^[+-]\d+$/.test(t.text)) {
      this.cwd = null
      return
    }
    // With CDPATH set, `cd name` may land in any of its directories: where is only known when it runs.
    if (this.cdPath && !/^(?:\/|~|\.\.?(?:\/|$))/.test(t.text)) {
      this.cwd = null
      return
    }
    if (!pathLike(t.text)) this.addPath({ text: `./${t.text}`, known: true })
    const placed = this.place(t.text)
    // A cd inside a subshell, loop or condition may not hold for what follows.
    this.cwd = cmd.nested || !placed.sure ? null : placed.path
  }
}
