/**
 * Names a search fills into an in-place editor: `find . -name '*.py' -exec sed -i … {} +`, `grep -rl x
 * --include='*.ts' src | xargs sed -i …`, `rg -l x | xargs perl -pi -e …`. The names are only known when the
 * command runs, but an in-place editor replaces each file by a new one (a symlink or hard link is not written
 * through), so what matters is which names the search can list. A search held to one file extension cannot list
 * a hook, a git config or a shell start-up file; ripgrep, fd and git's own listings skip `.git` and hidden files.
 * Anything else (a search that can list any name, another writer, names read from a file) needs approval.
 */
import { basename } from "../../shell/words.js"

const EXTENSION = /^\*\.[A-Za-z0-9_+-]+$/
/** Extensions of files that run where they sit: Python's `.pth`, desktop autostart entries, systemd units. */
const RUNNING_EXTENSIONS: ReadonlySet<string> = new Set(["pth", "desktop", "service", "timer", "socket", "path", "mount"])

const extensionOnly = (pattern: string): boolean =>
  EXTENSION.test(pattern) && !RUNNING_EXTENSIONS.has(pattern.slice(2).toLowerCase())

/** Where find's expression stops being a search (`-exec sed -i … {} +`). */
const ACTION = /^-(?:exec|execdir|ok|okdir)$/

const findLists = (args: ReadonlyArray<string>): boolean => {
  const end = args.findIndex((a) => ACTION.test(a))
  const expr = end < 0 ? args : args.slice(0, end)
  // Alternatives and negation widen what one pattern holds to; following links leaves the tree.
  if (expr.some((a) => a === "-o" || a === "-or" || a === "," || a === "!" || a === "-not" || a === "-L" || a === "-H" || a === "-follow")) return false
  return expr.some((a, i) => (a === "-name" || a === "-iname") && extensionOnly(expr[i + 1] ?? ""))
}

const grepLists = (args: ReadonlyArray<string>): boolean => {
  const short = args.filter((a) => /^-[A-Za-z]+$/.test(a)).join("")
  const listsNames = /[lL]/.test(short) || args.some((a) => a === "--files-with-matches" || a === "--files-without-match")
  if (!listsNames || /R/.test(short) || args.includes("--dereference-recursive")) return false
  const includes: Array<string> = []
  args.forEach((a, i) => {
    if (a === "--include") includes.push(args[i + 1] ?? "")
    else if (a.startsWith("--include=")) includes.push(a.slice("--include=".length))
  })
  return includes.length > 0 && includes.every(extensionOnly)
}

/** ripgrep and fd skip hidden files and ignored ones unless told otherwise. */
const HIDDEN_TOO = /^-(?:[A-Za-z]*[uLHI.][A-Za-z]*)$|^--(?:hidden|no-ignore.*|unrestricted|follow)$/

const rgLists = (args: ReadonlyArray<string>): boolean =>
  args.some((a) => a === "--files" || a === "--files-with-matches" || /^-[A-Za-z]*l[A-Za-z]*$/.test(a)) &&
  !args.some((a) => HIDDEN_TOO.test(a))

const fdLists = (args: ReadonlyArray<string>): boolean => !args.some((a) => HIDDEN_TOO.test(a))

/** `git grep -l`, `git ls-files`, `git diff --name-only`: tracked files, never inside `.git`. */
const gitLists = (args: ReadonlyArray<string>): boolean => {
  const [sub = "", ...rest] = args
  if (sub === "ls-files") return true
  if (sub === "grep") return rest.some((a) => a === "--name-only" || a === "--files-with-matches" || /^-[A-Za-z]*l[A-Za-z]*$/.test(a))
  if (sub === "diff") return rest.includes("--name-only")
  return false
}

/** The program listing the names can only list files that an in-place edit cannot turn into code that runs. */
export const listsOrdinaryFiles = (argv: ReadonlyArray<string>): boolean => {
  const [program = "", ...args] = argv
  switch (basename(program)) {
    case "find":
      return findLists(args)
    case "grep":
    case "egrep":
    case "fgrep":
      return grepLists(args)
    case "rg":
      return rgLists(args)
    case "fd":
    case "fdfind":
      return fdLists(args)
    case "git":
      return gitLists(args)
    default:
      return false
  }
}

/** `sed -i` and `perl -i`: each file is replaced by a new one, not written through its links. */
export const editsInPlace = (name: string, args: ReadonlyArray<string>): boolean => {
  if (name === "sed") return !args.includes("--follow-symlinks") && args.some((a) => a === "--in-place" || a.startsWith("--in-place=") || /^-[A-Za-z]*i/.test(a))
  if (name === "perl") return args.some((a) => /^-[A-Za-z]*i/.test(a))
  return false
}
