/**
 * The environment variables a command gets: the runtime's own, minus anything
 * that looks like a credential (provider keys, tokens, cloud credentials), so
 * a command the model writes cannot read or leak them. Names listed in
 * `terminal.env_passthrough` are kept anyway.
 */
import { isCredentialName } from "../../lib/credentialNames.js"

/** Runtime-internal variables that are not credentials but must not leak into a command either. */
const DROPPED: ReadonlySet<string> = new Set(["VIRTUAL_ENV", "CONDA_PREFIX"])

/** Directories a bare PATH may lack; appended so common tools resolve. */
const STANDARD_PATH = ["/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"]

const normalisePath = (path: string | undefined): string => {
  const seen = new Set<string>()
  const out: Array<string> = []
  for (const dir of [...(path ?? "").split(":"), ...STANDARD_PATH]) {
    if (dir === "" || seen.has(dir)) continue
    seen.add(dir)
    out.push(dir)
  }
  return out.join(":")
}

/**
 * Filtered copy of `base` for a child process. `extra` (per command) wins
 * over the base and is not filtered: the caller chose it.
 */
export const childEnv = (
  base: Readonly<Record<string, string | undefined>>,
  passthrough: ReadonlyArray<string>,
  extra?: Readonly<Record<string, string>>
): Record<string, string> => {
  const allowed = new Set(passthrough)
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined) continue
    if (DROPPED.has(name)) continue
    if (!allowed.has(name) && isCredentialName(name)) continue
    out[name] = value
  }
  out["PATH"] = normalisePath(out["PATH"])
  if (extra !== undefined) Object.assign(out, extra)
  return out
}
