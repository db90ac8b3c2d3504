/**
 * Files that other programs run, or read commands from, without being asked
 * to: writing one plants code that an innocent later command executes
 * (`git status` runs core.fsmonitor, a new shell sources ~/.bashrc, cron runs
 * a crontab). A write to one of them needs approval, whichever tool writes it.
 * Pure: the caller passes an absolute path (symlinks already resolved).
 */
import { posix } from "node:path"
import { PROJECT_START_DESCRIPTION, PROJECT_START_FOLDER, projectStartFile } from "./projectStartFiles.js"

export interface ImplicitExecEnv {
  /** The user's home directory. */
  readonly home?: string | undefined
  /** The runtime's own home (config, allowlist, skills): every file under it counts. */
  readonly hermesHome?: string | undefined
}

export const RUNTIME_HOME_DESCRIPTION = "write into the runtime's home (config, approvals, skills)"
export const SHELL_STARTUP_DESCRIPTION = "write to a shell start-up file"
export const GIT_EXEC_DESCRIPTION = "write to git config or hooks (commands git runs)"
export const ENVRC_DESCRIPTION = "write to a direnv .envrc (run on cd)"
export const SSH_CONFIG_DESCRIPTION = "write to ssh configuration or authorized keys"
export const SCHEDULER_DESCRIPTION = "write to a crontab, systemd unit or autostart entry"
export const INTERPRETER_STARTUP_DESCRIPTION = "write to an interpreter start-up hook (sitecustomize, .pth, rc file)"
export const USER_CONFIG_DESCRIPTION =
  "write to a program's configuration in the user's config directories (read when it starts)"
export const SYSTEM_EXEC_DESCRIPTION = "write to a system file other programs load or run"
export const PATH_DIR_DESCRIPTION = "write to a program directory on PATH (shadows commands)"
export const BYTECODE_DESCRIPTION =
  "write to compiled code an interpreter loads instead of the source (__pycache__, .pyc, .pyo)"
export const LIBRARY_DESCRIPTION = "write into an interpreter's library folder (site-packages: what an import of that name loads)"

export const IMPLICIT_EXEC_DESCRIPTIONS: ReadonlyArray<string> = [
  RUNTIME_HOME_DESCRIPTION,
  SHELL_STARTUP_DESCRIPTION,
  GIT_EXEC_DESCRIPTION,
  ENVRC_DESCRIPTION,
  PROJECT_START_DESCRIPTION,
  SSH_CONFIG_DESCRIPTION,
  SCHEDULER_DESCRIPTION,
  INTERPRETER_STARTUP_DESCRIPTION,
  USER_CONFIG_DESCRIPTION,
  SYSTEM_EXEC_DESCRIPTION,
  PATH_DIR_DESCRIPTION,
  BYTECODE_DESCRIPTION,
  LIBRARY_DESCRIPTION
]

const SHELL_STARTUP = new Set([
  ".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".bash_aliases", ".profile", ".zshrc", ".zshenv",
  ".zprofile", ".zlogin", ".zlogout", ".kshrc", ".mkshrc", ".cshrc", ".tcshrc", ".login", ".logout", ".inputrc",
  "config.fish", ".xprofile", ".xsession", ".xsessionrc", ".xinitrc", ".pam_environment",
  // Line-editor key bindings: a macro makes harmless keys type a command (libedit's, as readline's .inputrc).
  ".editrc",
  // bash-completion sources it in every interactive shell.
  ".bash_completion"
])
const INTERPRETER_STARTUP = new Set([
  "sitecustomize.py", "usercustomize.py", ".pythonrc", ".pythonrc.py", ".irbrc", ".pryrc", ".perldb", ".npmrc",
  ".yarnrc", ".yarnrc.yml", ".vimrc", ".exrc", ".gvimrc", ".nanorc", ".wgetrc", ".curlrc", ".lesskey", ".gdbinit",
  ".gdbearlyinit", ".tmux.conf", ".emacs", ".emacs.el", ".sqliterc", ".psqlrc", ".mongoshrc.js", ".pdbrc", ".Rprofile",
  ".octaverc", ".guile", ".gnuplot", ".lynxrc", ".screenrc", ".hgrc", ".mailrc", ".muttrc", ".netrc", ".juliarc.jl",
  "startup.jl",
  // A venv's: `home` names the interpreter whose library (os.py, site.py) every run of the venv's python loads.
  "pyvenv.cfg",
  // uv's and conda's configuration, like pip.conf: an index or channel there can name a planted package to build.
  "uv.toml", ".condarc", "condarc",
  // bun's, read by every `bun run`/`bun test` in the folder (and the home's): `preload` names modules it runs first.
  "bunfig.toml", ".bunfig.toml",
  // Ruby evaluates a gem's specification (Ruby code) whenever rubygems lists it; .gemrc names sources and hooks.
  ".gemrc",
  // less's compiled key file: its #env section sets LESSOPEN as .lesskey's does.
  ".less",
  // pip reads the pip.conf of the environment it runs in (`<venv>/pip.conf`), /etc's and the XDG folders': a
  // find-links or index-url there names a planted sdist whose setup.py pip runs for a bare `pip install name`.
  "pip.conf"
])
/** Start-up names with a variable part: psql reads `.psqlrc-<version>` before `.psqlrc`. */
const INTERPRETER_STARTUP_PATTERN = /^\.psqlrc-[^/]+$/
const INTERPRETER_DIRS = [
  /\/\.ipython\/profile_[^/]+\/startup\//,
  /\/\.config\/nvim\/(?:init\.(?:vim|lua)|plugin\/)/,
  /\/\.emacs\.d\/(?:init|early-init)\.el$/,
  /\/\.config\/fish\/(?:conf\.d|functions)\//
]
const SYSTEM_FILES = [
  /^\/etc\/(?:profile|bash\.bashrc|bashrc|environment|zsh\/|zshrc|zprofile|zshenv|ld\.so\.preload|ld\.so\.conf|rc\.local|sudoers|init\.d\/|init\/|rc\d?\.d\/|profile\.d\/)/,
  /^\/etc\/(?:passwd|shadow|group|gshadow|pam\.d\/|security\/|apt\/apt\.conf\.d\/|update-motd\.d\/|udev\/rules\.d\/|modprobe\.d\/|NetworkManager\/dispatcher\.d\/)/,
  /^\/(?:usr\/)?lib\/(?:systemd|udev)\//,
  // The system's readline key bindings (a macro makes harmless keys type a command).
  /^\/etc\/inputrc$/
]
/**
 * The user's configuration directories, below a home: every program reads its configuration from `~/.config/<name>`
 * (gdb's gdbinit, tmux.conf, vim's vimrc, lesskey, sqliterc, irbrc…) and much of it runs commands; some keep their
 * own dot-directory whose files are loaded as code (vim and emacs packages, IPython and Jupyter profiles, gpg-agent's
 * pinentry-program, oh-my-zsh, rc.d folders a shell start-up file sources). Matched on the part below the home of a
 * file's path, or of a folder's as `<dir>/`.
 */
const USER_CONFIG_DIRS = /^(?:\.config|\.vim|\.emacs\.d|\.ipython|\.jupyter|\.gnupg|\.local\/share\/nvim\/site|\.local\/share\/vim|\.oh-my-zsh|\.bashrc\.d|\.zshrc\.d|\.tmux|\.mutt)\//

/** Directories on the usual PATH: a file there shadows or adds a command every later shell may run. */
const PATH_DIRS = String.raw`\/(?:usr\/local\/s?bin|usr\/s?bin|s?bin|opt\/[^/]+\/s?bin|usr\/local\/go\/bin|home\/[^/]+\/(?:bin|\.local\/bin)|root\/(?:bin|\.local\/bin))`
/** Such a directory or a file in it; PATH_FOLDER: the directory itself, as `<dir>/` (so for HOME_PATH_*). */
const PATH_DIR = new RegExp(`^${PATH_DIRS}(?:\\/[^/]+)?$`)
const PATH_FOLDER = new RegExp(`^${PATH_DIRS}\\/$`)
/**
 * Program directories in a home that installers put on PATH: `~/bin`, `~/.local/bin`, `~/go/bin`, and the `bin` or
 * `shims` of a tool's own dot-directory (`~/.cargo/bin`, `~/.pyenv/shims`, `~/.nvm/versions/node/v20/bin`, `~/.bun/bin`).
 */
const HOME_PATH_DIRS = String.raw`(?:bin|\.local\/bin|go\/bin|\.[^/]+\/(?:[^/]+\/)*(?:bin|shims))`
const HOME_PATH_DIR = new RegExp(`^${HOME_PATH_DIRS}\\/[^/]+$`)
const HOME_PATH_FOLDER = new RegExp(`^${HOME_PATH_DIRS}\\/$`)
/**
 * Files below a home that a start-up file or a version manager's shim runs on every shell or every command: rustup's
 * `~/.cargo/env` and nvm's `~/.nvm/nvm.sh` (sourced by ~/.bashrc), fzf's and asdf's scripts, bash-completion's
 * per-command files, and pyenv's (rbenv's, nodenv's…) own programs and the hook folders every shim run sources
 * (`~/.pyenv/pyenv.d/exec/*.bash`, a plugin's `etc/pyenv.d`, `~/.pyenv/libexec/pyenv-exec`).
 */
const HOME_SOURCED =
  /^(?:\.cargo\/env(?:\.fish)?$|\.nvm\/[^/]+\.sh$|\.fzf\.(?:bash|zsh)$|\.asdf\/asdf\.(?:sh|fish)$|\.local\/share\/bash-completion\/|\.(pyenv|rbenv|nodenv|goenv|plenv|jenv)\/(?:libexec\/|(?:plugins\/[^/]+\/(?:etc\/)?)?\1\.d\/|plugins\/[^/]+\/libexec\/))/
/**
 * An interpreter's library folders: a module there is what every import of its name loads (the user's site-packages
 * comes before the installed packages, so an `idna.py` there runs for `import requests`), a venv's or pyenv's alike;
 * Ruby's gem folders and Perl's (local::lib, carton, site_perl) likewise for `require` and `use`.
 */
const LIBRARY_DIRS = new RegExp(
  [
    String.raw`\/(?:site|dist)-packages\/|\/lib(?:64)?\/python[23](?:\.\d+)?\/`,
    // Ruby's: a user's gems (`~/.gem/ruby/3.1.0/`, `~/.local/share/gem/`), bundler's, rvm's, a Ruby's own `lib/ruby`.
    String.raw`\/(?:\.gem|\.local\/share\/gem|vendor\/bundle|\.rvm\/gems|lib\/ruby|var\/lib\/gems)\/`,
    // Perl's: local::lib's `~/perl5` (its lib/perl5 is on PERL5LIB once the start-up file evals it), carton's
    // `local/lib/perl5`, `site_perl`/`vendor_perl`.
    String.raw`\/perl5\/|\/(?:site|vendor)_perl\/`,
    // Lua's (luarocks), R's and Julia's package libraries, npm's global modules, and the sources go and cargo build
    // from their caches (a crate's build.rs runs at `cargo build`).
    String.raw`\/\.luarocks\/|\/share\/lua\/|\/lib\/lua\/|\/R\/[^/]+-library\/|\/lib\/R\/(?:site-)?library\/|\/\.julia\/(?:packages|dev|config)\/`,
    String.raw`\/lib\/node_modules\/|\/go\/pkg\/mod\/|\/\.cargo\/(?:registry|git)\/`,
    String.raw`\/node_modules\/`
  ].join("|")
)
/**
 * A project's own node_modules (round 9, in LIBRARY_DIRS): `require('lodash')` loads `node_modules/lodash`, npx runs
 * `node_modules/.bin`. Package managers fill it; a file written there by hand is code an innocent `node app.js` runs
 * unread. A link to a file there plants nothing (`ln -s node_modules/.bin/tsc tsc`): a write through it is judged.
 */
const PROJECT_MODULES = /\/node_modules\//

/** Node's folders in a home: `require('x')` of a name no node_modules holds loads `~/.node_modules/x`. */
const HOME_LIBRARY_DIRS = /^\.node_(?:modules|libraries)\//

/** Crontabs, systemd units and autostart entries: every file at or under these runs on a schedule or at login. */
const SCHEDULER_FILES = [
  /^\/etc\/(?:crontab|cron\.|anacrontab|systemd\/|xdg\/autostart\/)/,
  /^\/var\/spool\/cron\//,
  /\/\.config\/(?:systemd\/user|autostart)\//,
  /\/\.local\/share\/systemd\/user\//,
  /\/Library\/Launch(?:Agents|Daemons)\//
]

/** `path` below a home (ours, root's, or any /home/<user>: callers leave other users' alone) matches `inHome` there. */
const belowHome = (path: string, home: string | undefined, inHome: RegExp): boolean => {
  const homes = [home === undefined ? "" : normalize(home), path.startsWith("/root/") ? "/root" : (/^\/home\/[^/]+/.exec(path)?.[0] ?? "")]
  return homes.some((h) => h !== "" && h !== "/" && path.startsWith(`${h}/`) && inHome.test(path.slice(h.length + 1)))
}

const homePathDir = (path: string, home: string | undefined): boolean => belowHome(path, home, HOME_PATH_DIR)

/** Absolute, `.`/`..` folded (a relative path counts from `/`). */
const normalize = (path: string): string => posix.resolve("/", path)

const under = (path: string, dir: string | undefined): boolean => {
  if (dir === undefined || dir === "") return false
  const d = normalize(dir)
  return d !== "/" && (path === d || path.startsWith(`${d}/`))
}

/** The rule description when writing `absPath` plants something run implicitly, else null. */
/**
 * A path inside another user's home (`/home/bob/.bashrc` while we are alice): planted there it runs as bob, not in
 * our sessions, and Hermes leaves it alone too. Known only when our own home is known.
 */
export const otherUsersHome = (path: string, home: string | undefined): boolean => {
  if (home === undefined) return false
  const m = /^\/(?:home\/[^/]+|root)(?=\/|$)/.exec(path)
  if (m === null) return false
  const own = home.replace(/\/+$/, "")
  return m[0] !== own && !own.startsWith(`${m[0]}/`)
}

export const implicitlyExecuted = (absPath: string, env: ImplicitExecEnv): string | null => {
  const path = normalize(absPath)
  if (under(path, env.hermesHome)) return RUNTIME_HOME_DESCRIPTION
  const parts = path.split("/")
  const name = parts[parts.length - 1] ?? ""
  if (SHELL_STARTUP.has(name)) return SHELL_STARTUP_DESCRIPTION
  if (gitRuns(parts, name, path)) return GIT_EXEC_DESCRIPTION
  if (name === ".envrc") return ENVRC_DESCRIPTION
  const projectStart = projectStartFile(path)
  if (projectStart !== null) return projectStart
  if (/\/\.ssh\/(?:config|authorized_keys2?|rc|environment)$/.test(path) || path.startsWith("/etc/ssh/")) {
    return SSH_CONFIG_DESCRIPTION
  }
  if (SCHEDULER_FILES.some((re) => re.test(path))) return SCHEDULER_DESCRIPTION
  if (
    INTERPRETER_STARTUP.has(name) ||
    INTERPRETER_STARTUP_PATTERN.test(name) ||
    (name.endsWith(".pth") && /\/(?:site|dist)-packages\//.test(path)) ||
    INTERPRETER_DIRS.some((re) => re.test(path))
  ) {
    return INTERPRETER_STARTUP_DESCRIPTION
  }
  if (belowHome(path, env.home, USER_CONFIG_DIRS)) return USER_CONFIG_DESCRIPTION
  if (belowHome(path, env.home, HOME_SOURCED)) return SHELL_STARTUP_DESCRIPTION
  if (bytecode(parts, name)) return BYTECODE_DESCRIPTION
  if (LIBRARY_DIRS.test(path) || belowHome(path, env.home, HOME_LIBRARY_DIRS)) return LIBRARY_DESCRIPTION
  if (SYSTEM_FILES.some((re) => re.test(path))) return SYSTEM_EXEC_DESCRIPTION
  if (PATH_DIR.test(path) || homePathDir(path, env.home)) return PATH_DIR_DESCRIPTION
  return null
}

/**
 * Python runs a cached `.pyc` instead of its source (an unchecked hash-based one without looking at the source at
 * all), and a sourceless `.pyc` where no source is: a file in `__pycache__` (or the folder itself, copied or moved
 * into place) or any `.pyc`/`.pyo` is planted code whose text the gate cannot read.
 */
const bytecode = (parts: ReadonlyArray<string>, name: string): boolean =>
  parts.includes("__pycache__") || /\.py[co]$/i.test(name)

/** Files of a git directory that git reads for commands to run, or for where its config and hooks are. */
const GIT_DIR_FILES = new Set(["config", "config.worktree", "commondir", "gitdir"])

/**
 * Hook folders a repository's `core.hooksPath` names inside the worktree, by the names the hook managers give them:
 * husky's `.husky/` (its `_/` runs `.husky/<hook>`) and `.githooks/`. Git runs them as it runs .git/hooks.
 */
const TRACKED_HOOKS = /\/\.(?:husky|githooks)\/(?:_\/)?(?:[^/]+)?$/

/**
 * Git runs: .git/config (and config.worktree), .git/hooks/*, the same in a
 * bare repository (`x.git/…`) or a submodule's .git/modules/<m>/, ~/.gitconfig,
 * ~/.config/git/config, .gitmodules. And what sends git to another directory's
 * config and hooks: a `.git` file (`gitdir: …`) or link, a repository's
 * `commondir` and a worktree's `gitdir` (git follows each).
 */
const gitRuns = (parts: ReadonlyArray<string>, name: string, path: string): boolean => {
  if (TRACKED_HOOKS.test(path)) return true
  if (name === ".gitconfig" || name === ".gitmodules" || name === ".git" || /\/\.config\/git\/config$/.test(path)) return true
  for (let k = parts.length - 2; k >= 0; k--) {
    if (!(parts[k] ?? "").endsWith(".git")) continue
    const rest = parts.slice(k + 1)
    if (rest.includes("hooks") || GIT_DIR_FILES.has(rest[rest.length - 1] ?? "")) return true
  }
  return false
}

/** A home folder: ours, root's, or any `/home/<name>`. */
const isHomeFolder = (path: string, home: string | undefined): boolean =>
  path === "/root" || /^\/home\/[^/]+$/.test(path) || (home !== undefined && home !== "/" && path === normalize(home))

/**
 * What writing through a symbolic link to `target` would plant, or null: the target itself when it is a file that
 * runs (a program in a PATH folder is not: linking to /usr/bin/python3 plants nothing), or, for a folder, a file
 * inside it (a git directory's config, any file of a hooks, config or runtime folder, a home's start-up files).
 * Another process can swap a link between the judgement of a write through it and the write itself, so making such
 * a link is judged as the writes it allows.
 */
export const linkTargetRuns = (target: string, env: ImplicitExecEnv): string | null => {
  const path = normalize(target)
  const own = implicitlyExecuted(path, env)
  if ((own === null || own === LIBRARY_DESCRIPTION) && PROJECT_MODULES.test(`${path}/`) && !/\/lib\/node_modules\//.test(`${path}/`)) return null
  if (own !== null && own !== PATH_DIR_DESCRIPTION && own !== BYTECODE_DESCRIPTION) return own
  return holdsExecutedFiles(path, env)
}

/**
 * The rule description when `dir` is a folder holding files that run (a file written into it is one of them), else
 * null: the runtime's home or a folder in it, a git directory (its config) or a folder inside one, `~/.ssh`,
 * `~/.config/git`, a scheduler's, start-up hook's, user configuration's, bytecode cache's, system or PATH folder,
 * and a home (its start-up files). The checks of implicitlyExecuted, on `<dir>/` as every file in it begins.
 */
export const holdsExecutedFiles = (dir: string, env: ImplicitExecEnv): string | null => {
  const path = normalize(dir)
  const files = path === "/" ? "/" : `${path}/`
  const parts = path.split("/")
  if (under(path, env.hermesHome)) return RUNTIME_HOME_DESCRIPTION
  if (parts.some((p) => p.endsWith(".git")) || path.endsWith("/.config/git")) return GIT_EXEC_DESCRIPTION
  if (path.endsWith("/.ssh") || files.startsWith("/etc/ssh/")) return SSH_CONFIG_DESCRIPTION
  if (SCHEDULER_FILES.some((re) => re.test(files))) return SCHEDULER_DESCRIPTION
  if (INTERPRETER_DIRS.some((re) => re.test(files))) return INTERPRETER_STARTUP_DESCRIPTION
  if (belowHome(files, env.home, USER_CONFIG_DIRS)) return USER_CONFIG_DESCRIPTION
  if (belowHome(files, env.home, HOME_SOURCED)) return SHELL_STARTUP_DESCRIPTION
  if (parts.includes("__pycache__")) return BYTECODE_DESCRIPTION
  if (LIBRARY_DIRS.test(files) || belowHome(files, env.home, HOME_LIBRARY_DIRS)) return LIBRARY_DESCRIPTION
  if (TRACKED_HOOKS.test(files)) return GIT_EXEC_DESCRIPTION
  if (PROJECT_START_FOLDER.test(path)) return PROJECT_START_DESCRIPTION
  if (SYSTEM_FILES.some((re) => re.test(files))) return SYSTEM_EXEC_DESCRIPTION
  if (PATH_FOLDER.test(files) || belowHome(files, env.home, HOME_PATH_FOLDER)) return PATH_DIR_DESCRIPTION
  return isHomeFolder(path, env.home) ? SHELL_STARTUP_DESCRIPTION : null
}

/**
 * A bare `.git` (no folder before it). Mentioned to a program the gate does not model, or anywhere in a script, it is
 * nearly always a name to skip (`fd -E .git`, `--exclude=.git`, `d != ".git"`), not a file written: those mentions
 * are not taken for writes of a gitdir file. Git run on one is judged where it runs (policy/judge.ts repositories).
 */
export const bareGitName = (text: string): boolean => /^(?:\.\/)?\.git\/?$/.test(text.trim())

/**
 * Whether git's config and hooks in `dir` (a git directory, symlinks resolved) are files whose writes the gate judges
 * (gitRuns): a directory inside a `.git` or `*.git` one. Anywhere else, a config was written as an ordinary file.
 */
export const gitConfigJudged = (dir: string): boolean => normalize(dir).split("/").some((p) => p.endsWith(".git"))
