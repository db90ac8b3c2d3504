/**
 * What programs that print a path or a name print, as far as it decides
 * where a write lands: `mktemp` (a fresh name, in the directory it is given or
 * beside its template), `date` (its format's literal characters; only %D, %x
 * and %c print slashes or spaces), `git rev-parse --git-dir` and friends (the
 * repository's `.git`; `--show-toplevel` as `.`), `basename` and `dirname` of known text. The value
 * stands for every run: the parts that vary (random letters, digits) can
 * never make a slash or a `..`, so judging it judges them all. Null when the
 * arguments are not understood.
 */

const TEMPLATE_X = /X{3,}$/
const TEMP_DIRS: ReadonlySet<string> = new Set(["/tmp", "/var/tmp", "/dev/shm"])

/** `mktemp [-d] [-u] [-q] [-p DIR | --tmpdir[=DIR]] [-t] [--suffix=S] [TEMPLATE]`. */
const mktemp = (args: ReadonlyArray<string>): string | null => {
  let dir: string | null = null
  let template: string | null = null
  let inTmp = false
  let suffix = ""
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? ""
    if (a === "-p" || a === "--tmpdir") {
      // `--tmpdir` takes its value only after `=`.
      if (a === "-p") dir = args[++i] ?? null
      inTmp = true
      if (a === "-p" && dir === null) return null
    } else if (a.startsWith("--tmpdir=")) {
      dir = a.slice("--tmpdir=".length)
      inTmp = true
    } else if (a.startsWith("--suffix=")) suffix = a.slice("--suffix=".length)
    else if (a === "--") {
      template = args[i + 1] ?? null
      break
    } else if (/^-[dqut]+$/.test(a) || a === "--directory" || a === "--quiet" || a === "--dry-run") {
      if (a.startsWith("-") && !a.startsWith("--") && a.includes("t")) inTmp = true
    } else if (a.startsWith("-p") && a.length > 2) {
      dir = a.slice(2)
      inTmp = true
    } else if (a.startsWith("-")) return null
    else template = a
  }
  if (suffix.includes("/") || (template !== null && !TEMPLATE_X.test(template))) return null
  const name = (template ?? "tmp.XXXXXXXXXX") + suffix
  if (name.startsWith("/")) return name
  // A fresh name in the temporary directory stands as a fresh name here: no rule mistakes it for a file that
  // runs, and `rm -f "$tmp"` is not read as deleting under `/`. Another directory the command names is kept.
  if (dir !== null && dir !== "" && !TEMP_DIRS.has(dir.replace(/\/+$/, ""))) return `${dir.replace(/\/+$/, "")}/${name}`
  return inTmp || template === null ? name.slice(name.lastIndexOf("/") + 1) : name
}

const DATE_SAMPLE = "Thu Jan  1 00:00:00 UTC 2026"

/** What a strftime conversion prints, as far as its characters go. */
const conversion = (c: string): string => {
  switch (c) {
    case "%":
      return "%"
    case "n":
      return "\n"
    case "t":
      return "\t"
    case "D":
    case "x":
      return "01/01/26"
    case "c":
      return DATE_SAMPLE
    default:
      return "0"
  }
}

/** `date [-u] [-d STR] [-r FILE] [-I[SPEC]] [-R] [+FORMAT]`. */
const date = (args: ReadonlyArray<string>): string | null => {
  let out = DATE_SAMPLE
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? ""
    if (a.startsWith("+")) {
      out = a.slice(1).replace(/%[-_0^#]?\d*(?:[EO])?(.)/g, (_m, c: string) => conversion(c))
    } else if (a === "-d" || a === "-r" || a === "--date" || a === "--reference") i++
    else if (/^-(?:u|-utc|-universal)$/.test(a) || /^--(?:date|reference)=/.test(a) || /^-[dr]./.test(a)) continue
    else if (/^-I|^--iso-8601/.test(a)) out = "2026-01-01T00:00:00+00:00"
    else if (/^-R$|^--rfc-(?:email|2822)$/.test(a)) out = "Thu, 01 Jan 2026 00:00:00 +0000"
    else if (/^--rfc-3339=/.test(a)) out = "2026-01-01 00:00:00+00:00"
    else return null
  }
  return out
}

/** The directory git keeps, as the repository found from the working directory names it. */
const GIT_DIR_FLAGS: ReadonlySet<string> = new Set(["--git-dir", "--absolute-git-dir", "--git-common-dir"])

/** `git rev-parse --git-dir | --absolute-git-dir | --git-common-dir | --git-path P`: the repository's `.git`. */
const gitRevParse = (args: ReadonlyArray<string>): string | null => {
  if (args[0] !== "rev-parse") return null
  const rest = args.slice(1)
  if (rest.length === 1 && GIT_DIR_FLAGS.has(rest[0] ?? "")) return ".git"
  // The work tree's top: above the working directory at most, never inside `.git`; `.` keeps what follows judged.
  if (rest.length === 1 && rest[0] === "--show-toplevel") return "."
  if (rest.length === 2 && rest[0] === "--git-path") return `.git/${(rest[1] ?? "").replace(/^\/+/, "")}`
  return null
}

const trimSlashes = (s: string): string => {
  const t = s.replace(/\/+$/, "")
  return t === "" && s.startsWith("/") ? "/" : t
}

const baseOf = (name: string, suffix: string): string => {
  const t = trimSlashes(name)
  if (t === "/") return "/"
  const base = t.slice(t.lastIndexOf("/") + 1)
  return suffix !== "" && base !== suffix && base.endsWith(suffix) ? base.slice(0, -suffix.length) : base
}

const dirOf = (name: string): string => {
  const t = trimSlashes(name)
  if (t === "/") return "/"
  const cut = t.lastIndexOf("/")
  if (cut < 0) return "."
  return trimSlashes(t.slice(0, cut)) || "/"
}

/** `basename NAME [SUFFIX]`, `basename -a|-s SUF NAME…`: one name per line. */
const basenames = (args: ReadonlyArray<string>): string | null => {
  let suffix = ""
  let many = false
  const names: Array<string> = []
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? ""
    if (a === "-s" || a === "--suffix") {
      suffix = args[++i] ?? ""
      many = true
    } else if (a.startsWith("--suffix=")) {
      suffix = a.slice("--suffix=".length)
      many = true
    } else if (a === "-a" || a === "--multiple") many = true
    else if (a === "--") {
      names.push(...args.slice(i + 1))
      break
    } else if (a.startsWith("-") && a !== "-") return null
    else names.push(a)
  }
  if (names.length === 0) return null
  if (!many) {
    if (names.length > 2) return null
    return baseOf(names[0] ?? "", names[1] ?? "")
  }
  return names.map((n) => baseOf(n, suffix)).join("\n")
}

const dirnames = (args: ReadonlyArray<string>): string | null => {
  const names = args.filter((a) => a !== "--")
  if (names.length === 0 || names.some((a) => a.startsWith("-") && a !== "-")) return null
  return names.map(dirOf).join("\n")
}

export const printedPath = (program: string, args: ReadonlyArray<string>): string | null => {
  switch (program) {
    case "mktemp":
      return mktemp(args)
    case "date":
      return date(args)
    case "git":
      return gitRevParse(args)
    case "basename":
      return basenames(args)
    case "dirname":
      return dirnames(args)
    default:
      return null
  }
}
