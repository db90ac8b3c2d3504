/**
 * Build tools that compile the project and run it (red team 8). A binary run by path asks, since its bytes tell
 * nothing (`./target/release/app`), and so does `go run x.go`; but `cargo run` ran the same program unjudged, as did
 * `cargo test`, `cargo bench` and `go test` (test code the model wrote), and `cargo build` of a package with a build
 * script (`build.rs` runs at build time), a procedural macro, local path dependencies (theirs may), or a cargo config
 * (`.cargo/config.toml`: aliases, `rustc-wrapper`, `runner`). This finds those commands in a line, past wrappers;
 * what the project holds is read through the task's environment. Pure but for the reads it is given.
 */
import { posix } from "node:path"
import { Effect } from "effect"
import type { Option } from "effect"
import { resolveHead } from "../detect/commandHead.js"
import { lexCommands } from "../shell/parser.js"
import { basename } from "../shell/words.js"

export const COMPILED_RUN_DESCRIPTION =
  "runs compiled code the project builds (cargo run/test/bench, go test/generate, a build script, proc macro or cargo config)"

/** `p` from `base`, as `cd` takes it. */
const into = (base: string, p: string) => (p.startsWith("/") ? p : posix.join(base, p))

/** What a cargo or go subcommand does with the project's code. */
type Use = "runs" | "builds" | "quiet"

const CARGO_RUNS = new Set(["run", "r", "test", "t", "bench", "miri"])
const CARGO_BUILDS = new Set(["build", "b", "check", "c", "clippy", "doc", "d", "rustc", "rustdoc", "fix", "package", "publish", "install"])
/** Built-in subcommands that build nothing (cargo never lets an alias shadow a built-in). */
const CARGO_QUIET = new Set([
  "new", "init", "add", "remove", "rm", "tree", "metadata", "update", "fetch", "search", "version", "help", "login", "logout",
  "owner", "yank", "locate-project", "pkgid", "verify-project", "generate-lockfile", "vendor", "clean", "read-manifest",
  "config", "info", "report", "uninstall", "fmt"
])
/** Global options that take a value; `--config` can define an alias or a wrapper: it counts as running code. */
const CARGO_VALUED = new Set(["--color", "-C", "-Z", "--config"])

const cargoUse = (args: ReadonlyArray<string>): { readonly use: Use; readonly dir: string | undefined } => {
  let dir: string | undefined
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    if (arg === "--config" || arg.startsWith("--config=")) return { use: "runs", dir }
    if (arg.startsWith("+") || arg === "--") continue
    if (arg.startsWith("-")) {
      if (CARGO_VALUED.has(arg)) {
        if (arg === "-C") dir = args[i + 1]
        i++
      }
      if (arg === "--version" || arg === "-V" || arg === "--help" || arg === "-h" || arg === "--list") return { use: "quiet", dir }
      continue
    }
    const manifest = args.findIndex((a) => a === "--manifest-path" || a.startsWith("--manifest-path="))
    if (manifest >= 0) {
      const value = args[manifest]!.includes("=") ? args[manifest]!.slice(args[manifest]!.indexOf("=") + 1) : args[manifest + 1]
      dir = value === undefined ? undefined : posix.dirname(value)
    }
    if (CARGO_RUNS.has(arg)) return { use: "runs", dir }
    if (CARGO_BUILDS.has(arg)) return { use: "builds", dir }
    // An alias from a cargo config, or an external `cargo-<name>` program.
    return { use: CARGO_QUIET.has(arg) ? "quiet" : "runs", dir }
  }
  return { use: "quiet", dir }
}

/** `go test` runs test code; `go generate` runs the commands its comments name; `go env -w` sets flags every build reads. */
const goUse = (args: ReadonlyArray<string>): Use => {
  const sub = args.find((a) => !a.startsWith("-"))
  if (sub === "test" || sub === "generate") return "runs"
  if (sub === "env" && args.some((a) => a === "-w" || a === "-u")) return "runs"
  return "quiet"
}

export interface CompiledRun {
  readonly use: Exclude<Use, "quiet">
  /** The package's folder as the line names it (relative to where the line starts, or absolute). */
  readonly dir: string
  /** A `cd` earlier in the line: where the package is, is not known without running it. */
  readonly moved: boolean
}

/** The cargo and go commands of a line that run or build the project's code. */
export const compiledRuns = (command: string, depth = 0): ReadonlyArray<CompiledRun> => {
  const commands = lexCommands(command)
  if (commands === null) return [{ use: "runs", dir: ".", moved: true }]
  const found: Array<CompiledRun> = []
  // Where the line stands, relative to where it starts, after its literal `cd`s; unknown after any other.
  let at = "."
  let moved = false
  for (const cmd of commands) {
    const argv = cmd.words.map((w) => w.value)
    const head = resolveHead(argv.length, (k) => argv[k]!)
    if (head.envSplit !== null) {
      if (depth < 3) found.push(...compiledRuns(head.envSplit, depth + 1))
      continue
    }
    if (head.index < 0) continue
    const name = basename(argv[head.index]!)
    const args = argv.slice(head.index + 1)
    if (name === "cd" && args.length === 1 && /^[\w./@+-]+$/.test(args[0]!) && args[0] !== "-") at = into(at, args[0]!)
    else if (name === "cd" || name === "pushd" || name === "popd") moved = true
    if (name === "cargo") {
      const { use, dir } = cargoUse(args)
      if (use !== "quiet") found.push({ use, dir: into(at, dir ?? "."), moved })
    } else if (name === "go" && goUse(args) === "runs") {
      found.push({ use: "runs", dir: at, moved })
    }
  }
  return found
}

/** A manifest whose build runs code: a build script or proc macro, path dependencies, a workspace (members may). */
const BUILD_CODE = /^\s*(?:build\s*=|proc-macro\s*=|proc_macro\s*=|\[workspace\]|\[patch|.*\bpath\s*=)/m

export interface ProjectReads {
  readonly cwd: Effect.Effect<string>
  readonly readText: (path: string, maxBytes: number) => Effect.Effect<Option.Option<string>>
  readonly fileKind: (path: string) => Effect.Effect<"file" | "directory" | "other" | "missing">
}

/** Whether building the package in `dir` runs code of its own (or this cannot be told). */
const buildRunsCode = (dir: string, reads: ProjectReads): Effect.Effect<boolean> =>
  Effect.gen(function*() {
    if ((yield* reads.fileKind(posix.join(dir, "build.rs"))) !== "missing") return true
    const manifest = yield* reads.readText(posix.join(dir, "Cargo.toml"), 1 << 20)
    if (manifest._tag === "None" || BUILD_CODE.test(manifest.value)) return true
    // Cargo reads `.cargo/config.toml` (or `config`) in the folder and every folder above it.
    for (let at = dir; ; at = posix.dirname(at)) {
      for (const name of ["config.toml", "config"]) {
        if ((yield* reads.fileKind(posix.join(at, ".cargo", name))) !== "missing") return true
      }
      if (at === "/") return false
    }
  })

/** The description when the line runs code a build compiles from the project, else undefined. */
export const compiledRunVerdict = (command: string, reads: ProjectReads | undefined): Effect.Effect<string | undefined> =>
  Effect.gen(function*() {
    const runs = compiledRuns(command)
    if (runs.length === 0) return undefined
    if (reads === undefined || runs.some((r) => r.use === "runs" || r.moved)) return COMPILED_RUN_DESCRIPTION
    const cwd = yield* reads.cwd
    for (const run of runs) {
      if (yield* buildRunsCode(posix.resolve(cwd, run.dir), reads)) return COMPILED_RUN_DESCRIPTION
    }
    return undefined
  })
