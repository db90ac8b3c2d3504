/**
 * What fd puts into the command it runs for `-x` (one path a run) and `-X` (every path in one run): a placeholder
 * word (`{}`, `{/}`, `{.}`…) or, with none, the path appended. A found file named `-delete` is an option then
 * (`fd -x find victim {/}`), as xargs' input is (filledWords.ts): a program whose options delete, write or run code
 * gets arguments only known when it runs. A path fd prints under a search path the line gives (`fd . src -x …`,
 * `-a`) cannot begin with `-`; a basename (`{/}`, `{/.}`) always can, and so can a path under the working directory,
 * which fd may print without `./` (older versions, `--strip-cwd-prefix`).
 */
import { appendedArgumentsMatter, filledWordMatters } from "./filledWords.js"

export const FD_FILLED_DESCRIPTION =
  "runs a program with arguments fd fills in when it runs (found names, which may be options or subcommands that delete, write or run code)"

/** fd's options that take a value (the next word unless given with `=`). */
const FD_VALUED = new Set([
  "-e", "--extension", "-t", "--type", "-E", "--exclude", "-d", "--max-depth", "--min-depth", "--exact-depth", "-S",
  "--size", "--changed-within", "--changed-before", "--change-newer-than", "--change-older-than", "--newer", "--older",
  "-o", "--owner", "-j", "--threads", "--max-results", "--base-directory", "--path-separator", "--search-path", "-c",
  "--color", "--ignore-file", "--batch-size", "--format", "--and", "--max-buffer-time", "--hyperlink"
])
const EXEC = new Set(["-x", "--exec", "-X", "--exec-batch"])
const BASENAME = ["{/}", "{/.}"]
const PATH = ["{}", "{.}", "{//}"]

/** Whether every path fd prints begins with a search path the line gives (none beginning with `-`), or is absolute. */
const pathsUnderGivenPlace = (fdArgs: ReadonlyArray<string>): boolean => {
  const places: string[] = []
  let absolute = false
  let positional = 0
  for (let i = 0; i < fdArgs.length; i++) {
    const a = fdArgs[i] ?? ""
    if (EXEC.has(a)) break
    if (a === "--strip-cwd-prefix" || a.startsWith("--strip-cwd-prefix=")) return false
    if (a === "-a" || a === "--absolute-path") absolute = true
    if (a === "--search-path") places.push(fdArgs[++i] ?? "-")
    else if (a.startsWith("--search-path=")) places.push(a.slice("--search-path=".length))
    else if (FD_VALUED.has(a)) i++
    else if (!a.startsWith("-") && positional++ > 0) places.push(a)
  }
  return absolute || (places.length > 0 && places.every((p) => p !== "" && !p.startsWith("-")))
}

/**
 * Whether what fd fills into `run` (the words after `-x`/`-X`: the program and its arguments) can give the program
 * an option or a subcommand with power. `batch`: `-X`, every path at once (any number of words). `reached`: for a
 * shell given its code (`sh -c '…"$1"…' _ {}`), the commands of that code that get the names as "$@"/"$1".
 */
export const fdFillsOptions = (
  fdArgs: ReadonlyArray<string>,
  run: ReadonlyArray<string>,
  batch: boolean,
  reached: ReadonlyArray<ReadonlyArray<string>> | null = null
): boolean => {
  const starts = (ps: ReadonlyArray<string>): boolean => run.some((w, i) => i > 0 && ps.some((p) => w.startsWith(p)))
  const holds = run.some((w, i) => i > 0 && [...BASENAME, ...PATH].some((p) => w.includes(p)))
  const matters = batch ? appendedArgumentsMatter : filledWordMatters
  if (reached !== null) {
    const whole = !starts(BASENAME) && pathsUnderGivenPlace(fdArgs)
    return reached.some((words) => matters(words, whole))
  }
  if (starts(BASENAME)) return matters(run, false)
  // With no placeholder the path is appended as the last argument.
  if (starts(PATH) || !holds) return matters(run, pathsUnderGivenPlace(fdArgs))
  return false
}
