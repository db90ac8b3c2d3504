/**
 * ssh command lines. Every client names the same ControlPath: the first
 * connection becomes the master (ControlPersist keeps it in the background),
 * later ones are sessions on it, one round trip each. A master left behind by
 * a crash exits by itself once idle for CONTROL_PERSIST_SECONDS.
 */
import type { Invocation } from "../transport.js"
import { shellQuote } from "../shellScript.js"
import { describeTarget } from "./sshSettings.js"
import type { SshSettings } from "./sshSettings.js"

export const CONTROL_PERSIST_SECONDS = 300

/** How a client uses the shared connection. */
export type Multiplexing = "client" | "master" | "direct"

const destination = (settings: SshSettings): string => settings.host ?? ""

export const sshOptions = (settings: SshSettings, controlPath: string, mode: Multiplexing): ReadonlyArray<string> => [
  // ssh keeps the first value it sees for an option: ours for the connection, then the operator's, then defaults.
  ...(mode === "direct"
    ? ["-o", "ControlMaster=no", "-o", "ControlPath=none"]
    : [
      "-o", `ControlPath=${controlPath}`,
      "-o", mode === "master" ? "ControlMaster=yes" : "ControlMaster=auto",
      "-o", `ControlPersist=${CONTROL_PERSIST_SECONDS}`
    ]),
  ...settings.options.flatMap((option) => ["-o", option]),
  "-o", "BatchMode=yes",
  "-o", "StrictHostKeyChecking=accept-new",
  "-o", "ConnectTimeout=10",
  "-o", "ServerAliveInterval=15",
  "-o", "LogLevel=ERROR",
  "-p", String(settings.port),
  ...(settings.key === undefined ? [] : ["-i", settings.key, "-o", "IdentitiesOnly=yes"]),
  ...(settings.user === undefined ? [] : ["-l", settings.user])
]

/**
 * The line sshd hands to the login shell for `argv`. A `bash -c script $0 args…`
 * runs in the login shell itself when that is bash (one exec fewer per command,
 * about a millisecond); anything else is quoted and exec'd.
 */
export const remoteLine = (argv: ReadonlyArray<string>, loginBash: boolean): string =>
  loginBash && argv.length >= 4 && argv[0] === "bash" && argv[1] === "-c"
    ? `set -- ${argv.slice(4).map(shellQuote).join(" ")}\n${argv[2]}`
    : `exec ${argv.map(shellQuote).join(" ")}`

/** Run a line in the remote login shell. */
export const sshExec = (
  settings: SshSettings,
  controlPath: string,
  line: string,
  options: { readonly tty: boolean; readonly mode: Multiplexing }
): Invocation => ({
  file: "ssh",
  args: [
    ...sshOptions(settings, controlPath, options.mode),
    options.tty ? "-tt" : "-T",
    destination(settings),
    line
  ]
})

/** Prints the login shell's bash version (empty for another shell). */
export const LOGIN_SHELL_PROBE = "printf '%s\\n' \"${BASH_VERSION-}\""

/** Start the master: returns once authenticated (it then backgrounds itself), or fails with ssh's reason. */
export const sshStartMaster = (settings: SshSettings, controlPath: string): Invocation => ({
  file: "ssh",
  args: [...sshOptions(settings, controlPath, "master"), "-N", destination(settings)]
})

/** `-O check` / `-O exit` on the master. */
export const sshControl = (settings: SshSettings, controlPath: string, command: "check" | "exit"): Invocation => ({
  file: "ssh",
  args: ["-o", `ControlPath=${controlPath}`, "-O", command, ...(settings.user === undefined ? [] : ["-l", settings.user]), "-p", String(settings.port), destination(settings)]
})

/** ssh exits 255 for its own failures; anything it said then is the reason. */
export const sshFailure = (settings: SshSettings) => (code: number, diagnostics: string): string | undefined => {
  if (code !== 255 || diagnostics.trim().length === 0) return undefined
  return `ssh to ${describeTarget(settings)} failed: ${explain(diagnostics)}`
}

/** The last lines of ssh's stderr, with a hint for the common causes. */
export const explain = (stderr: string): string => {
  const text = stderr.split(/\r?\n/).map((line) => line.trim()).filter((line) => line.length > 0).slice(-3).join("; ")
  if (/Permission denied \(/.test(text)) return `${text} (the key was refused: check terminal.ssh_key and the remote authorized_keys)`
  if (/Host key verification failed/.test(text)) return `${text} (the host key is unknown or changed)`
  return text.length > 0 ? text : "no reason given"
}
