/**
 * Top-level module names of the Python packages installed where the interpreter looks after a script's own folder:
 * the site- and dist-packages of each `python3` on PATH (its venv's and its installation's), of every version a
 * version manager installed behind its shims, the user's site, conda's and Debian's. A file by such a name beside a
 * script shadows the package for whatever imports it (requests → idna.py, pytest → iniconfig.py), as a
 * standard-library name does.
 *
 * Listing them takes a round trip per folder on ssh and container backends, so the names are remembered per
 * environment and listed again only when something they came from has changed.
 */
import { posix } from "node:path"
import { Clock, Effect } from "effect"
import type { CommandSurroundings, ModifiedAt } from "../../../services/Approval.js"
import type { DetectionEnv } from "../detect/detectionEnv.js"

/** Looks (stat, list) under way at once: a few of the backend's sessions, not one per folder. */
const CONCURRENCY = 8
/** PATH directories looked in for python3. */
const MAX_PATH_DIRS = 16
/**
 * A folder changed this recently may change again within the same timestamp tick (a second or two on some
 * filesystems) without its time moving: its listing is trusted only once made later (git's "racily clean" check).
 */
const RACY_MS = 2_000
/** Environments remembered at most; the one judged longest ago is forgotten first. */
const MAX_ENVIRONMENTS = 64

/** The names once listed, with what they came from. */
interface Listing {
  /** The home and the variables that say where to look. */
  readonly inputs: string
  /** Each python3 on PATH with the file it resolves to. */
  readonly interpreters: ReadonlyArray<string>
  /** Each folder listed, by when it last changed as seen just before it was listed. */
  readonly stamps: ReadonlyMap<string, ModifiedAt>
  /** The clock just before the first folder was looked at. */
  readonly listedAt: number
  readonly names: ReadonlySet<string>
}

/** What the approval layer remembers across requests: a listing per environment. */
export interface InstalledPythonMemo {
  readonly listings: Map<string, Listing>
}

export const installedPythonMemo = (): InstalledPythonMemo => ({ listings: new Map() })

/** The memo and the environment a request runs in (backend and task). */
export interface Remembered {
  readonly memo: InstalledPythonMemo
  readonly environment: string
}

const normalize = (path: string): string => posix.resolve("/", path)

/** A python3 on PATH: the directory it is in and the file it resolves to. */
interface Interpreter {
  readonly dir: string
  readonly real: string
}

/** Each PATH directory's python3, in PATH's order. */
const interpretersOnPath = (variables: Readonly<Record<string, string>>, surroundings: CommandSurroundings): Effect.Effect<ReadonlyArray<Interpreter>> => {
  const dirs = (variables["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(":").filter((d) => d.startsWith("/")).slice(0, MAX_PATH_DIRS)
  return Effect.map(
    Effect.forEach(dirs, (dir) =>
      Effect.gen(function*() {
        const python = `${dir}/python3`
        if ((yield* surroundings.fileKind(python)) !== "file") return []
        return [{ dir, real: normalize(yield* surroundings.realPath(python)) } satisfies Interpreter]
      }), { concurrency: CONCURRENCY }),
    (found) => found.flat()
  )
}

/** The module names in every site folder of these interpreters and the usual places, each folder listed by `list`. */
const listInstalled = (
  home: string | undefined,
  variables: Readonly<Record<string, string>>,
  interpreters: ReadonlyArray<Interpreter>,
  list: (dir: string) => Effect.Effect<ReadonlyArray<string>>
): Effect.Effect<ReadonlySet<string>> =>
  Effect.gen(function*() {
    const prefixes: Array<string> = ["/usr", "/usr/local", "/opt/conda", ...[variables["VIRTUAL_ENV"], variables["CONDA_PREFIX"]].filter((v) => v !== undefined && v.startsWith("/")) as Array<string>]
    // Version managers whose PATH entry is a shim script (pyenv's `<root>/shims`): every version they installed.
    const managed = [variables["PYENV_ROOT"] ?? (home === undefined ? undefined : `${home}/.pyenv`), home === undefined ? undefined : `${home}/.local/share/uv/python`]
    // Each python3 on PATH: its folder's parent (a venv) and, links resolved, its installation's.
    for (const { dir, real } of interpreters) {
      prefixes.push(posix.dirname(dir), posix.dirname(posix.dirname(real)))
      if (posix.basename(dir) === "shims") managed.push(posix.dirname(dir))
    }
    const roots = [...new Set(managed)].flatMap((root) => (root === undefined ? [] : [root.endsWith("/uv/python") ? root : `${root}/versions`]))
    const versions = yield* Effect.forEach(roots, (root) => Effect.map(list(root), (vs) => vs.map((v) => `${root}/${v}`)), { concurrency: CONCURRENCY })
    prefixes.push(...versions.flat())
    if (home !== undefined) prefixes.push(`${home}/.local`, `${home}/miniconda3`, `${home}/anaconda3`, `${home}/miniforge3`)
    const found = yield* Effect.forEach(new Set(prefixes), (prefix) =>
      Effect.map(list(`${prefix}/lib`), (names) =>
        names.filter((v) => /^python3(?:\.\d+)?$/.test(v)).flatMap((v) => [`${prefix}/lib/${v}/site-packages`, `${prefix}/lib/${v}/dist-packages`])
      ), { concurrency: CONCURRENCY })
    const sites = ["/usr/lib/python3/dist-packages", ...found.flat()]
    const names = new Set<string>()
    for (const entries of yield* Effect.forEach(sites, list, { concurrency: CONCURRENCY })) {
      for (const entry of entries) {
        const name = /^([A-Za-z_]\w*)(?:\.py|(?:\.[\w-]+)?\.(?:so|pyd))?$/.exec(entry)?.[1]
        if (name !== undefined && name !== "__pycache__") names.add(name)
      }
    }
    return names
  })

/** The listing still holds: same inputs and interpreters, and every folder it read unchanged since, and settled then. */
const stillHolds = (
  known: Listing,
  inputs: string,
  interpreters: ReadonlyArray<string>,
  modifiedAt: (path: string) => Effect.Effect<ModifiedAt>
): Effect.Effect<boolean> => {
  const settled = (stamp: ModifiedAt) => stamp === "missing" || (typeof stamp === "number" && stamp < known.listedAt - RACY_MS)
  if (known.inputs !== inputs || known.interpreters.join("\n") !== interpreters.join("\n")) return Effect.succeed(false)
  if (![...known.stamps.values()].every(settled)) return Effect.succeed(false)
  return Effect.map(
    Effect.forEach(known.stamps, ([dir, stamp]) => Effect.map(modifiedAt(dir), (now) => now === stamp), { concurrency: CONCURRENCY }),
    (same) => same.every(Boolean)
  )
}

/**
 * The installed module names, as the environment holds them now. With `remembered` and a backend that tells when a
 * folder changed, the names listed for this environment before are used while nothing they came from changed.
 */
export const installedPython = (
  env: DetectionEnv,
  surroundings: CommandSurroundings,
  remembered?: Remembered
): Effect.Effect<ReadonlySet<string>> =>
  Effect.gen(function*() {
    const listDir = surroundings.listDir
    if (listDir === undefined) return new Set<string>()
    const names = (dir: string) => Effect.map(listDir(dir), (entries) => entries.map((e) => e.name))
    const home = env.home === undefined ? undefined : env.home.replace(/\/+$/, "")
    const variables = env.variables ?? {}
    const found = yield* interpretersOnPath(variables, surroundings)
    const modifiedAt = surroundings.modifiedAt
    if (remembered === undefined || modifiedAt === undefined) return yield* listInstalled(home, variables, found, names)
    // Installing a package adds a name to a site folder, so changes its time: folders' times, not a time to live,
    // tell when the names are stale (a package installed a moment ago already counts).
    const inputs = JSON.stringify([home, ...["PATH", "VIRTUAL_ENV", "CONDA_PREFIX", "PYENV_ROOT"].map((v) => variables[v] ?? null)])
    const interpreters = found.map(({ dir, real }) => `${dir}/python3 ${real}`)
    const { memo, environment } = remembered
    const known = memo.listings.get(environment)
    if (known !== undefined && (yield* stillHolds(known, inputs, interpreters, modifiedAt))) {
      memo.listings.delete(environment)
      memo.listings.set(environment, known)
      return known.names
    }
    const listedAt = yield* Clock.currentTimeMillis
    const stamps = new Map<string, ModifiedAt>()
    // Each folder's time is taken before it is listed: a change in between shows as a changed time next time.
    const listed = yield* listInstalled(home, variables, found, (dir) =>
      Effect.zipRight(Effect.map(modifiedAt(dir), (stamp) => void stamps.set(dir, stamp)), names(dir)))
    memo.listings.delete(environment)
    memo.listings.set(environment, { inputs, interpreters, stamps, listedAt, names: listed })
    if (memo.listings.size > MAX_ENVIRONMENTS) memo.listings.delete(memo.listings.keys().next().value ?? "")
    return listed
  })
