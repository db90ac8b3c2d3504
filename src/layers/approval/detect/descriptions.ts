/**
 * Rule descriptions. These strings are approval keys persisted in users'
 * `command_allowlist`: Hermes' ones must match Hermes byte for byte, ours
 * (below Hermes' tables) are ours and stay stable too.
 */

export const PARSER_LIMIT_DESCRIPTION = "command parser limit exceeded"
/**
 * A script whose text now is not what will run: too large to read, written by the command itself, or code that
 * writes a module and then loads code (what it loads does not exist yet when it is judged).
 */
export const UNREADABLE_SCRIPT_DESCRIPTION = "runs a local script that cannot be read before it runs"
/** The detector itself failed on the text (a bug): the command is refused rather than let through unjudged. */
export const DETECTOR_FAILURE_DESCRIPTION = "the approval gate failed to read this command"
export const MALFORMED_DESCRIPTION = "command parser limit or malformed executable payload"
export const SHELL_FLAG_DESCRIPTION = "shell command via -c/-lc flag"
export const INTERPRETER_FLAG_DESCRIPTION = "script execution via -e/-c flag"
export const INTERPRETER_HEREDOC_DESCRIPTION = "script execution via heredoc"
export const COMPUTED_NAME_DESCRIPTION = "command name computed at run time"
export const COMPUTED_PIPE_DESCRIPTION = "pipe of computed text into a shell"

export const programOptionDescription = (tool: string, option: string): string =>
  `arbitrary program execution via ${tool} ${option}`

/** Every tool/option pair the read-tool parser can report. */
export const PROGRAM_OPTION_DESCRIPTIONS: ReadonlyArray<string> = [
  ["sort", "--compress-program"],
  ["rg", "--pre"],
  ["rg", "--hostname-bin"],
  ["ag", "--pager"],
  ["man", "--pager"],
  ["man", "--html"],
  ["man", "-P"],
  ["man", "-H"]
].map(([tool, option]) => programOptionDescription(tool ?? "", option ?? ""))

export const H = {
  rootDelete: "recursive delete of root filesystem",
  systemDelete: "recursive delete of system directory",
  homeDelete: "recursive delete of home directory",
  mkfs: "format filesystem (mkfs)",
  ddDevice: "dd to raw block device",
  redirectDevice: "redirect to raw block device",
  forkBomb: "fork bomb",
  killAll: "kill all processes",
  shutdown: "system shutdown/reboot",
  init: "init 0/6 (shutdown/reboot)",
  systemctlPower: "systemctl poweroff/reboot",
  telinit: "telinit 0/6 (shutdown/reboot)"
} as const

/** Our own hardline rules, after Hermes' twelve. */
export const HL = {
  permsRoot: "recursive permission or owner change of the root filesystem",
  sysrq: "kernel SysRq trigger (/proc/sysrq-trigger)",
  diskWrite: "formats, partitions, wipes or overwrites a raw disk (mke2fs, mkswap, wipefs, blkdiscard, sgdisk, parted, fdisk, cryptsetup, cp/tee/shred onto /dev/sd*)"
} as const

/** In Hermes' precedence order, then ours. */
export const HARDLINE_RULE_DESCRIPTIONS: ReadonlyArray<string> = [
  H.rootDelete,
  H.systemDelete,
  H.homeDelete,
  H.mkfs,
  H.ddDevice,
  H.redirectDevice,
  H.forkBomb,
  H.killAll,
  H.shutdown,
  H.init,
  H.systemctlPower,
  H.telinit,
  HL.permsRoot,
  HL.sysrq,
  HL.diskWrite
]

/** Our own rules (beyond Hermes'): allowlist keys like Hermes' ones, so never renamed lightly. */
export const D = {
  unlink: "unlink deletes a file",
  fdExecRm: "fd -x/-X rm",
  shred: "shred destroys file contents",
  removeAfter: "archive or sync that deletes its source files (--remove-files, --remove-source-files, zip -m)",
  infraDelete:
    "destroys infrastructure or a service's data (terraform destroy, kubectl delete, helm uninstall, docker rm -f/prune/volume rm, aws s3 rm --recursive, cloud delete commands, redis FLUSHALL, mongosh dropDatabase, dropdb)",
  networkShell:
    "connects a shell or a program's input and output to the network (/dev/tcp redirects, nc -e, ncat --exec, socat exec:), where commands arrive that the gate never sees",
  syncDelete: "sync or extraction that deletes destination files the source lacks (rsync --delete, rclone sync, tar --recursive-unlink)",
  toolDelete: "deletes files through a program's own command (cmake -E rm/remove/remove_directory, gio remove/trash, trash-put, rclone delete/purge, ninja -t clean, rimraf, del-cli, srm, wipe)",
  replaceDevice: "replaces a device node (mv, ln -f or install onto /dev/…): the device is gone until reboot and the file with it",
  gitDiscard: "git command that discards uncommitted work or unreachable history (checkout/switch --force, checkout or restore of a directory, a glob or the whole tree, stash drop/clear, reflog expire/delete, worktree remove --force, update-ref -d, filter-branch/filter-repo)",
  truncate: "truncate shrinks or empties a file",
  moveDir: "move a directory out of the way (/, ~, .., .git, a system directory)",
  permsTree: "permission or owner change of /, or recursive of a system directory or the home",
  kernelWrite: "write to kernel settings (/proc/sys, /sys, sysctl)",
  crontab: "remove or replace the crontab",
  gitExec: "set a git config key that makes git run a program",
  remoteShell: "pipe remote content to a shell or interpreter",
  remoteProcSubst: "run downloaded text through process substitution",
  operator: "changes the runtime's approvals, config, skills or sessions (an operator's act)",
  toolRunMarker:
    "removes the marker that tells the runtime a command came from a tool (HERMES_EFFECT_TOOL_RUN), or starts a program with an emptied environment",
  runtimeHome: "touches the runtime's home (config, approvals, skills)",
  attachProcess: "attaches a debugger or tracer to a running process (gdb -p, strace -p, lldb -p, gcore): it can run code inside it and read its memory",
  signalRuntime: "signals the runtime's own process (its pid, $PPID, or a pkill/killall pattern its name or command line matches)",
  otherProcessFiles: "writes into another process through /proc (its open files, /proc/<pid>/fd, or its memory, /proc/<pid>/mem)",
  otherProcessSecrets: "reads what another process keeps to itself (/proc/<pid>/environ, its memory or its open files; ps e): the runtime's API keys live there",
  rebindName: "changes what a command name runs (hash -p, enable -f, export -f, BASH_CMDS, BASH_ALIASES, a variable named at run time)",
  shellFunction: "runs a shell function an earlier command left in the shell",
  heldArguments: "runs a deleting program with arguments from a variable an earlier command left in the shell",
  computedWriteTarget:
    "writes to a path the shell only completes when it runs (a file's text, a program's output, a variable an earlier command left): where it lands is not known",
  untrackedArguments: "runs a deleting program with arguments from an array or the positional parameters (only known when it runs)",
  loaderVariable: "sets a variable that makes programs load or run code (BASH_ENV, ENV, LD_PRELOAD, NODE_OPTIONS --require, PERL5OPT -M, RUBYOPT -r, a prompt such as PS4 holding $(…))",
  importedFunction: "imports a shell function through the environment (BASH_FUNC_name%%=() {…}): a child bash runs its body for that command name",
  arithmeticCode: "evaluates as arithmetic a value holding a command substitution (a[$(…)] in a value runs it)",
  inputCommands: "runs text it reads as commands (sed's e command or s///e flag, awk's system() or pipes on computed text, an editor's scripts or vimscript)",
  consoleCommands:
    "runs commands through a console's shell escape or code (sqlite3 .shell/.system/.read, gdb shell/python/pipe, psql \\! or \\o |cmd, mysql system), or feeds a console text only known when it runs",
  stdinProgram:
    "reads its program, makefile or commands from standard input under a file's name (awk -f -, make -f /dev/stdin, vim -S /dev/stdin, sqlite3 -init /dev/stdin)",
  promptExpansion: "expands a value as a prompt (${x@P}), which runs the command substitutions it holds",
  opaqueCode:
    "runs code in a language the gate does not read (Tcl, Lua, R, Julia, gnuplot, a #! interpreter other than a shell, Python, Node, Perl, Ruby or PHP, go run/test/generate, cargo run/test/bench, java of a source file), every program in a directory (run-parts), or a recorded input log typed into a shell (scriptlive)",
  commandHooks:
    "installs code the shell runs around its later commands (a DEBUG, RETURN or ERR trap, extdebug, function or error tracing)",
  computedCode:
    "runs as commands text that holds a value only known when it runs (eval, a trap action, watch, mapfile -C, compgen -W, an ssh remote command: a variable or a command's output there may hold $(…) or ;)",
  substitutedCode: "runs as code text that xargs or find fills in when it runs (an input line or a file name holding $(…) runs it)",
  computedArithmetic:
    "evaluates as arithmetic a value only known when it runs (a file's text, a command's output: a value such as a[$(…)] runs commands)",
  heldArithmetic: "evaluates as arithmetic a variable an earlier command left in the shell (a value such as a[$(…)] runs commands)",
  programVariable:
    "sets a variable naming a program other programs run, or where they read code or configuration (PAGER, EDITOR, LESSOPEN, SHELL, npm_config_script_shell, HOME, XDG_CONFIG_HOME, GIT_DIR, LD_LIBRARY_PATH, VIMINIT, LESSKEYIN, MAKEFLAGS…)",
  programOption:
    "an option that makes the program run another program or read a planted configuration (tar --to-command/-I, rsync -e, scp -S, make SHELL=, npm --script-shell, git --git-dir, zip -TT, gcc -wrapper/-fplugin/-B, su -s, sdiff --diff-program, less --lesskey-src)"
} as const

/** `rewrite`: the code writes a module (or a file by a computed name) and loads code: what it loads is not there yet. */
export type CodeKind = "delete" | "run" | "load" | "unpickle" | "write" | "rewrite" | "process" | "home" | "console"

const CODE_LANGUAGES = ["python", "node", "perl", "ruby", "php"] as const

/** Descriptions of interpreter-code findings (text typed into a REPL, scripts a command runs). */
export const codeDescription = (language: string, kind: CodeKind): string => {
  switch (kind) {
    case "delete":
      return `${language} code deletes or moves files`
    case "run":
      return `${language} code runs a program`
    case "load":
      return "code loads code by a computed name"
    case "unpickle":
      return `${language} code loads data that can run code (pickle, unsafe YAML, Marshal)`
    case "write":
      return `${language} code writes a file other programs run, or a system file`
    case "rewrite":
      return UNREADABLE_SCRIPT_DESCRIPTION
    case "process":
      return `${language} code changes permissions or signals processes`
    case "home":
      return D.runtimeHome
    case "console":
      return `${language} code starts an interactive console or debugger (what is typed into it later runs as its commands: IPython's !cmd, pdb's)`
  }
}

export const CODE_DESCRIPTIONS: ReadonlyArray<string> = [
  ...new Set(
    CODE_LANGUAGES.flatMap((l) =>
      (["delete", "run", "load", "unpickle", "write", "rewrite", "process", "console"] as const).map((k) => codeDescription(l, k))
    )
  )
]
