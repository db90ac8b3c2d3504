/**
 * Rule descriptions. These strings are approval keys persisted in users'
 * `command_allowlist`, so they must match Hermes byte for byte.
 */

export const PARSER_LIMIT_DESCRIPTION = "command parser limit exceeded"
export const MALFORMED_DESCRIPTION = "command parser limit or malformed executable payload"
export const SHELL_FLAG_DESCRIPTION = "shell command via -c/-lc flag"
export const INTERPRETER_FLAG_DESCRIPTION = "script execution via -e/-c flag"
export const INTERPRETER_HEREDOC_DESCRIPTION = "script execution via heredoc"

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

/** In Hermes' precedence order. */
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
  H.telinit
]
