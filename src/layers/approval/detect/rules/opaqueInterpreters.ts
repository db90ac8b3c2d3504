/**
 * Interpreters of languages the gate does not read: a Tcl, Lua, R, Julia,
 * gnuplot or Scheme program (a file, standard input, `-e` text) may delete or
 * run anything, and nothing here can tell. `go run x.go` and `java X.java`
 * compile and run source the same way, and so do `go test`/`go generate` and
 * `cargo run`/`test`/`bench` (the project's code or tests; the terminal's gate
 * also judges cargo builds by what the package holds, policy/compiledRunners.ts); `cmake -P x.cmake` runs a CMake
 * script, and configuring a project runs its CMakeLists.txt (`file(REMOVE…)`,
 * `execute_process`). Building a configured tree (`cmake --build`) and
 * `cmake -E` tools do not (the deleting ones are destructive.ts's). `scriptlive` types a recorded input log into a
 * shell (its own, or `-c`'s program): a planted log is commands nobody reads. Asking only their version or help
 * stays quiet; so do the languages read elsewhere (shells, Python, Node,
 * Perl, Ruby, PHP, awk, sed, make).
 */
import { D } from "../descriptions.js"
import type { CmdView } from "../ruleInput.js"
import type { Rule } from "./engine.js"
import { argv, runs } from "./operands.js"
import { basename } from "../../shell/words.js"

const OPAQUE = /^(?:tclsh[\d.]*|wish[\d.]*|expectk?|lua(?:jit|[\d.]*)|texlua|[Rr]script|R|octave(?:-cli)?|julia|gnuplot|guile[\d.]*|racket|sbcl|clisp|ecl|gsi|csi|ocaml|runghc|runhaskell|ghci|scala|groovy|jshell|kotlinc?|elixir|iex|escript|erl|clojure|clj|bb|nim|dart|pwsh|powershell|dc|m4|tcc|scriptlive)$/

/** Arguments that only print a version or usage. */
const INFO = /^(?:-v|-V|--version|-version|-h|--help|-help|--usage)$/

/** cmake modes that run no project code: a build or install of a configured tree, tools, information. */
const CMAKE_NO_CODE = /^(?:--build|--install|--open|-E|--version|-version|--help.*|-h|--system-information|-N)$/

/** `cmake -P script`, or a configure (`cmake ..`, `cmake -S src -B build`, `--preset x`, `--workflow`). */
const cmakeRunsCode = (args: ReadonlyArray<string>): boolean => {
  if (args.includes("-P")) return true
  return args.length > 0 && !args.some((a) => CMAKE_NO_CODE.test(a))
}

const javaSource = (args: ReadonlyArray<string>): boolean => args.some((a) => /\.java$/i.test(a) && !a.startsWith("-"))

const NAMED = new Set(["go", "cargo", "run-parts", "java", "cmake", "ctest"])

/** go subcommands that build and run the project's code, or (`env -w`) change how every later go command does. */
const goRunsCode = (args: ReadonlyArray<string>): boolean =>
  args[0] === "run" || args[0] === "test" || args[0] === "generate" || (args[0] === "env" && args.includes("-w"))

/** cargo's global options that take a value (`--config` may define an alias or a wrapper: it runs code itself). */
const CARGO_VALUED = /^(?:--color|-C|-Z|--manifest-path|--target-dir)$/
const CARGO_RUNS = new Set(["run", "r", "test", "t", "bench", "miri"])

/** `cargo [+toolchain] [global options] run|test|bench …`, or `--config` anywhere before the subcommand. */
const cargoRunsCode = (args: ReadonlyArray<string>): boolean => {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    if (arg === "--config" || arg.startsWith("--config=")) return true
    if (arg.startsWith("+")) continue
    if (CARGO_VALUED.test(arg)) {
      i++
      continue
    }
    if (arg.startsWith("-")) continue
    return CARGO_RUNS.has(arg)
  }
  return false
}

/** Whether program `name` (basename) run with `args` runs code in a language the gate does not read. */
export const runsOpaqueCode = (name: string, args: ReadonlyArray<string>): boolean => {
  if (name === "go") return goRunsCode(args)
  if (name === "cargo") return cargoRunsCode(args)
  // run-parts runs every program in a directory: which ones, nothing here can list.
  if (name === "run-parts") return !args.some((a) => a === "--test" || a === "--list" || INFO.test(a))
  if (name === "java") return javaSource(args)
  if (name === "cmake") return cmakeRunsCode(args)
  // ctest's dashboard scripts are CMake, and its dashboard modes configure the project.
  if (name === "ctest") return args.some((a) => /^(?:-S[PR]?|--script(?:-new-process)?|-D|--dashboard|-T|--test-action|-M|--test-model|--build-and-test)$/.test(a))
  if (!OPAQUE.test(name)) return false
  // `tcc` only runs what it compiles with -run.
  if (name === "tcc") return args.some((a) => a === "-run")
  return !(args.length > 0 && args.every((a) => INFO.test(a)))
}

// Rule views lower-case the program's name: R is told from a typed `r` by the word as written.
const test = (c: CmdView): boolean => {
  if (!runs(c)) return false
  const name = c.name === "r" ? basename(c.cmd.words[c.head]?.value ?? "") : c.name
  // Most programs are none of these: told by name before the arguments are copied.
  return NAMED.has(name) || OPAQUE.test(name) ? runsOpaqueCode(name, argv(c)) : false
}

export const opaqueInterpreterRules: ReadonlyArray<Rule> = [
  { kind: "program", description: D.opaqueCode, only: (n) => n === "r" || NAMED.has(n) || OPAQUE.test(n), test: (_v, c) => test(c) }
]
