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

const BLOCK_DEVICE = /^\/dev\/(?:sd|nvme|hd|mmcblk|vd|xvd)[a-z0-9]*(?![\w])/
export const isBlockDevice = (t: string): boolean => BLOCK_DEVICE.test(t)

const unquote = (t: string): string => {
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
