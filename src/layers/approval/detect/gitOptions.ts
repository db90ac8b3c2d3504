/**
 * git's own options, before the subcommand (`git -C dir -c k=v --git-dir=d status`). Several checks read them:
 * `-c` settings that run programs, `--git-dir` naming a planted repository, `-C` moving where git looks for one,
 * and the subcommand whose options run commands. One walker serves them all, so they agree on where the subcommand
 * starts.
 */

/** One of git's own options at index `at`: its name, and its value with the index of the argument holding it (-1: none). */
export interface GitOption {
  readonly at: number
  readonly name: string
  readonly value: string | null
  readonly valueAt: number
}

export interface GitOptions {
  readonly options: ReadonlyArray<GitOption>
  /** Index of the subcommand among the arguments (`args.length` when there is none). */
  readonly sub: number
}

/** Options that take the next argument as their value (or `--name=value`; `-C`/`-c` only separate, as git reads them). */
const VALUED = new Set([
  "-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--list-cmds", "--config-env", "--attr-source"
])

const NO_OPTIONS: GitOptions = { options: [], sub: 0 }

export const gitOptions = (args: ReadonlyArray<string>): GitOptions => {
  // The common case, `git status`: nothing to walk, nothing to allocate.
  if (!(args[0] ?? "").startsWith("-")) return NO_OPTIONS
  const options: GitOption[] = []
  let k = 0
  for (; k < args.length; k++) {
    const a = args[k] ?? ""
    if (!a.startsWith("-")) break
    const eq = a.startsWith("--") ? a.indexOf("=") : -1
    if (eq > 0) {
      options.push({ at: k, name: a.slice(0, eq), value: a.slice(eq + 1), valueAt: k })
    } else if (a.startsWith("-c") && a.length > 2) {
      // `-ckey=value`: git itself wants `-c key=value`; read the joined form too rather than miss a setting.
      options.push({ at: k, name: "-c", value: a.slice(2), valueAt: k })
    } else if (VALUED.has(a) && k + 1 < args.length) {
      options.push({ at: k, name: a, value: args[k + 1] ?? "", valueAt: k + 1 })
      k++
    } else {
      options.push({ at: k, name: a, value: null, valueAt: -1 })
    }
  }
  return { options, sub: k }
}
