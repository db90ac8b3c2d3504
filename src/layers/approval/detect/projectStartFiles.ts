/**
 * Project files that run commands when the operator opens or enters the folder (red team 8), beside direnv's
 * `.envrc` (which the detector knows): VS Code tasks with `"runOn": "folderOpen"` and settings that name programs
 * (`terminal.integrated.*`, `python.defaultInterpreterPath`, `git.path`), a dev container's `postCreateCommand`,
 * mise's `[hooks]` and `[env] _.source`, RVM's `.rvmrc`, zsh-autoenv's files and Neovim's or vim's local rc files.
 * Writing one needs approval from every writer (file tools, terminal, code): implicitExec.ts asks this.
 * Pure: the caller passes an absolute path, symlinks resolved.
 */
import { posix } from "node:path"

export const PROJECT_START_DESCRIPTION = "write to a project file that runs commands when the folder is opened or entered (IDE tasks, dev container, mise, rvm, autoenv)"

const NAMES = new Set([
  ".devcontainer.json", "mise.toml", ".mise.toml", "mise.local.toml", ".mise.local.toml", ".rtx.toml", ".rvmrc",
  ".autoenv.zsh", ".autoenv_leave.zsh", ".nvim.lua", ".nvimrc", ".lvimrc"
])
/** Files read inside a project folder of their own. */
const IN_FOLDER = /\/(?:\.vscode\/(?:tasks|settings|launch)\.json|\.devcontainer\/(?:[^/]+\/)?devcontainer\.json|\.mise\/config\.toml|\.config\/mise(?:\.local)?\.toml|\.config\/mise\/config(?:\.local)?\.toml)$/

/** Folders whose files of those names run (a file moved or copied into one may be one of them). */
export const PROJECT_START_FOLDER = /\/(?:\.vscode|\.devcontainer(?:\/[^/]+)?|\.mise|\.config\/mise)$/

export const projectStartFile = (absPath: string): string | null => {
  const path = posix.resolve("/", absPath)
  const name = posix.basename(path)
  if (NAMES.has(name) || name.endsWith(".code-workspace") || IN_FOLDER.test(path)) return PROJECT_START_DESCRIPTION
  return null
}
