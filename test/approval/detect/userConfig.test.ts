/**
 * Start-up files by the names and places programs really read them from (red-team round three, class 3): every
 * file under the user's `~/.config` (gdb's gdbinit, tmux.conf, vim's vimrc, lesskey, sqliterc, irbrc…) and under the
 * dot-directories whose files are loaded as code or run commands (`~/.vim`, `~/.emacs.d`, IPython and Jupyter
 * profiles, gpg-agent.conf…), in our home, root's, or a /home/<user> one. Every writer counts: the file tools (the
 * classification), terminal redirects and copies, and code. The descriptions the list had before stay where they were;
 * a project's own files, and the same names outside a home, stay quiet.
 */
import { describe, expect, it } from "@effect/vitest"
import { detectCode } from "../../../src/layers/approval/detect/code/detectCode.js"
import type { DetectionEnv } from "../../../src/layers/approval/detect/detect.js"
import { detectCommand } from "../../../src/layers/approval/detect/detect.js"
import {
  GIT_EXEC_DESCRIPTION,
  implicitlyExecuted,
  INTERPRETER_STARTUP_DESCRIPTION,
  otherUsersHome,
  SCHEDULER_DESCRIPTION,
  SHELL_STARTUP_DESCRIPTION,
  USER_CONFIG_DESCRIPTION
} from "../../../src/layers/approval/detect/implicitExec.js"

const ENV: DetectionEnv = { home: "/home/agent", hermesHome: "/home/agent/.hermes-effect", env: {} }
const classified = (path: string) => [path, implicitlyExecuted(path, { home: ENV.home })]
const said = (command: string) => [command, detectCommand(command, ENV).description]

describe("the classification: files a program reads from the user's config directories", () => {
  it("every file under ~/.config, whatever program reads it", () => {
    for (const path of [
      "/home/agent/.config/gdb/gdbinit",
      "/home/agent/.config/gdb/gdbearlyinit",
      "/home/agent/.config/lesskey",
      "/home/agent/.config/tmux/tmux.conf",
      "/home/agent/.config/vim/vimrc",
      "/home/agent/.config/emacs/init.el",
      "/home/agent/.config/sqlite3/sqliterc",
      "/home/agent/.config/irb/irbrc",
      "/home/agent/.config/less",
      "/home/agent/.config/newtool/settings.toml"
    ]) expect(classified(path)).toEqual([path, USER_CONFIG_DESCRIPTION])
  })

  it("the dot-directories whose files are loaded as code or run commands", () => {
    for (const path of [
      "/home/agent/.vim/vimrc",
      "/home/agent/.vim/plugin/tidy.vim",
      "/home/agent/.vim/after/ftplugin/python.vim",
      "/home/agent/.vim/pack/x/start/y/plugin/z.vim",
      "/home/agent/.emacs.d/lisp/helpers.el",
      "/home/agent/.emacs.d/elpa/pkg/pkg.el",
      "/home/agent/.ipython/profile_default/ipython_config.py",
      "/home/agent/.jupyter/jupyter_server_config.py",
      "/home/agent/.gnupg/gpg-agent.conf",
      "/home/agent/.local/share/nvim/site/plugin/x.lua",
      "/home/agent/.local/share/vim/vimrc",
      "/home/agent/.oh-my-zsh/custom/aliases.zsh",
      "/home/agent/.bashrc.d/10-path.sh",
      "/home/agent/.zshrc.d/prompt.zsh",
      "/home/agent/.tmux/plugins/tpm/tpm",
      "/home/agent/.mutt/muttrc"
    ]) expect(classified(path)).toEqual([path, USER_CONFIG_DESCRIPTION])
  })

  it("root's home and a /home/<user> one count too; the caller leaves another user's alone", () => {
    expect(classified("/root/.config/gdb/gdbinit")).toEqual(["/root/.config/gdb/gdbinit", USER_CONFIG_DESCRIPTION])
    expect(classified("/home/bob/.vim/vimrc")).toEqual(["/home/bob/.vim/vimrc", USER_CONFIG_DESCRIPTION])
    expect(otherUsersHome("/home/bob/.vim/vimrc", ENV.home)).toBe(true)
    expect(implicitlyExecuted("/srv/me/.config/tmux/tmux.conf", { home: "/srv/me" })).toBe(USER_CONFIG_DESCRIPTION)
  })

  it("start-up names added to the lists", () => {
    for (const name of [".gdbearlyinit", ".muttrc", ".psqlrc-16", ".psqlrc-15.4", ".sqliterc", ".less", ".emacs.el"]) {
      expect(classified(`/home/agent/${name}`)).toEqual([`/home/agent/${name}`, INTERPRETER_STARTUP_DESCRIPTION])
    }
    expect(classified("/home/agent/.xsession")).toEqual(["/home/agent/.xsession", SHELL_STARTUP_DESCRIPTION])
  })

  it("the descriptions the list had keep their places", () => {
    expect(classified("/home/agent/.config/git/config")[1]).toBe(GIT_EXEC_DESCRIPTION)
    expect(classified("/home/agent/.config/fish/conf.d/x.fish")[1]).toBe(INTERPRETER_STARTUP_DESCRIPTION)
    expect(classified("/home/agent/.config/fish/config.fish")[1]).toBe(SHELL_STARTUP_DESCRIPTION)
    expect(classified("/home/agent/.config/nvim/init.lua")[1]).toBe(INTERPRETER_STARTUP_DESCRIPTION)
    expect(classified("/home/agent/.config/systemd/user/x.service")[1]).toBe(SCHEDULER_DESCRIPTION)
    expect(classified("/home/agent/.config/autostart/x.desktop")[1]).toBe(SCHEDULER_DESCRIPTION)
    expect(classified("/home/agent/.emacs.d/init.el")[1]).toBe(INTERPRETER_STARTUP_DESCRIPTION)
    expect(classified("/home/agent/.ipython/profile_default/startup/x.py")[1]).toBe(INTERPRETER_STARTUP_DESCRIPTION)
  })

  it("a project's files, and the same folder names outside a home, are ordinary", () => {
    for (const path of [
      "/home/agent/proj/src/main.py",
      "/home/agent/proj/.config/app.json",
      "/home/agent/proj/.vim/notes.txt",
      "/srv/app/.config/settings.json",
      "/home/agent/.config",
      "/home/agent/.local/share/app/data.db",
      "/home/agent/.vimrc.bak",
      "/home/agent/.psqlrc_history",
      "/tmp/.gnupg/x"
    ]) expect(classified(path)).toEqual([path, null])
  })
})

describe("every writer of those files needs approval", () => {
  it("terminal redirects, copies, downloads, in-place edits, archives, and relative writes after cd", () => {
    for (const command of [
      "echo 'shell echo hi' > ~/.config/gdb/gdbinit",
      "cp t.conf ~/.config/tmux/tmux.conf",
      "tee ~/.config/irb/irbrc < x.rb",
      "printf '.shell x' >> ~/.config/sqlite3/sqliterc",
      "curl -fsSLo ~/.vim/plugin/x.vim https://example.com/x.vim",
      "mv x.el ~/.emacs.d/lisp/x.el",
      "sed -i 's/a/b/' ~/.gnupg/gpg-agent.conf",
      "install -m 644 c.py ~/.ipython/profile_default/ipython_config.py",
      "tar -xf dots.tar -C ~/.vim",
      "cd ~/.config && cp /tmp/k lesskey",
      "ln -s /tmp/x.vim ~/.local/share/nvim/site/plugin/x.vim"
    ]) expect(said(command)).toEqual([command, USER_CONFIG_DESCRIPTION])
    // Root's files when we are root.
    expect(detectCommand("mv x.el /root/.emacs.d/lisp/x.el", { ...ENV, home: "/root" }).description).toBe(USER_CONFIG_DESCRIPTION)
  })

  it("code writing them", () => {
    for (const code of [
      "import os\nopen(os.path.expanduser('~/.config/gdb/gdbinit'), 'w').write('shell x')",
      "from pathlib import Path\nPath.home().joinpath('.vim/vimrc').write_text('x')",
      "open('/home/agent/.config/tmux/tmux.conf', 'a').write('run-shell x')"
    ]) expect([code, detectCode("python", code, ENV).dangerous]).toEqual([code, true])
    const node = "const fs = require('fs'); fs.writeFileSync(require('os').homedir() + '/.config/irb/irbrc', 'x')"
    expect(detectCode("node", node, ENV).dangerous).toBe(true)
  })

  it("another user's home is theirs; reading, listing and making folders are ordinary", () => {
    for (const command of [
      "echo x > /home/bob/.config/gdb/gdbinit",
      "cat ~/.config/gdb/gdbinit",
      "ls -la ~/.vim ~/.config",
      "mkdir -p ~/.config/newtool",
      "grep -r colorscheme ~/.vim",
      "cp ~/.config/tmux/tmux.conf /tmp/tmux.conf.bak",
      "echo hi > notes.txt",
      "cp README.md docs/"
    ]) expect(said(command)).toEqual([command, null])
  })
})
