/**
 * Folders whose files run (a symbolic link to one lets a later write plant code there): each kind the predicate
 * accepts, with the description a link to it is judged by, and ordinary folders it leaves alone.
 */
import { describe, expect, it } from "@effect/vitest"
import {
  BYTECODE_DESCRIPTION,
  GIT_EXEC_DESCRIPTION,
  holdsExecutedFiles,
  INTERPRETER_STARTUP_DESCRIPTION,
  linkTargetRuns,
  PATH_DIR_DESCRIPTION,
  RUNTIME_HOME_DESCRIPTION,
  SCHEDULER_DESCRIPTION,
  SHELL_STARTUP_DESCRIPTION,
  SSH_CONFIG_DESCRIPTION,
  SYSTEM_EXEC_DESCRIPTION,
  USER_CONFIG_DESCRIPTION
} from "../../../src/layers/approval/detect/implicitExec.js"

const env = { home: "/home/agent", hermesHome: "/home/agent/.hermes-effect" }

describe("holdsExecutedFiles: a folder holding files that run", () => {
  it("accepts each kind of folder whose files run", () => {
    const kinds: ReadonlyArray<readonly [string, string]> = [
      ["/home/agent/.hermes-effect", RUNTIME_HOME_DESCRIPTION],
      ["/home/agent/.hermes-effect/skills", RUNTIME_HOME_DESCRIPTION],
      ["/w/repo/.git", GIT_EXEC_DESCRIPTION],
      ["/w/repo/.git/hooks", GIT_EXEC_DESCRIPTION],
      ["/srv/mirror.git", GIT_EXEC_DESCRIPTION],
      ["/w/repo/.git/modules/lib", GIT_EXEC_DESCRIPTION],
      ["/home/agent/.config/git", GIT_EXEC_DESCRIPTION],
      ["/home/agent/.ssh", SSH_CONFIG_DESCRIPTION],
      ["/etc/ssh", SSH_CONFIG_DESCRIPTION],
      ["/etc/ssh/sshd_config.d", SSH_CONFIG_DESCRIPTION],
      ["/etc/cron.d", SCHEDULER_DESCRIPTION],
      ["/etc/systemd/system", SCHEDULER_DESCRIPTION],
      ["/var/spool/cron/crontabs", SCHEDULER_DESCRIPTION],
      ["/home/agent/.config/autostart", SCHEDULER_DESCRIPTION],
      ["/home/agent/.local/share/systemd/user", SCHEDULER_DESCRIPTION],
      ["/Users/a/Library/LaunchAgents", SCHEDULER_DESCRIPTION],
      ["/home/agent/.ipython/profile_default/startup", INTERPRETER_STARTUP_DESCRIPTION],
      ["/home/agent/.config/fish/conf.d", INTERPRETER_STARTUP_DESCRIPTION],
      ["/home/agent/.config/nvim/plugin", INTERPRETER_STARTUP_DESCRIPTION],
      ["/home/agent/.config", USER_CONFIG_DESCRIPTION],
      ["/home/agent/.config/tmux", USER_CONFIG_DESCRIPTION],
      ["/home/bob/.vim", USER_CONFIG_DESCRIPTION],
      ["/root/.emacs.d", USER_CONFIG_DESCRIPTION],
      ["/w/pkg/__pycache__", BYTECODE_DESCRIPTION],
      ["/etc/profile.d", SYSTEM_EXEC_DESCRIPTION],
      ["/etc/zsh", SYSTEM_EXEC_DESCRIPTION],
      ["/usr/lib/systemd/system", SYSTEM_EXEC_DESCRIPTION],
      ["/usr/local/bin", PATH_DIR_DESCRIPTION],
      ["/usr/bin", PATH_DIR_DESCRIPTION],
      ["/opt/tool/bin", PATH_DIR_DESCRIPTION],
      ["/home/agent/.local/bin", PATH_DIR_DESCRIPTION],
      ["/home/agent/.pyenv/shims", PATH_DIR_DESCRIPTION],
      ["/home/agent/.nvm/versions/node/v20/bin", PATH_DIR_DESCRIPTION],
      ["/home/agent", SHELL_STARTUP_DESCRIPTION],
      ["/home/bob", SHELL_STARTUP_DESCRIPTION],
      ["/root", SHELL_STARTUP_DESCRIPTION]
    ]
    for (const [dir, description] of kinds) expect([dir, holdsExecutedFiles(dir, env)]).toEqual([dir, description])
    // As written: a trailing slash or `..` names the same folder.
    expect(holdsExecutedFiles("/w/repo/.git/", env)).toBe(GIT_EXEC_DESCRIPTION)
    expect(holdsExecutedFiles("/home/agent/x/../.ssh", env)).toBe(SSH_CONFIG_DESCRIPTION)
  })

  it("rejects folders whose files are only data", () => {
    for (const dir of ["/", "/w", "/w/project/src", "/tmp", "/home", "/etc", "/usr", "/usr/bin/tools", "/opt", "/home/agent/projects", "/home/agent/.cache", "/w/.github", "/w/gitconfig"]) {
      expect([dir, holdsExecutedFiles(dir, env)]).toEqual([dir, null])
    }
  })

  it("is what a link to a folder is judged by; a link to a file is judged by the file", () => {
    expect(linkTargetRuns("/w/repo/.git", env)).toBe(GIT_EXEC_DESCRIPTION)
    expect(linkTargetRuns("/home/agent", env)).toBe(SHELL_STARTUP_DESCRIPTION)
    expect(linkTargetRuns("/home/agent/.bashrc", env)).toBe(SHELL_STARTUP_DESCRIPTION)
    // A program in a PATH folder plants nothing; the folder itself does.
    expect(linkTargetRuns("/usr/bin/python3", env)).toBe(null)
    expect(linkTargetRuns("/usr/bin", env)).toBe(PATH_DIR_DESCRIPTION)
    expect(linkTargetRuns("/w/project/src", env)).toBe(null)
  })
})
