/**
 * Path safety: which paths the file tools (and anything else that touches
 * files for the model: approval rules, skills) refuse to read or write.
 * The one place these rules live. Hermes' rules and messages (§10.4):
 *
 * - device files that block or never end (`/dev/zero`, `/dev/stdin`,
 *   `/proc/<pid>/environ`, …), on the literal path, each symlink hop and the
 *   resolved path;
 * - reads of secret-bearing files: `.env*` anywhere (examples allowed), the
 *   credential stores and caches of our home (and a Hermes home beside it);
 * - writes to credential files in the user's home (`~/.ssh/…`, `~/.aws/…`,
 *   `~/.netrc`, …), to system paths (`/etc/…`, `/boot/…`), to our config,
 *   database, session state and audit log, and outside `files.write_roots`;
 * - `..` components in patch headers.
 *
 * Everything here is pure string work on absolute paths: the caller resolves
 * (`~`, the task's cwd, symlinks) through the task's environment first and
 * passes both the literal and the resolved form where both matter.
 */
import { posix } from "node:path"
import { Effect } from "effect"

/** Where the protected things are, as absolute paths (resolved where the caller could). */
export interface SafetyPaths {
  /** The user's home: `~` for the credential rules. */
  readonly userHome: string
  /** Our home ($HERMES_EFFECT_HOME): config, database, credentials. */
  readonly hermesHome: string
  /** The parent of all profiles (Hermes' root); the same as `hermesHome` without profiles. */
  readonly hermesRoot?: string | undefined
  /** Further Hermes-style homes whose credential stores are protected too (e.g. a Hermes install in ~/.hermes). */
  readonly otherHermesHomes?: ReadonlyArray<string> | undefined
  /** Our config file (writes refused with their own message). */
  readonly configFile: string
  /** Further files of ours the model must not rewrite (the approval audit log). */
  readonly protectedFiles?: ReadonlyArray<string> | undefined
  /** When non-empty, writes outside every root are refused. */
  readonly writeRoots?: ReadonlyArray<string> | undefined
}

// ---------------------------------------------------------------------------
// Lexical helpers

/** Collapse `.`, `..`, repeated and trailing slashes (Python's `os.path.normpath` for absolute paths). */
export const normalizePath = (path: string): string => {
  const normal = posix.normalize(path)
  return normal.length > 1 && normal.endsWith("/") ? normal.slice(0, -1) : normal
}

// Kept under its old name for the public `PathSafety` namespace.
export { expandHome as expandTilde } from "./text.js"

/** The path itself or anything below it. */
export const isWithin = (path: string, dir: string): boolean =>
  path === dir || path.startsWith(dir.endsWith("/") ? dir : `${dir}/`)

/** Any `..` component (either separator): a path that climbs out of where it is applied. */
export const hasTraversalComponent = (path: string): boolean => path.split(/[\\/]/).includes("..")

const basenameOf = (path: string): string => path.slice(path.lastIndexOf("/") + 1)

const unique = (paths: ReadonlyArray<string>): ReadonlyArray<string> => [...new Set(paths)]

/** Our home, the profile root and any other Hermes homes, without repeats. */
export const hermesDirs = (paths: SafetyPaths): ReadonlyArray<string> =>
  unique([paths.hermesHome, paths.hermesRoot ?? paths.hermesHome, ...(paths.otherHermesHomes ?? [])].map(normalizePath))

// ---------------------------------------------------------------------------
// Devices

const BLOCKED_DEVICES = new Set([
  "/dev/zero", "/dev/random", "/dev/urandom", "/dev/full",
  "/dev/stdin", "/dev/tty", "/dev/console",
  "/dev/stdout", "/dev/stderr",
  "/dev/fd/0", "/dev/fd/1", "/dev/fd/2"
])

/** Per-process files that leak secrets or memory layout (also under /proc/<pid>/task/<tid>/). */
const PROC_LEAKS = ["/environ", "/cmdline", "/maps", "/smaps", "/smaps_rollup", "/numa_maps", "/mem", "/auxv", "/pagemap"]
const PROC_STDIO = ["/fd/0", "/fd/1", "/fd/2"]

/** A path (after normalisation) that would block, never end, or leak process internals. */
export const isBlockedDevicePath = (path: string): boolean => {
  const normal = normalizePath(path)
  if (BLOCKED_DEVICES.has(normal)) return true
  if (!normal.startsWith("/proc/")) return false
  return PROC_STDIO.some((s) => normal.endsWith(s)) || PROC_LEAKS.some((s) => normal.endsWith(s))
}

export const deviceReadError = (path: string): string =>
  `Cannot read '${path}': this is a device file that would block or produce infinite output.`

export interface LinkOps {
  readonly readLink: (path: string) => Effect.Effect<string | undefined>
  readonly realPath: (path: string) => Effect.Effect<string>
}

/** Most symlink hops inspected (Hermes' bound). */
const MAX_HOPS = 20

/**
 * The literal path, every symlink hop from it, and the fully resolved path:
 * any of them naming a blocked device blocks the read. Aliases such as
 * `/dev/stdin` are caught before they resolve to a terminal-specific path.
 */
export const isBlockedDevice = (absolute: string, ops: LinkOps, resolved?: string): Effect.Effect<boolean> =>
  Effect.gen(function*() {
    const literal = normalizePath(absolute)
    if (isBlockedDevicePath(literal)) return true
    const seen = new Set<string>()
    let current = literal
    for (let hop = 0; hop < MAX_HOPS; hop++) {
      const target = yield* ops.readLink(current)
      if (target === undefined) break
      const next = normalizePath(target.startsWith("/") ? target : posix.join(posix.dirname(current), target))
      if (isBlockedDevicePath(next)) return true
      if (seen.has(next)) break
      seen.add(next)
      current = next
    }
    return isBlockedDevicePath(resolved ?? (yield* ops.realPath(literal)))
  })

// ---------------------------------------------------------------------------
// Reads

const ENV_BASENAMES = new Set([".env", ".env.local", ".env.development", ".env.production", ".env.test", ".env.staging", ".envrc"])
const CREDENTIAL_FILES = [
  "auth.json",
  "auth.lock",
  ".anthropic_oauth.json",
  ".env",
  "webhook_subscriptions.json",
  "auth/google_oauth.json",
  "cache/bws_cache.json"
]
const BYPASS_NOTE = "(Defense-in-depth — not a security boundary; the terminal tool can still bypass.)"

/**
 * The files the read rules protect by name, for comparing identities (device
 * and inode): a hard link has another name but is the same file. Our
 * credential stores in every Hermes home, and the environment files in
 * `envDirs`. (Token directories are listed by the caller: their files have no fixed names.)
 */
export const namedSecretFiles = (paths: SafetyPaths, envDirs: ReadonlyArray<string>): ReadonlyArray<string> =>
  unique([
    ...hermesDirs(paths).flatMap((dir) => CREDENTIAL_FILES.map((name) => posix.join(dir, name))),
    ...envDirs.flatMap((dir) => [...ENV_BASENAMES].map((name) => posix.join(normalizePath(dir), name)))
  ])

/** The directories holding MCP token files (every file in them is protected). */
export const tokenDirs = (paths: SafetyPaths): ReadonlyArray<string> => hermesDirs(paths).map((dir) => posix.join(dir, "mcp-tokens"))

/** A secret-bearing environment file by name (`.env.example` and `.env.sample` are fine). */
export const isSecretEnvFile = (path: string): boolean => ENV_BASENAMES.has(basenameOf(path).toLowerCase())

/**
 * Why reading `resolved` is refused, or undefined. `shown` is the path named in
 * the message; `literal` (the path before symlinks) is checked too.
 */
export const readBlockError = (
  resolved: string,
  paths: SafetyPaths,
  options: { readonly shown?: string; readonly literal?: string } = {}
): string | undefined => {
  const shown = options.shown ?? resolved
  const candidates = unique([normalizePath(resolved), ...(options.literal === undefined ? [] : [normalizePath(options.literal)])])
  const dirs = hermesDirs(paths)
  for (const path of candidates) {
    for (const dir of dirs) {
      if (isWithin(path, posix.join(dir, "skills", ".hub"))) {
        return `Access denied: ${shown} is an internal Hermes cache file and cannot be read directly to prevent prompt injection. Use the skills_list or skill_view tools instead.`
      }
    }
    for (const dir of dirs) {
      if (CREDENTIAL_FILES.some((name) => path === posix.join(dir, name))) {
        return `Access denied: ${shown} is a Hermes credential store and cannot be read directly. Provider tools consume these credentials through internal channels. ${BYPASS_NOTE}`
      }
    }
    for (const dir of dirs) {
      const tokens = posix.join(dir, "mcp-tokens")
      if (path === tokens) return `Access denied: ${shown} is the Hermes MCP token directory and cannot be read directly. ${BYPASS_NOTE}`
      if (isWithin(path, tokens)) return `Access denied: ${shown} is a Hermes MCP token file and cannot be read directly. ${BYPASS_NOTE}`
    }
  }
  if (candidates.some(isSecretEnvFile)) {
    return `Access denied: ${shown} is a secret-bearing environment file and cannot be read to prevent credential leakage. If you need to check the file structure, read .env.example instead. ${BYPASS_NOTE}`
  }
  return undefined
}

// ---------------------------------------------------------------------------
// Writes

/** Lexical deny lists; resolve each entry (symlinks) before comparing when you can. */
export interface WriteDenyList {
  /** Exactly these files. */
  readonly exact: ReadonlyArray<string>
  /** Anything strictly below these directories. */
  readonly below: ReadonlyArray<string>
  /** These paths and anything below them. */
  readonly subtree: ReadonlyArray<string>
}

export const writeDenyList = (paths: SafetyPaths): WriteDenyList => {
  const home = normalizePath(paths.userHome)
  const dirs = hermesDirs(paths)
  const inHome = (...parts: Array<string>) => posix.join(home, ...parts)
  return {
    exact: unique([
      inHome(".ssh", "authorized_keys"),
      inHome(".ssh", "id_rsa"),
      inHome(".ssh", "id_ed25519"),
      inHome(".netrc"),
      inHome(".pgpass"),
      inHome(".npmrc"),
      inHome(".pypirc"),
      inHome(".git-credentials"),
      "/etc/sudoers",
      "/etc/passwd",
      "/etc/shadow",
      ...dirs.flatMap((d) => [
        posix.join(d, ".env"),
        posix.join(d, ".anthropic_oauth.json"),
        posix.join(d, "cache", "bws_cache.enc.json"),
        posix.join(d, "state.db")
      ]),
      ...(paths.protectedFiles ?? []).map(normalizePath)
    ]),
    below: [
      inHome(".ssh"),
      inHome(".aws"),
      inHome(".gnupg"),
      inHome(".kube"),
      "/etc/sudoers.d",
      "/etc/systemd",
      inHome(".docker"),
      inHome(".azure"),
      inHome(".config", "gh"),
      inHome(".config", "gcloud")
    ],
    subtree: dirs.flatMap((d) => [posix.join(d, "sessions"), posix.join(d, "mcp-tokens"), posix.join(d, "pairing")])
  }
}

/** Apply `f` (e.g. a realpath) to every entry of a deny list. */
export const mapWriteDenyList = <E, R>(
  list: WriteDenyList,
  f: (path: string) => Effect.Effect<string, E, R>
): Effect.Effect<WriteDenyList, E, R> =>
  Effect.all({
    exact: Effect.forEach(list.exact, f, { batching: true }),
    below: Effect.forEach(list.below, f, { batching: true }),
    subtree: Effect.forEach(list.subtree, f, { batching: true })
  }, { batching: true })

export type WriteDenial = "credential" | "outside-roots"

/** Whether a (resolved) path may not be written: a protected file, or outside the write roots. */
export const classifyWriteDenial = (
  path: string,
  lists: ReadonlyArray<WriteDenyList>,
  writeRoots: ReadonlyArray<string> = []
): WriteDenial | undefined => {
  const target = normalizePath(path)
  for (const list of lists) {
    if (list.exact.includes(target)) return "credential"
    if (list.below.some((dir) => target.startsWith(`${dir}/`))) return "credential"
    if (list.subtree.some((dir) => isWithin(target, dir))) return "credential"
  }
  const roots = writeRoots.filter((r) => r.length > 0).map(normalizePath)
  if (roots.length > 0 && !roots.some((root) => isWithin(target, root))) return "outside-roots"
  return undefined
}

export const writeDeniedMessage = (shown: string, denial: WriteDenial, writeRoots: ReadonlyArray<string> = [], verb = "Write"): string =>
  denial === "outside-roots"
    ? `${verb} denied: '${shown}' is outside files.write_roots (${[...writeRoots].sort().join(":")}). Remove the setting or add a root that contains this path.`
    : `${verb} denied: '${shown}' is a protected system/credential file.`

const SENSITIVE_PREFIXES = ["/etc/", "/boot/", "/usr/lib/systemd/", "/private/etc/", "/private/var/"]
const SENSITIVE_EXACT = new Set(["/var/run/docker.sock", "/run/docker.sock"])

/**
 * System paths and our config: refused with a pointer elsewhere (Hermes'
 * `_check_sensitive_path`). Checked on the resolved and the literal path.
 */
export const sensitiveWriteError = (
  shown: string,
  candidates: ReadonlyArray<string>,
  configFiles: ReadonlyArray<string>
): string | undefined => {
  const normal = candidates.map(normalizePath)
  if (normal.some((p) => SENSITIVE_PREFIXES.some((prefix) => p.startsWith(prefix)) || SENSITIVE_EXACT.has(p))) {
    return `Refusing to write to sensitive system path: ${shown}\nUse the terminal tool with sudo if you need to modify system files.`
  }
  const configs = configFiles.map(normalizePath)
  if (normal.some((p) => configs.includes(p))) {
    return `Refusing to write to Hermes config file: ${shown}\nAgent cannot modify security-sensitive configuration. Edit ${configFiles[0] ?? "config.yaml"} directly instead.`
  }
  return undefined
}

/** Devices and kernel files: never written by a file tool (checked on the literal and the resolved path). */
export const systemTreeWriteError = (shown: string): string =>
  `Refusing to write '${shown}': device and kernel files (/dev, /proc, /sys) are never written by file tools.`

/** An existing device, FIFO or socket: replacing it with a regular file (or blocking on it) is never what was meant. */
export const notRegularWriteError = (shown: string): string =>
  `Refusing to write '${shown}': it exists and is not a regular file (a device, FIFO or socket). File tools only write regular files.`
