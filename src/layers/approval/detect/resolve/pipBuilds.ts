/**
 * What `pip install` / `pip wheel` / `pip download` build from this machine. Building a local project runs its
 * setup.py (or the build backend its pyproject.toml names), even for `--dry-run` and `download`: pip asks the
 * project for its metadata. pip finds local projects by more than a path operand: `-e name`, a `file:` URL,
 * `name @ file:…`, an sdist archive, and every one of those inside the requirement and constraint files it reads
 * (`-r`, `-c`, nested). A package from an index is installed code, like any dependency. Pure: the judge reads the files.
 */

/**
 * A source pip builds from this machine: a project directory (its build code is read), or a packed one (an sdist
 * archive, a local repository) whose build code cannot be read before pip unpacks or checks it out.
 */
export interface PipSource {
  readonly kind: "project" | "packed"
  /** As written (a `file:` URL made a path): relative to where pip runs, or absolute. */
  readonly path: string
}

export interface PipBuild {
  readonly sources: ReadonlyArray<PipSource>
  /** Requirement and constraint files it reads (`-r`, `-c`), as written. */
  readonly requirements: ReadonlyArray<string>
  /** Lines whose local source pip only knows when it runs (it expands `${VAR}` in requirement files). */
  readonly computed: ReadonlyArray<string>
}

const BUILD_VERBS = new Set(["install", "wheel", "download"])

/** Short options taking a value (the rest of a cluster or the next word): `-Ur req.txt` reads req.txt. */
const SHORT_VALUED = new Set(["r", "c", "e", "t", "i", "f", "d", "w", "C"])

/** Long options taking the next word (pip's general options and those of its build verbs). */
const LONG_VALUED = new Set([
  "--requirement", "--constraint", "--editable", "--target", "--prefix", "--root", "--index-url", "--extra-index-url",
  "--find-links", "--src", "--python", "--platform", "--python-version", "--implementation", "--abi", "--progress-bar",
  "--config-settings", "--log", "--log-file", "--cache-dir", "--report", "--dest", "--wheel-dir", "--upgrade-strategy",
  "--global-option", "--build-option", "--install-option", "--no-binary", "--only-binary", "--trusted-host", "--proxy",
  "--retries", "--timeout", "--exists-action", "--cert", "--client-cert", "--use-feature", "--use-deprecated",
  "--keyring-provider", "--root-user-action", "--hash", "--format"
])

/** pip's archive formats (a wheel is installed as it is: no build code runs). */
const ARCHIVE = /\.(?:zip|tar|tgz|tbz|txz|tlz|tar\.(?:gz|bz2|xz|lz|lzma))$/i

/** `file:///a/b`, `file://localhost/a`, `file:a`: the path, `%xx` decoded; a `#subdirectory=` fragment appended. */
const fileUrlPath = (rest: string): string => {
  const hash = rest.indexOf("#")
  const fragment = hash < 0 ? "" : rest.slice(hash + 1)
  const url = (hash < 0 ? rest : rest.slice(0, hash)).replace(/^\/\/(?:localhost)?(?=\/)/i, "")
  let path = url
  try {
    path = decodeURIComponent(url)
  } catch {
    // Not valid percent-encoding: pip takes it as written.
  }
  const sub = /(?:^|&)subdirectory=([^&]+)/.exec(fragment)?.[1]
  return sub === undefined ? path : `${path.replace(/\/+$/, "")}/${sub}`
}

/**
 * The local source a requirement names, or null for a package from an index or a remote URL: a path or a bare
 * name (a directory of that name is built: over-reading costs nothing when it is missing), `file:` URLs, PEP 508
 * `name @ file:…`, a local VCS URL (`git+file:…`), an archive. Extras and markers are dropped.
 */
export const localSource = (spec: string): PipSource | null => {
  const text = spec.trim().replace(/\s+;.*$/, "")
  const at = /^[A-Za-z0-9][\w.-]*\s*(?:\[[^\]]*\])?\s*@\s*(\S.*)$/.exec(text)
  const target = (at?.[1] ?? text).trim()
  const vcs = /^(?:git|hg|svn|bzr)\+file:(.*)$/i.exec(target)
  if (vcs !== null) return { kind: "packed", path: fileUrlPath(vcs[1] ?? "") }
  let path: string
  if (/^file:/i.test(target)) path = fileUrlPath(target.slice(5))
  else if (/^[A-Za-z][\w+.-]*:/.test(target)) return null
  else path = target.replace(/\[[^\]]*\]$/, "")
  if (path === "" || /\.whl$/i.test(path)) return null
  if (ARCHIVE.test(path)) return { kind: "packed", path }
  return { kind: "project", path: path === "/" ? path : path.replace(/\/+$/, "") }
}

/** A requirements file as `-r` names it: a `file:` URL is the path it spells. */
export const requirementPath = (written: string): string => (/^file:/i.test(written) ? fileUrlPath(written.slice(5)) : written)

interface Options {
  readonly requirements: ReadonlyArray<string>
  readonly specs: ReadonlyArray<string>
  /** Local places pip looks for packages (`--find-links DIR`, a `file:` index): whatever sdist it picks there is built. */
  readonly links: ReadonlyArray<PipSource>
}

/** The variables pip reads as those options. */
export const PIP_PLACES: Readonly<Record<string, string>> = Object.assign(Object.create(null) as Record<string, string>, {
  PIP_FIND_LINKS: "--find-links",
  PIP_INDEX_URL: "--index-url",
  PIP_EXTRA_INDEX_URL: "--extra-index-url"
})

/** Options naming where pip finds packages; a local one (a path, a `file:` URL) may hold planted sources. */
const LINK_OPTIONS = new Set(["f", "i", "--find-links", "--index-url", "--extra-index-url"])

/**
 * A local place pip finds packages, or null for a remote one. Its listing is not read here: any source archive or
 * project pip may pick there is as unreadable as a packed source (the judge asks when the place exists).
 */
export const linkSource = (value: string): PipSource | null => {
  const path = /^file:/i.test(value) ? fileUrlPath(value.slice(5)) : /^[A-Za-z][\w+.-]*:/.test(value) ? null : value
  return path === null || path === "" ? null : { kind: "packed", path }
}

/** A build verb's words: the files `-r`/`-c` name, and the requirements (operands and `-e` values). */
const pipOptions = (words: ReadonlyArray<string>): Options => {
  const requirements: Array<string> = []
  const specs: Array<string> = []
  const links: Array<PipSource> = []
  const take = (option: string, value: string | undefined): void => {
    if (value === undefined) return
    const link = LINK_OPTIONS.has(option) ? linkSource(value) : null
    if (link !== null) links.push(link)
    else if (option === "r" || option === "c" || option === "--requirement" || option === "--constraint") requirements.push(value)
    // An editable is always a path or a VCS URL: `-e pkg` is the folder `pkg`, not a package of that name.
    else if (option === "e" || option === "--editable") specs.push(/^[\w-][\w.-]*(?:\[[^\]]*\])?$/.test(value) ? `./${value}` : value)
  }
  for (let i = 0; i < words.length; i++) {
    const a = words[i] ?? ""
    if (a.startsWith("--")) {
      const eq = a.indexOf("=")
      if (eq > 0) take(a.slice(0, eq), a.slice(eq + 1))
      else if (LONG_VALUED.has(a)) take(a, words[++i])
    } else if (a.startsWith("-") && a.length > 1) {
      // A cluster of short options: the first that takes a value takes the rest of the word, or the next word.
      for (let k = 1; k < a.length; k++) {
        const option = a[k] ?? ""
        if (!SHORT_VALUED.has(option)) continue
        take(option, k + 1 < a.length ? a.slice(k + 1) : words[++i])
        break
      }
    } else if (a !== "") specs.push(a)
  }
  return { requirements, specs, links }
}

const sourcesOf = (specs: ReadonlyArray<string>): ReadonlyArray<PipSource> =>
  specs.map(localSource).filter((s): s is PipSource => s !== null)

/** `pip [options] install|wheel|download …` (any `pipN`, `python -m pip`); null for the verbs that build nothing. */
export const pipBuild = (args: ReadonlyArray<string>): PipBuild | null => {
  let verb = 0
  while (verb < args.length && (args[verb] ?? "").startsWith("-")) verb += LONG_VALUED.has(args[verb] ?? "") ? 2 : 1
  if (!BUILD_VERBS.has(args[verb] ?? "")) return null
  // pip's general options before the verb (`pip -f dir install x`, `--index-url file:…`) count as well.
  const general = pipOptions(args.slice(0, verb))
  const { requirements, specs, links } = pipOptions(args.slice(verb + 1))
  return { sources: [...sourcesOf(specs), ...general.links, ...links], requirements, computed: [] }
}

/**
 * A requirements (or constraints) file: nested `-r`/`-c` files (relative to this file), and the local sources its
 * lines name (relative to where pip runs). A line is a requirement up to its first option word (`--hash=…`);
 * `\` continues a line, ` #` starts a comment.
 */
export const requirementLines = (text: string): PipBuild => {
  const requirements: Array<string> = []
  const sources: Array<PipSource> = []
  const computed: Array<string> = []
  for (const raw of text.replace(/\\\r?\n/g, "").split(/\r?\n/)) {
    const line = raw.replace(/(?:^|\s+)#.*$/, "").trim()
    if (line === "") continue
    // pip substitutes `${NAME}` from its environment: the source is only known then.
    if (/\$\{[A-Za-z0-9_]+\}/.test(line)) {
      computed.push(line)
      continue
    }
    const words = line.split(/\s+/)
    const first = words.findIndex((w) => w.startsWith("-"))
    const spec = words.slice(0, first < 0 ? words.length : first).join(" ")
    const options = pipOptions(first < 0 ? [] : words.slice(first))
    requirements.push(...options.requirements)
    sources.push(...sourcesOf(spec === "" ? options.specs : [spec, ...options.specs]), ...options.links)
  }
  return { sources, requirements, computed }
}

export interface ProjectMetadata {
  /** Local sources the project depends on or builds with (`name @ file:…`, any `file:` URL). */
  readonly sources: ReadonlyArray<PipSource>
  /** Modules of the project its build imports: an in-tree backend (`backend-path`), setuptools' `attr:` and `cmdclass`. */
  readonly modules: ReadonlyArray<string>
  /** Directories of the project those modules are imported from (`backend-path`; else the project and `src`). */
  readonly moduleDirs: ReadonlyArray<string>
}

const FILE_URL = /\bfile:[^\s"',\])}]+/gi
const STRING_LIST = /["']([^"']*)["']/g

/**
 * What else a local project's pyproject.toml, setup.cfg or setup.py makes pip build or import: read loosely, over
 * the whole text (a name that is not there costs nothing).
 */
export const projectMetadata = (text: string): ProjectMetadata => {
  // hatch spells the project's own folder `{root:uri}`: `dep @ {root:uri}/dep` is a folder beside it.
  const sources = sourcesOf([...text.replace(/\{root(?::uri)?\}/g, "file:.").matchAll(FILE_URL)].map((m) => m[0]))
  const modules: Array<string> = []
  const add = (mod: string | undefined): void => {
    if (mod !== undefined && /^[A-Za-z_][\w.]*$/.test(mod) && !modules.includes(mod)) modules.push(mod)
  }
  const backendPath = /^\s*backend-path\s*=\s*\[([^\]]*)\]/m.exec(text)
  const backendDirs = backendPath === null ? [] : [...(backendPath[1] ?? "").matchAll(STRING_LIST)].map((m) => m[1] ?? ".")
  // Only a backend on a path of the project's is the project's code; any other is an installed package.
  if (backendDirs.length > 0) add(/^\s*build-backend\s*=\s*["']([\w.]+)/m.exec(text)?.[1])
  // `version = attr: pkg.__version__` (setup.cfg), `version = {attr = "pkg.VERSION"}` (pyproject): the module
  // is imported when its value is not a literal; a `cmdclass` names command classes the build imports.
  for (const m of text.matchAll(/\battr\s*(?:=|:)\s*["']?([A-Za-z_][\w.]*)/g)) add((m[1] ?? "").replace(/\.[^.]*$/, ""))
  const cmdclass = /cmdclass([\s\S]*?)(?:\n\s*\[|$)/.exec(text)?.[1] ?? ""
  for (const m of cmdclass.matchAll(/=\s*["']?([A-Za-z_][\w.]*)[.:][A-Za-z_]\w*/g)) add(m[1])
  return { sources, modules, moduleDirs: backendDirs.length > 0 ? backendDirs : [".", "src"] }
}

const BUILD_VALUED = new Set(["-o", "--outdir", "-C", "--config-setting", "--installer"])

/** `python -m build [srcdir]`, `pyproject-build [srcdir]`: the project it builds (where it runs by default). */
export const buildSource = (args: ReadonlyArray<string>): string => {
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? ""
    if (BUILD_VALUED.has(a)) i++
    else if (!a.startsWith("-")) return a === "/" ? a : a.replace(/\/+$/, "")
  }
  return "."
}
