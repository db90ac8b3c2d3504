/**
 * Tools that run code kept in project files (red team 9): a task runner's file is a script (`nox` runs noxfile.py,
 * `invoke` tasks.py, `rake` the Rakefile, `just` the justfile's recipes), a linter or test runner loads the plugins
 * and hooks its configuration names (pylint's `init-hook`, mypy's `plugins`, eslint's and jest's config modules),
 * a build front-end builds the local project (`uv sync`, `poetry install`: its setup.py or in-tree backend, as
 * `pip install .` does) and JVM, Swift, Elixir or Bazel builds run build files written in languages nothing here
 * reads. A model that writes such a file makes an innocent-looking `nox` or `uv run` run it, so each is judged:
 * read as its language when one here reads it, else asked about when it exists (when `when` matches its text).
 * Task files in Python or Ruby count as unread: their runner's own API runs shell text (`session.run("rm", …)`,
 * invoke's `c.run`, rake's `sh`, doit's `actions`) that the language's rules do not know.
 * Pure: the judge reads the files.
 */
import type { CodeLanguage } from "../../../../services/Approval.js"

export interface ProjectFile {
  readonly path: string
  /** "opaque": written in a language (or a file format of commands) the judge does not read. */
  readonly language: CodeLanguage | "opaque"
  /** For a configuration file most projects have: only a text matching this (a hook, a plugin) runs code. */
  readonly when?: string | undefined
}

export interface ProjectCode {
  readonly files: ReadonlyArray<ProjectFile>
  /** A local Python project the tool builds (its folder, as `pip install DIR` would). */
  readonly builds?: string | undefined
}

const files = (language: ProjectFile["language"], names: ReadonlyArray<string>, when?: string): ReadonlyArray<ProjectFile> =>
  names.map((path) => (when === undefined ? { path, language } : { path, language, when }))

/** The value of option `names` (`-f x`, `--file=x`, `-fx`), or undefined. */
const option = (args: ReadonlyArray<string>, names: ReadonlyArray<string>): string | undefined => {
  for (let k = 0; k < args.length; k++) {
    const a = args[k] ?? ""
    for (const n of names) {
      if (a === n) return args[k + 1]
      if (n.startsWith("--") && a.startsWith(`${n}=`)) return a.slice(n.length + 1)
      if (!n.startsWith("--") && a.startsWith(n) && a.length > n.length) return a.slice(n.length)
    }
  }
  return undefined
}

/** The file an option names (`-f tasks.yml`), else the tool's default names. */
const named = (args: ReadonlyArray<string>, options: ReadonlyArray<string>, defaults: ReadonlyArray<string>): ReadonlyArray<string> => {
  const given = option(args, options)
  return given === undefined ? defaults : [given]
}

/** Global options of these tools that take the next word (`uv --directory sub sync`, `poetry -C sub install`). */
const VALUED = new Set(["--directory", "--project", "--python", "-p", "-P", "-C", "--config-file", "--cache-dir", "--color", "--config", "-c", "-f", "--file", "--env", "-e"])

/** The subcommand: the first word that is neither an option nor an option's value. */
const firstWord = (args: ReadonlyArray<string>): string => {
  for (let k = 0; k < args.length; k++) {
    const a = args[k] ?? ""
    if (!a.startsWith("-")) return a
    if (VALUED.has(a)) k++
  }
  return ""
}

/** The folder a project manager works in: its own option for it, else where it starts. */
const PROJECT_DIR: Readonly<Record<string, ReadonlyArray<string>>> = {
  uv: ["--directory", "--project"],
  poetry: ["--directory", "-C", "--project", "-P"],
  pdm: ["--project", "-p"],
  hatch: ["--project", "-p"],
  pipenv: []
}

/** uv's settings that name local sources, indexes, interpreters or workspace members (projects it builds). */
const UV_SETTINGS = String.raw`^\s*\[\[?tool\.uv[\].][\s\S]*?^\s*(?:[\w-]*path\s*=|find-links\s*=|(?:extra-)?index(?:-url)?\s*=|python\s*=|members\s*=|.*\{[^}]*\b(?:path|editable)\s*=|.*file:)`
const PYTHON_CONFIGS = ["pyproject.toml", "setup.cfg", "tox.ini"]

/** Subcommands of Python project managers that build or install the project. */
const BUILDING: Readonly<Record<string, ReadonlySet<string>>> = {
  uv: new Set(["run", "sync", "build", "lock", "add", "remove", "export", "tree", "version", "publish"]),
  poetry: new Set(["install", "build", "sync", "lock", "add", "remove", "update", "run", "shell", "check"]),
  pdm: new Set(["install", "sync", "build", "lock", "add", "remove", "update", "run", "use"]),
  hatch: new Set(["build", "run", "env", "shell", "test", "fmt", "version", "dep", "publish"]),
  pipenv: new Set(["install", "sync", "update", "lock", "run", "shell"])
}

/** What `name args…` runs from the project where it starts; null for other programs. */
export const projectCode = (name: string, args: ReadonlyArray<string>): ProjectCode | null => {
  const verbs = BUILDING[name]
  if (verbs !== undefined) {
    if (!verbs.has(firstWord(args))) return null
    const dir = option(args, PROJECT_DIR[name] ?? []) ?? "."
    const at = (file: string): string => (dir === "." ? file : `${dir.replace(/\/+$/, "")}/${file}`)
    const uv = name === "uv" ? files("opaque", [at("pyproject.toml"), at("uv.toml")], UV_SETTINGS) : []
    // Hatch's and PDM's build hooks, Pipfile's local paths: files of the project the build runs.
    const hooks = name === "hatch" || name === "pdm" ? files("python", [at("hatch_build.py"), at("pdm_build.py"), at("build.py")]) : []
    return { files: [...uv, ...hooks, ...(name === "pipenv" ? files("opaque", [at("Pipfile")], String.raw`path\s*=`) : [])], builds: dir }
  }
  switch (name) {
    case "nox":
      return { files: files("opaque", [option(args, ["-f", "--noxfile"]) ?? "noxfile.py"]) }
    case "invoke":
    case "inv": {
      const collection = option(args, ["-c", "--collection"])
      return { files: files("opaque", [collection === undefined ? "tasks.py" : `${collection}.py`, "tasks/__init__.py"]) }
    }
    case "doit":
      return { files: files("opaque", [option(args, ["-f", "--file"]) ?? "dodo.py"]) }
    case "scons":
      return { files: files("opaque", named(args, ["-f", "--file", "--makefile", "--sconstruct"], ["SConstruct", "Sconstruct", "sconstruct"])) }
    case "fab":
      return { files: files("opaque", [option(args, ["-f", "--fabfile"]) ?? "fabfile.py"]) }
    case "paver":
      return { files: files("opaque", ["pavement.py"]) }
    case "waf":
      return { files: files("opaque", ["wscript"]) }
    case "rake":
      return { files: files("opaque", named(args, ["-f", "--rakefile"], ["Rakefile", "rakefile", "Rakefile.rb", "rakefile.rb"])) }
    case "just":
      return { files: files("opaque", named(args, ["-f", "--justfile"], ["justfile", "Justfile", ".justfile"])) }
    case "task":
    case "go-task":
      return { files: files("opaque", named(args, ["-t", "--taskfile"], ["Taskfile.yml", "Taskfile.yaml", "taskfile.yml", "taskfile.yaml", "Taskfile.dist.yml", "Taskfile.dist.yaml"])) }
    case "deno":
      return firstWord(args) === "task" ? { files: files("opaque", [option(args, ["--config", "-c"]) ?? "deno.json", "deno.jsonc", "package.json"], String.raw`"tasks"|"scripts"`) } : null
    case "tox":
      return { files: [...files("opaque", ["tox.ini"]), ...files("opaque", ["pyproject.toml", "setup.cfg"], String.raw`^\s*\[(?:tool\.)?tox`)], builds: "." }
    case "pre-commit":
      return { files: files("opaque", [option(args, ["-c", "--config"]) ?? ".pre-commit-config.yaml"]) }
    // Git hook managers: their hooks (installed into .git/hooks) run the commands these files list.
    case "lefthook":
      return { files: files("opaque", ["lefthook.yml", ".lefthook.yml", "lefthook.yaml", ".lefthook.yaml", "lefthook-local.yml", ".lefthook-local.yml"]) }
    case "overcommit":
      return { files: files("opaque", [".overcommit.yml"]) }
    case "pylint":
      return { files: files("opaque", [".pylintrc", "pylintrc", ".pylintrc.toml", ...PYTHON_CONFIGS], String.raw`init-hook|load-plugins`) }
    case "mypy":
    case "dmypy":
      return { files: files("opaque", ["mypy.ini", ".mypy.ini", ...PYTHON_CONFIGS], String.raw`^\s*plugins\s*=`) }
    case "flake8":
      return { files: files("opaque", [".flake8", ...PYTHON_CONFIGS], String.raw`local-plugins`) }
    case "eslint":
      return { files: files("node", ["eslint.config.js", "eslint.config.mjs", "eslint.config.cjs", "eslint.config.ts", ".eslintrc.js", ".eslintrc.cjs"]) }
    case "jest":
    case "vitest":
    case "mocha":
      return { files: files("node", [`${name}.config.js`, `${name}.config.mjs`, `${name}.config.cjs`, `${name}.config.ts`, ...(name === "vitest" ? ["vite.config.js", "vite.config.mjs", "vite.config.ts"] : []), ...(name === "mocha" ? [".mocharc.js", ".mocharc.cjs"] : [])]) }
    case "vite":
    case "webpack":
    case "rollup":
      return { files: files("node", [`${name}.config.js`, `${name}.config.mjs`, `${name}.config.cjs`, `${name}.config.ts`]) }
    case "bun":
      return ["test", "run", "x", "install", "i", "add"].includes(firstWord(args)) || firstWord(args).endsWith(".ts") ? { files: files("opaque", ["bunfig.toml", ".bunfig.toml"], String.raw`preload|\[install\.scopes\]|registry`) } : null
    case "gradle":
    case "gradlew":
      return { files: files("opaque", ["build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts", "init.gradle"]) }
    case "mvn":
    case "mvnw":
      return { files: files("opaque", ["pom.xml", ".mvn/extensions.xml", ".mvn/maven.config"]) }
    case "sbt":
      return { files: files("opaque", ["build.sbt", "project/plugins.sbt"]) }
    case "mix":
      return { files: files("opaque", ["mix.exs"]) }
    case "swift":
      return ["build", "run", "test", "package"].includes(firstWord(args)) ? { files: files("opaque", ["Package.swift"]) } : null
    case "meson":
      return { files: files("opaque", ["meson.build"]) }
    case "bazel":
    case "bazelisk":
      return { files: files("opaque", ["MODULE.bazel", "WORKSPACE", "WORKSPACE.bazel", "BUILD", "BUILD.bazel", ".bazelrc"]) }
    case "composer":
      return { files: files("opaque", ["composer.json"], String.raw`"scripts"|"plugins?"`) }
    default:
      return null
  }
}
