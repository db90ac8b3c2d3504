/**
 * The scripts a transport backend (ssh, `container exec`) runs on its target.
 *
 * Commands run as `bash -c <wrapper> bash <command>`, like the local backend:
 * a fresh shell per command that sources the task's latest export snapshot,
 * changes to the tracked directory and `eval`s the command. What differs is
 * how the results come back, because every extra round trip costs a
 * millisecond on loopback and far more over a network:
 *
 * - The exit code and the final directory are written, behind a per-environment
 *   token, to the transport's stderr (the command's own stderr is merged into
 *   stdout), so a command costs exactly one round trip. Under a PTY there is only
 *   one stream: the directory goes to a file that is fetched afterwards.
 * - The shell's pid (its process group: sshd and runc start each session as a
 *   session leader) goes to `<runId>.pid`, so the backend can stop the command's
 *   whole tree on the target: killing the local ssh or exec client does not.
 * - When the shell exits, whatever it left in its group is sent SIGTERM (as the
 *   local backend does), so a stray child cannot hold the session open.
 *
 * Helper scripts (setup, kill, files) are POSIX sh: only the command wrapper needs bash.
 */
import { shellQuote } from "./shellScript.js"

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

/**
 * The side channel's descriptor: fixed (bash 3.2, macOS's, cannot allocate one)
 * and high, so commands that redirect low descriptors (`exec 3<>…`) leave it alone.
 */
const SIDE_FD = 19

export interface RemoteRunSpec {
  readonly stateDir: string
  readonly runId: string
  /**
   * A file of `export` lines the runtime has just written (under a PTY), sourced first and removed. Never a
   * snapshot a command wrote: every file on the target is writable by what runs there, so exports reach a command
   * as lines the runtime wrote itself from the variables approval read.
   */
  readonly snapshot?: string | undefined
  /**
   * Exports on stdin, ahead of anything else: `stdin` (the command reads no input: `export` lines up to EOF) or
   * `lines` (the command's input follows: a count line, then that many one-line `export`s).
   */
  readonly exports?: "stdin" | "lines" | undefined
  /** State files no command needs any more, removed by this one. */
  readonly garbage: ReadonlyArray<string>
  readonly cwd: string
  /** Where to go when the tracked `cwd` no longer exists. */
  readonly fallbackCwd?: string | undefined
  /** Variables for this command only (left out of the next snapshot). */
  readonly env?: Readonly<Record<string, string>> | undefined
  /** Write the exports and the directory back for the next command. */
  readonly persist: boolean
  /** Side-channel token (pipes); undefined under a PTY, where the directory goes to `<runId>.cwd`. */
  readonly token?: string | undefined
}

export const pidFile = (stateDir: string, runId: string) => `${stateDir}/${runId}.pid`
export const envFile = (stateDir: string, runId: string) => `${stateDir}/${runId}.env`
export const cwdFile = (stateDir: string, runId: string) => `${stateDir}/${runId}.cwd`

/**
 * The name of the first snapshot: the variables forwarded from the host, which the runtime holds and hands to a
 * shell itself like any other snapshot's (never on a command line). No file is written under it.
 */
export const INITIAL_SNAPSHOT = "s0.env"

/** `builtin export NAME='value'` lines: what a shell runs to take on `variables` (no function can stand in for it). */
export const exportScript = (variables: Readonly<Record<string, string>>): string =>
  Object.entries(variables)
    .filter(([name]) => NAME.test(name))
    .map(([name, value]) => `builtin export ${name}=${shellQuote(value)}\n`)
    .join("")

/** bash's `$'…'` quoting: every value on one line (newlines and other control bytes escaped). */
const ansiQuote = (value: string): string =>
  `$'${value.replace(/[\\'\x00-\x1f\x7f]/g, (c) => (c === "\\" || c === "'" ? `\\${c}` : `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`))}'`

/** The `lines` form of `exportScript`: a count line, then one line per variable. */
export const exportRecords = (variables: Readonly<Record<string, string>>): string => {
  const lines = Object.entries(variables)
    .filter(([name]) => NAME.test(name))
    .map(([name, value]) => `builtin export ${name}=${ansiQuote(value)}\n`)
  return `${lines.length}\n${lines.join("")}`
}

/** The wrapper's first two lines: what KILL_SCRIPT finds in the command line of the shell it is about to stop. */
export const wrapperSignature = (stateDir: string, runId: string): string =>
  `__hermes_state=${shellQuote(stateDir)}\nbuiltin echo $$ > "$__hermes_state/${runId}.pid"`

/** An argument the persistent shell is started with (and drops at once): what KILL_SCRIPT finds in its command line. */
export const shellSignature = (stateDir: string): string => `__hermes_shell=${stateDir}`

export const remoteWrapper = (spec: RemoteRunSpec): string => {
  const extra = Object.entries(spec.env ?? {}).filter(([name]) => NAME.test(name))
  const unexport = extra.length === 0 ? "" : `builtin export -n ${extra.map(([name]) => name).join(" ")} 2>/dev/null; `
  const token = spec.token === undefined ? undefined : shellQuote(spec.token)
  // `builtin` throughout: a function the command defines (`export() { … }`) must not write the report.
  const trap = [
    "__hermes_ec=$?",
    // Over pipes the exports travel on the side channel (the runtime keeps them: no file to read back); under a PTY, a file.
    ...(spec.persist && token === undefined ? [`${unexport}builtin export -p > "$__hermes_state/${spec.runId}.env" 2>/dev/null`] : []),
    ...(spec.persist && token !== undefined
      ? [`${unexport}{ builtin printf '\\n%sX\\n' ${token}; builtin export -p; builtin printf '\\n%sY\\n' ${token}; } >&${SIDE_FD} 2>/dev/null`]
      : []),
    ...(spec.persist && token === undefined ? [`builtin pwd -P > "$__hermes_state/${spec.runId}.cwd" 2>/dev/null`] : []),
    ...(token === undefined ? [] : [`builtin printf '\\n%sE%s\\n' ${token} "$__hermes_ec" >&${SIDE_FD} 2>/dev/null`]),
    ...(spec.persist && token !== undefined
      ? [`{ builtin printf '%sC' ${token}; builtin pwd -P; } >&${SIDE_FD} 2>/dev/null`]
      : []),
    // Leftovers in our group die with us; the shell itself ignores the signal it sends.
    "builtin trap '' TERM; builtin kill -TERM -$$ 2>/dev/null",
    "builtin exit $__hermes_ec"
  ].join("; ")
  const cd = spec.fallbackCwd === undefined
    ? `builtin cd -- ${shellQuote(spec.cwd)} || exit 126`
    : `builtin cd -- ${shellQuote(spec.cwd)} 2>/dev/null || builtin cd -- ${shellQuote(spec.fallbackCwd)} || exit 126`
  return [
    wrapperSignature(spec.stateDir, spec.runId),
    // The side channel keeps the transport's stderr; everything else sees one merged stream.
    token === undefined ? "exec 2>&1" : `exec ${SIDE_FD}>&2 2>&1`,
    ...(spec.snapshot === undefined ? [] : [`. ${shellQuote(spec.snapshot)} >/dev/null 2>&1; rm -f -- ${shellQuote(spec.snapshot)}`]),
    ...(spec.exports === "stdin" ? [". /dev/stdin >/dev/null 2>&1"] : []),
    ...(spec.exports === "lines"
      ? [
        "IFS= builtin read -r __hermes_n",
        `while [ "\${__hermes_n:-0}" -gt 0 ] 2>/dev/null && IFS= builtin read -r __hermes_l; do builtin eval "$__hermes_l"; __hermes_n=$((__hermes_n - 1)); done`,
        "builtin unset -v __hermes_n __hermes_l"
      ]
      : []),
    ...(spec.garbage.length === 0 ? [] : [`rm -f -- ${spec.garbage.map(shellQuote).join(" ")} 2>/dev/null`]),
    ...extra.map(([name, value]) => `export ${name}=${shellQuote(value)}`),
    `trap ${shellQuote(trap)} EXIT`,
    cd,
    `__hermes_cmd=$1; shift`,
    `eval "$__hermes_cmd"`
  ].join("\n")
}

/** argv that runs `command` under the wrapper. */
export const wrapperArgv = (spec: RemoteRunSpec, command: string): ReadonlyArray<string> =>
  ["bash", "-c", remoteWrapper(spec), "bash", command]

/** argv that runs a helper script with positional arguments. */
export const shArgv = (script: string, args: ReadonlyArray<string>): ReadonlyArray<string> => ["sh", "-c", script, "sh", ...args]

/** Exit codes the helper scripts use for conditions the caller maps to typed errors. */
export const EXIT = {
  notFound: 20,
  isDirectory: 21,
  noBash: 22,
  noStartDir: 23,
  setupFailed: 24
} as const

/**
 * Setup: a private state directory (on tmpfs where there is one: every command
 * writes a few small files there, and creating a file on ext4 costs half a
 * millisecond), and the facts the environment
 * needs. Arg: the starting directory (empty: $HOME; `~/x` and relative paths
 * are taken from $HOME). Prints the state directory, $HOME and the starting
 * directory, one per line, after a marker line (a chatty shell startup file
 * may print before it).
 */
export const SETUP_MARK = "__hermes_setup__"

export const SETUP_SCRIPT = `umask 077
command -v bash >/dev/null 2>&1 || { echo "bash is not installed on the target" >&2; exit ${EXIT.noBash}; }
h=\${HOME:-/}
case $1 in
  '') s=$h;;
  '~') s=$h;;
  '~/'*) s="$h/\${1#'~/'}";;
  /*) s=$1;;
  *) s="$h/$1";;
esac
cd -- "$s" 2>/dev/null || { echo "the starting directory $s does not exist on the target" >&2; exit ${EXIT.noStartDir}; }
d=
for b in /dev/shm "\${TMPDIR:-/tmp}"; do
  [ -d "$b" ] && [ -w "$b" ] && d=$(mktemp -d "$b/hermes-env.XXXXXXXX" 2>/dev/null) && break
done
[ -n "$d" ] || exit ${EXIT.setupFailed}
printf '${SETUP_MARK}\\n%s\\n%s\\n%s\\n' "$d" "$h" "$s"`

/**
 * Stop one command's process tree on the target. Args: pid file, grace in
 * 25 ms steps, and text the group leader's command line must contain. Waits
 * briefly for a pid file a command has not written yet, sends SIGTERM (and
 * SIGCONT, so a stopped process can die), waits for the group to go (zombies
 * count as gone: an init that does not reap keeps them), then SIGKILLs what is
 * left.
 *
 * The pid file is writable by what runs on the target, so its number is only
 * believed for a group whose leader is the shell the runtime started (its
 * command line holds `expect`), and never 0 or 1: `kill -1` is every process
 * the user owns. A planted number stops nothing.
 */
export const KILL_SCRIPT = `f=$1; grace=$2; expect=$3; n=0
while [ ! -s "$f" ] && [ $n -lt 40 ]; do sleep 0.025; n=$((n+1)); done
[ -s "$f" ] || exit 0
read -r pg < "$f"
case $pg in ''|*[!0-9]*|0*|1) exit 0;; esac
if [ -r "/proc/$pg/cmdline" ]; then c=$(tr '\\000' ' ' < "/proc/$pg/cmdline" 2>/dev/null); else c=$(ps -o args= -p "$pg" 2>/dev/null); fi
case $c in *"$expect"*) ;; *) exit 0;; esac
kill -TERM -$pg 2>/dev/null || exit 0
kill -CONT -$pg 2>/dev/null
alive() {
  kill -0 -$pg 2>/dev/null || return 1
  [ -d /proc/self ] || return 0
  for s in /proc/[0-9]*/stat; do
    read -r l < "$s" 2>/dev/null || continue
    set -- \${l##*") "}
    [ "$3" = "$pg" ] && [ "$1" != Z ] && [ "$1" != X ] && return 0
  done
  return 1
}
n=0
while alive && [ $n -lt "$grace" ]; do sleep 0.025; n=$((n+1)); done
kill -KILL -$pg 2>/dev/null
exit 0`

/** Read a file (or a byte range of it) to stdout. Args: path, offset, length (both may be empty). */
export const READ_SCRIPT = `[ -e "$1" ] || exit ${EXIT.notFound}
[ -d "$1" ] && exit ${EXIT.isDirectory}
[ -z "$2" ] && [ -z "$3" ] && exec cat -- "$1"
start=$((\${2:-0} + 1))
[ -z "$3" ] && exec tail -c +$start -- "$1"
tail -c +$start -- "$1" | head -c "$3"`

/** Write stdin to a file, creating its directory. Arg: path. */
export const WRITE_SCRIPT = `[ -d "$1" ] && exit ${EXIT.isDirectory}
case $1 in */*) d=\${1%/*};; *) d=.;; esac
[ -n "$d" ] || d=/
mkdir -p -- "$d" && cat > "$1"`

/**
 * Replace a file in one step: stdin goes to a temp file beside the target (a
 * symlink is written through), the old mode is copied, then one rename. Arg: path.
 */
export const WRITE_ATOMIC_SCRIPT = `t=$1
if [ -L "$t" ]; then r=$(readlink -f -- "$t" 2>/dev/null) && [ -n "$r" ] && t=$r; fi
[ -d "$t" ] && exit ${EXIT.isDirectory}
case $t in */*) d=\${t%/*};; *) d=.;; esac
[ -n "$d" ] || d=/
mkdir -p -- "$d" || exit 1
tmp="$d/.\${t##*/}.hermes-$$.tmp"
cat > "$tmp" || { rm -f -- "$tmp"; exit 1; }
if [ -e "$t" ]; then m=$(stat -c %a -- "$t" 2>/dev/null) && chmod "$m" "$tmp"; fi
mv -f -- "$tmp" "$t" || { rm -f -- "$tmp"; exit 1; }`

/** Entries of a directory as NUL-terminated `<type>/<name>` (f, d, l, o). Arg: path. */
export const READ_DIR_SCRIPT = `[ -d "$1" ] || exit ${EXIT.notFound}
cd -- "$1" || exit 1
for f in .* *; do
  case $f in .|..) continue;; esac
  [ -e "$f" ] || [ -L "$f" ] || continue
  if [ -L "$f" ]; then t=l; elif [ -f "$f" ]; then t=f; elif [ -d "$f" ]; then t=d; else t=o; fi
  printf '%s/%s\\000' "$t" "$f"
done`

/**
 * The path with symlinks resolved, missing components kept (\`realpath -m\`; without
 * GNU realpath, the longest existing prefix is resolved and the rest appended). Arg: path.
 */
const REAL_PATH_SCRIPT = `realpath -m -- "$1" 2>/dev/null && exit 0
p=$1; rest=
while [ "$p" != / ] && [ ! -e "$p" ] && [ ! -L "$p" ]; do rest="/\${p##*/}$rest"; p=\${p%/*}; [ -n "$p" ] || p=/; done
if [ -d "$p" ]; then r=$(cd -P -- "$p" 2>/dev/null && pwd -P); else r=$(readlink -f -- "$p" 2>/dev/null); fi
[ -n "$r" ] || r=$p
[ "$r" = / ] && r=
out=$r$rest
printf '%s\\n' "\${out:-/}"`

/**
 * REAL_PATH_SCRIPT for each argument, in one round trip: each result followed by a NUL byte. GNU
 * realpath does them all in one process; otherwise each runs in a subshell of its own (where the
 * script's `exit` ends only that path's resolution).
 */
export const REAL_PATHS_SCRIPT = `realpath -m -z -- "$@" 2>/dev/null && exit 0
for __a in "$@"; do
__r=$(set -- "$__a"
${REAL_PATH_SCRIPT})
printf '%s\\0' "$__r"
done`

/** The stored target of a symlink; exit 1 when the path is not one. Arg: path. */
export const READ_LINK_SCRIPT = `[ -L "$1" ] || exit 1
exec readlink -- "$1"`

/** Rename (creating the destination's directory). Args: from, to. */
export const RENAME_SCRIPT = `[ -e "$1" ] || [ -L "$1" ] || exit ${EXIT.notFound}
[ -d "$2" ] && [ ! -L "$2" ] && exit ${EXIT.isDirectory}
case $2 in */*) d=\${2%/*};; *) d=.;; esac
[ -n "$d" ] || d=/
mkdir -p -- "$d" && mv -f -- "$1" "$2"`

/** Delete a file or symlink, never a directory. Arg: path. */
export const REMOVE_SCRIPT = `[ -e "$1" ] || [ -L "$1" ] || exit ${EXIT.notFound}
[ -d "$1" ] && [ ! -L "$1" ] && exit ${EXIT.isDirectory}
rm -f -- "$1"`

/** Type, size and mtime (seconds, fractional where stat supports it; GNU, busybox, then BSD stat). Arg: path. */
export const STAT_SCRIPT = `[ -e "$1" ] || exit ${EXIT.notFound}
stat -L -c '%F|%s|%.9Y' -- "$1" 2>/dev/null || stat -L -c '%F|%s|%Y' -- "$1" 2>/dev/null || stat -L -f '%HT|%z|%m' -- "$1"`

/** Remove the state directory. Arg: the directory. */
export const CLEANUP_SCRIPT = `rm -rf -- "$1"`

/** Read and remove one state file (the directory a PTY command ended in). Arg: path. */
export const TAKE_FILE_SCRIPT = `cat -- "$1" 2>/dev/null; rm -f -- "$1"`
