/**
 * Path classification for write targets. Inputs are lower-cased word texts;
 * the user/Hermes home has already been folded to `~` by normalisation, and
 * the `$HOME` / `$HERMES_HOME` spellings are recognised literally.
 */

const isWordChar = (c: number): boolean =>
  (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95 || (c >= 65 && c <= 90) || c > 127

/** Regex-style `\b` after a literal that ends in a word character. */
const boundaryAt = (s: string, i: number): boolean => i >= s.length || !isWordChar(s.charCodeAt(i))

const HOME_FORMS = ["~/", "$home/", "${home}/"] as const
const HERMES_FORMS = ["~/.hermes/", "$home/.hermes/", "${home}/.hermes/", "$hermes_home/", "${hermes_home}/"] as const
const SHELL_RC = [".bashrc", ".zshrc", ".profile", ".bash_profile", ".zprofile"] as const
const CREDENTIALS = [".netrc", ".pgpass", ".npmrc", ".pypirc"] as const

/** Index just past a home prefix at `i`, or -1. */
const afterHome = (s: string, i: number): number => {
  for (const h of HOME_FORMS) if (s.startsWith(h, i)) return i + h.length
  return -1
}

const dotfileAt = (s: string, i: number, names: ReadonlyArray<string>): boolean =>
  names.some((n) => s.startsWith(n, i) && boundaryAt(s, i + n.length))

const sshAt = (s: string, h: number): boolean =>
  s.startsWith(".ssh", h) && (h + 4 === s.length || s.charCodeAt(h + 4) === 47)

/** ~/.ssh, shell rc files and credential dotfiles starting at `i`. */
export const userSensitiveAt = (s: string, i: number): boolean => {
  const h = afterHome(s, i)
  return h >= 0 && (sshAt(s, h) || dotfileAt(s, h, SHELL_RC) || dotfileAt(s, h, CREDENTIALS))
}

/** ~/.hermes/.env or ~/.hermes/config.yaml (any spelling of the Hermes home) starting at `i`. */
export const hermesFileAt = (s: string, i: number): boolean => {
  for (const f of HERMES_FORMS) {
    if (!s.startsWith(f, i)) continue
    const j = i + f.length
    if (dotfileAt(s, j, [".env", "config.yaml"])) return true
  }
  return false
}

const PRIVATE_SYSTEM = ["/private/etc/", "/private/var/", "/private/tmp/", "/private/home/"] as const

/** /etc/ or its macOS /private twins starting at `i`. */
export const systemConfigAt = (s: string, i: number): boolean =>
  s.startsWith("/etc/", i) || PRIVATE_SYSTEM.some((p) => s.startsWith(p, i))

/** Anything Hermes refuses to let a redirect/tee/cp overwrite silently. */
export const sensitiveWriteAt = (s: string, i: number): boolean =>
  systemConfigAt(s, i) || s.startsWith("/dev/sd", i) || userSensitiveAt(s, i) || hermesFileAt(s, i)

/** Whether `pred` holds at some index where a path could begin. */
export const containsPath = (s: string, pred: (s: string, i: number) => boolean): boolean => {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if ((c === 47 || c === 126 || c === 36) && pred(s, i)) return true
  }
  return false
}

const startsQuoted = (s: string): number => (s.charCodeAt(0) === 34 || s.charCodeAt(0) === 39 ? 1 : 0)

/** Redirect target: the target itself (after one optional quote) is sensitive. */
export const sensitiveTarget = (t: string): boolean => sensitiveWriteAt(t, startsQuoted(t))

/** cp/mv/install destination: sensitive path, then only non-quote characters and an optional closing quote. */
export const sensitiveDestination = (t: string): boolean => {
  const q = startsQuoted(t)
  let body = t.slice(q)
  if (body.endsWith('"') || body.endsWith("'")) body = body.slice(0, -1)
  return !body.includes('"') && !body.includes("'") && sensitiveWriteAt(body, 0)
}

const PROJECT_FILE = String.raw`(?:\.env(?:\.[^/\s"'\x60]+)*|config\.yaml)`
const PROJECT_DIRS = String.raw`(?:/|\.{1,2}/)?(?:[^\s/"'\x60]+/)*`
const PROJECT_WHOLE = new RegExp(String.raw`^["']?${PROJECT_DIRS}${PROJECT_FILE}["']?(?=[\s;&|<>"']|$)`)
const PROJECT_TAIL = new RegExp(String.raw`^["']?${PROJECT_DIRS}${PROJECT_FILE}["']?$`)
const PROJECT_ANYWHERE = new RegExp(String.raw`${PROJECT_FILE}["']?(?:[\s;&|<>"']|$)`)

/** A project `.env*` / `config.yaml` as a redirect target. */
export const projectTarget = (t: string): boolean => PROJECT_WHOLE.test(t)
/** … as the final word of a cp/mv/install. */
export const projectDestination = (t: string): boolean => PROJECT_TAIL.test(t)
/** … mentioned anywhere in a word (tee's loose form). */
export const mentionsProjectFile = (t: string): boolean =>
  (t.includes(".env") || t.includes("config.yaml")) && PROJECT_ANYWHERE.test(t)

/**
 * A block device however it is named: the kernel's names (disks, RAID, device mapper, network and loop devices),
 * the udev links (`/dev/disk/by-id/…`, `/dev/mapper/…`, `/dev/block/8:0`), `/dev/root`, and LVM's `/dev/<vg>/<lv>`
 * (any two-level path but the character-device folders).
 */
const BLOCK_DEVICE = new RegExp(
  String.raw`^/dev/(?:(?:sd|nvme|hd|mmcblk|vd|xvd|md|nbd|rbd|zd|bcache|loop)[a-z0-9]*(?![\w])|dm-\d+$|root$|` +
    String.raw`(?:disk|mapper|block)/[^/\s]|` +
    String.raw`(?!(?:pts|shm|mqueue|fd|input|snd|net|bus|char|dri|hugepages|cpu|usb|vfio|serial|v4l|bsg|hidraw|dma_heap|cpuset|tty|vhost-net)/)[a-z0-9_.-]+/[a-z0-9_.+:-]+$)`
)
export const isBlockDevice = (t: string): boolean => BLOCK_DEVICE.test(t)

/** The word without one pair of matching quotes around it. */
export const unquote = (t: string): string => {
  const q = t.charCodeAt(0)
  return t.length >= 2 && (q === 34 || q === 39) && t.charCodeAt(t.length - 1) === q ? t.slice(1, -1) : t
}

const ROOT = /^\/(?:(?:\.\.?)?\/)*(?:\.\.?)?\**$/
// Deliberately also accepts a trailing slash (`/etc/`): the same directory, so the same floor.
const SYSTEM = /^\/(?:home|root|etc|usr|var|bin|sbin|boot|lib)(?:\/\*?)?$/
const HOME = /^(?:~|\$\{?home\}?)(?:\/|\/\*)?$/

export type RmTarget = "root" | "system" | "home" | null

/** Classify an rm operand (lower-cased text, optionally wrapped in one pair of quotes). */
export const rmTarget = (t: string): RmTarget => {
  const p = unquote(t)
  return ROOT.test(p) ? "root" : SYSTEM.test(p) ? "system" : HOME.test(p) ? "home" : null
}

// ---------------------------------------------------------------------------
// Paths as the shell would expand them (case kept), for the runtime-home and
// implicitly-executed-file rules. Nothing touches the filesystem: globs are
// matched against the one path we care about, component by component.
// ---------------------------------------------------------------------------

export interface PathEnv {
  readonly home: string | undefined
  readonly hermesHome: string | undefined
}

/** Components of an absolute path, `.`/`..` resolved lexically. */
export const pathParts = (path: string): string[] => {
  const parts: string[] = []
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue
    if (part === "..") parts.pop()
    else parts.push(part)
  }
  return parts
}

const GLOB_CHARS = /[*?[{]/
export const hasGlob = (s: string): boolean => GLOB_CHARS.test(s)

/** `{a,b}` alternatives of one component (one level, which is all brace expansion needs here). */
const braceAlternatives = (pattern: string): ReadonlyArray<string> => {
  const open = pattern.indexOf("{")
  const close = open < 0 ? -1 : pattern.indexOf("}", open)
  if (close < 0) return [pattern]
  const head = pattern.slice(0, open)
  const tail = pattern.slice(close + 1)
  return pattern
    .slice(open + 1, close)
    .split(",")
    .flatMap((alt) => braceAlternatives(head + alt + tail))
}

const matchFrom = (p: string, pi: number, n: string, ni: number): boolean => {
  while (pi < p.length) {
    const c = p[pi]
    if (c === "*") {
      while (p[pi] === "*") pi++
      if (pi === p.length) return true
      for (let k = ni; k <= n.length; k++) if (matchFrom(p, pi, n, k)) return true
      return false
    }
    if (ni >= n.length) return false
    if (c === "?") {
      pi++
      ni++
      continue
    }
    if (c === "[") {
      const end = p.indexOf("]", pi + 2)
      if (end > 0) {
        let body = p.slice(pi + 1, end)
        const negate = body.startsWith("!") || body.startsWith("^")
        if (negate) body = body.slice(1)
        const ch = n[ni] ?? ""
        let hit = false
        for (let k = 0; k < body.length; k++) {
          if (body[k + 1] === "-" && k + 2 < body.length) {
            if (ch >= (body[k] ?? "") && ch <= (body[k + 2] ?? "")) hit = true
            k += 2
          } else if (body[k] === ch) hit = true
        }
        if (hit === negate) return false
        pi = end + 1
        ni++
        continue
      }
    }
    if (c === "\\" && pi + 1 < p.length) pi++
    if (p[pi] !== n[ni]) return false
    pi++
    ni++
  }
  return ni === n.length
}

/** Whether one glob component matches one name (a leading dot must be matched literally, as in bash). */
export const globMatches = (pattern: string, name: string): boolean =>
  braceAlternatives(pattern).some((alt) => {
    if (name.startsWith(".") && !alt.startsWith(".")) return false
    return matchFrom(alt, 0, name, 0)
  })

const HOME_VAR = /^(?:\$HOME|\$\{HOME\})(?=\/|$)/

/**
 * The absolute path a word names once `~`, `~user` and `$HOME` are expanded,
 * or null when it is relative or starts with another expansion.
 */
export const absolutePath = (word: string, env: PathEnv): string | null => {
  if (word.startsWith("/")) return word
  if (word.startsWith("~")) {
    const slash = word.indexOf("/")
    const user = word.slice(1, slash < 0 ? word.length : slash)
    const rest = slash < 0 ? "" : word.slice(slash)
    if (user === "") return env.home === undefined ? null : env.home + rest
    if (!/^[A-Za-z0-9._-]+$/.test(user)) return null
    return (user === "root" ? "/root" : `/home/${user}`) + rest
  }
  const m = HOME_VAR.exec(word)
  if (m !== null && env.home !== undefined) return env.home + word.slice(m[0].length)
  return null
}

/** Whether the pattern's components (globs allowed) match `target`'s first components; `prefix`: the pattern may be shorter. */
export const globCovers = (pattern: ReadonlyArray<string>, target: ReadonlyArray<string>): boolean => {
  if (pattern.length < target.length) return false
  for (let k = 0; k < target.length; k++) {
    const p = pattern[k] ?? ""
    const t = target[k] ?? ""
    if (p === t) continue
    if (p === "**" || !hasGlob(p) || !globMatches(p, t)) return false
  }
  return true
}

/** Whether every component of `pattern` matches the start of `target` (the pattern names an ancestor or the target itself). */
export const globAncestor = (pattern: ReadonlyArray<string>, target: ReadonlyArray<string>): boolean => {
  if (pattern.length > target.length) return false
  for (let k = 0; k < pattern.length; k++) {
    const p = pattern[k] ?? ""
    const t = target[k] ?? ""
    if (p !== t && !(hasGlob(p) && globMatches(p, t))) return false
  }
  return true
}

const SYSTEM_DIRS = new Set([
  "bin", "boot", "dev", "etc", "home", "lib", "lib32", "lib64", "libx32", "opt", "proc", "root", "run", "sbin", "snap",
  "srv", "sys", "usr", "var"
])

/** `/`, written any way (`//`, `/.`, `/..`). */
export const isRootDir = (word: string): boolean => word.startsWith("/") && pathParts(word).length === 0

/** A top-level system directory (`/etc`, `/usr/`), or `/usr/bin`-style second level under /usr. */
export const isSystemDir = (word: string): boolean => {
  if (!word.startsWith("/")) return false
  const parts = pathParts(word)
  if (parts.length === 1) return SYSTEM_DIRS.has(parts[0] ?? "")
  return parts.length === 2 && parts[0] === "usr" && ["bin", "sbin", "lib", "lib64", "local", "share", "include"].includes(parts[1] ?? "")
}

/** The user's home itself (`~`, `$HOME`, its absolute path). */
export const isHomeDir = (word: string, env: PathEnv): boolean => {
  if (word === "~" || word === "~/" || /^(?:\$HOME|\$\{HOME\})\/?$/.test(word)) return true
  if (env.home === undefined || !word.startsWith("/")) return false
  const a = pathParts(word)
  const b = pathParts(env.home)
  return b.length > 0 && a.length === b.length && a.every((p, k) => p === b[k])
}

/** End of one path component from `i`, stepping over `$(…)`, `${…}` and backquotes (a pid computed by a command). */
const componentEnd = (path: string, i: number): number => {
  let depth = 0
  for (let k = i; k < path.length; k++) {
    const c = path[k]
    if (c === "`") {
      const close = path.indexOf("`", k + 1)
      if (close < 0) return path.length
      k = close
    } else if (c === "(" || c === "{") depth++
    else if ((c === ")" || c === "}") && depth > 0) depth--
    else if (c === "/" && depth === 0) return k
  }
  return path.length
}

/** The pid spellings that name the process opening the path itself. */
export const SELF_PID = /^(?:self|thread-self|\$\$|\$\{\$\}|\$BASHPID|\$\{BASHPID\})$/

/**
 * A path into another process through /proc: its open files (`/proc/<pid>[/task/<tid>]/fd/…`, where `0` of the
 * runtime is the pipe an editor's messages arrive on) or its memory (`…/mem`, any process's, the command's own too).
 * The command's own descriptors (`/proc/self/fd/N`, `thread-self`, `$$`, `$BASHPID`) are its own business.
 */
export const intoOtherProcess = (path: string): boolean => {
  const m = /^\/+proc\/+([^/]+)(?:\/+task\/+[^/]+)?\/+(fd|mem)(?:\/|$)/.exec(path)
  return m !== null && (m[2] === "mem" || !SELF_PID.test(m[1] ?? ""))
}

/** `/proc/<pid>[/task/<tid>]/{cwd,root}` at the start of a path: the pid's spelling, which view, and the rest. */
const procView = (path: string): { readonly pid: string; readonly view: string; readonly rest: string } | null => {
  const start = /^\/+proc\/+/.exec(path)
  if (start === null) return null
  let i = start[0].length
  const pidEnd = componentEnd(path, i)
  const pid = path.slice(i, pidEnd)
  if (pid === "") return null
  i = pidEnd
  const task = /^\/+task\/+/.exec(path.slice(i))
  if (task !== null) {
    const tidEnd = componentEnd(path, i + task[0].length)
    if (tidEnd === i + task[0].length) return null
    i = tidEnd
  }
  // `root~/…`: normalisation folded the home's absolute spelling that followed (`/proc/1/root/home/me/x`).
  const m = /^\/+(cwd|root)(?=\/|~|$)\/*/.exec(path.slice(i))
  if (m === null) return null
  return { pid, view: m[1] ?? "", rest: path.slice(i + m[0].length) }
}

/**
 * `/proc/self` is whichever process opens the path: for a command, its own shell or program, standing where the
 * command stands, not where the runtime does. `/proc/self/cwd/x` is `./x` there, `/proc/self/root/x` is `/x`; so
 * are `thread-self` and the shell's own pid (`$$`, `$BASHPID`), and the shell's own `~+`, `$PWD` and `$(pwd)`.
 * Any other process in the same mount namespace (`/proc/1`, `/proc/$(pgrep node)`, `/proc/*`, a task under it) has
 * the same root, so its `root/x` is `/x` too; its `cwd` is a directory only known when it runs, and is kept as
 * written (judged by the names below it; the judge refuses writes through it).
 */
const HERE_WORD = /^(?:~\+|\$PWD|\$\{PWD\}|\$\(\s*pwd(?:\s+-[LP])?\s*\)|`\s*pwd(?:\s+-[LP])?\s*`)(?=\/|$)/
export const asCommandSees = (path: string): string => {
  // `~+`, `$PWD` and `$(pwd)` are where the command stands.
  const here = HERE_WORD.exec(path)
  if (here !== null) return `.${path.slice(here[0].length)}`
  if (!path.startsWith("/") || !path.includes("proc")) return path
  const m = procView(path)
  if (m === null) return path
  // `/proc/1/root/proc/self/root/x`: folded again.
  if (m.view === "root") return m.rest.startsWith("~") ? m.rest : asCommandSees(`/${m.rest}`)
  if (!SELF_PID.test(m.pid) || m.rest.startsWith("~")) return path
  return m.rest === "" ? "." : `./${m.rest}`
}
