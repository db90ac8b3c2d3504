/**
 * Where detection gets the paths it folds (user home, Hermes home) and the
 * temp dir used by the verification-cleanup exemption. Resolved per call so a
 * HOME changed after import is honoured; nothing touches the filesystem.
 */
import type { RuntimeProcess } from "../../../services/Approval.js"

export interface DetectionEnv {
  readonly home?: string
  readonly hermesHome?: string
  readonly env?: Readonly<Record<string, string | undefined>>
  /**
   * The variables the command starts with (the task's exports), to resolve
   * words such as `$A` in `$A -rf …`. Given, it is complete: a name not in it
   * is unset. Absent, every variable the line does not set itself is unknown.
   */
  readonly variables?: Readonly<Record<string, string>>
  /**
   * Functions the command's shell already holds (a persistent shell keeps
   * what earlier calls defined): a call of one runs a body this line does not
   * show, so it needs approval.
   */
  readonly shellFunctions?: ReadonlyArray<string>
  /**
   * The shell keeps plain variables from earlier calls (a persistent shell): a name
   * missing from `variables` is unknown rather than unset.
   */
  readonly shellKeepsVariables?: boolean
  /**
   * The shell's working directory when the command starts, when the caller knows it: a relative operand of a
   * deleting command (`rm -rf *` run in `/`) is judged where it lands.
   */
  readonly cwd?: string
  /** The runtime's own process, when commands can reach it (the local backend): signals and debuggers aimed at it ask. */
  readonly runtimeProcess?: RuntimeProcess | undefined
}

export interface ResolvedEnv {
  readonly home: string | undefined
  readonly hermesHome: string | undefined
  /** Looked up lazily: only the rare `rm -f <tmp>/…` exemption needs it. */
  readonly tmpDir: () => string
  /** Where the command starts, when known (absolute). */
  readonly cwd: string | undefined
  readonly runtimeProcess: RuntimeProcess | undefined
}

const nonEmpty = (s: string | undefined): string | undefined => (s !== undefined && s !== "" ? s : undefined)

const trimTrailingSeparators = (p: string): string => {
  let end = p.length
  while (end > 1 && (p[end - 1] === "/" || p[end - 1] === "\\")) end--
  return p.slice(0, end)
}

export const resolveEnv = (options: DetectionEnv | undefined): ResolvedEnv => {
  const env = options?.env ?? process.env
  const home = nonEmpty(options?.home) ?? nonEmpty(env["HOME"])
  const hermesHome =
    nonEmpty(options?.hermesHome) ??
    nonEmpty(env["HERMES_EFFECT_HOME"]) ??
    nonEmpty(env["HERMES_HOME"]) ??
    (home !== undefined ? `${trimTrailingSeparators(home)}/.hermes` : undefined)
  // Same lookup order as Python's tempfile.gettempdir (minus the probing I/O).
  const tmpDir = (): string =>
    trimTrailingSeparators(nonEmpty(env["TMPDIR"]) ?? nonEmpty(env["TEMP"]) ?? nonEmpty(env["TMP"]) ?? "/tmp")
  const cwd = options?.cwd !== undefined && options.cwd.startsWith("/") ? options.cwd : undefined
  return { home, hermesHome, tmpDir, cwd, runtimeProcess: options?.runtimeProcess }
}
