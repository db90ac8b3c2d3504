/**
 * Variables whose value other programs run or read their configuration
 * from: `PAGER=./x git log`, `LESSOPEN='|./x %s' less f`,
 * `npm_config_script_shell=./x npm test`, `SHELL=./x script -c ls`,
 * `XDG_CONFIG_HOME=./cfg git status` (a planted git/config),
 * `GIT_DIR=./bare git status` (a planted config not under a `.git`
 * directory), `LD_LIBRARY_PATH=.` (a planted libc), `PYTHONWARNINGS`
 * naming a module to import. A value that names a well-known program of
 * the expected kind, or the usual place, stays quiet.
 */
import type { RuleEnv } from "./engine.js"
import type { ProgramKind } from "./programValues.js"
import { plainProgram } from "./programValues.js"
import { sensitiveWrite } from "../code/sensitivePaths.js"
import { lookupTable } from "../../../../lib/lookupTable.js"

type ValueTest = (value: string, env: RuleEnv) => boolean

const naming = (kind: ProgramKind): ValueTest => (value) => !plainProgram(value, kind)
const always: ValueTest = (value) => value !== ""

/** The value is the user's home, or `suffix` under it, however it is spelled. */
const homeOr = (suffix: string): ValueTest => (value, env) => {
  const v = value.replace(/\/+$/, "")
  if (v === "") return false
  const spellings = ["~", "$HOME", "${HOME}", ...(env.home === undefined ? [] : [env.home.replace(/\/+$/, "")])]
  return !spellings.some((h) => v === `${h}${suffix}`)
}

/** A git directory named `*.git`: writes to its config and hooks need approval already. */
export const gitDir = (value: string): boolean => {
  const v = value.replace(/\/+$/, "")
  return v !== "" && !/(?:^|\/)[^/]*\.git$/.test(v)
}

/** Library directories the operator installed (`/usr/lib…`, `/lib…`, `/opt/…`), or the inherited value. */
const libraryDirs: ValueTest = (value) =>
  value.split(":").some((d) => d !== "" && !/^\$\{?LD_LIBRARY_PATH\}?$/.test(d) && !/^\/(?:usr|lib\d*|opt)\//.test(d))

/** `action:message:category:module:lineno`: a dotted category is imported by name. */
const warningsImport: ValueTest = (value) => value.split(",").some((entry) => (entry.split(":")[2] ?? "").includes("."))

/** A start-up or configuration file other than none (`/dev/null`): the program reads commands from it. */
const startupFile: ValueTest = (value) => value !== "" && value !== "/dev/null"

/** A start-up or configuration file (or a `:` list of them) outside the operator's `/etc` and `/usr`. */
const configFile: ValueTest = (value, env) => value.split(":").some((f) => startupFile(f, env) && !/^\/(?:etc|usr)\//.test(f))

/** vim's `$VIM` / `$VIMRUNTIME`: defaults.vim, plugins and syntax files are sourced from there; the packaged ones are quiet. */
const vimDir: ValueTest = (value) => value !== "" && !/^\/usr(?:\/local)?\/share\/n?vim(?:\/vim\d+|\/runtime)?\/?$/.test(value)

/**
 * `LESS`: an initial command (`+cmd`), a lesskey file (`-k f`, `--lesskey-src=f`, whose `#env` can set LESSOPEN), or a
 * log file (`-o f`, `--log-file=f`) a piped input is copied to, which the line then does not show.
 */
const lessOptions: ValueTest = (value) => /(?:^|\s)(?:\+|-[A-Za-z#]*[koO]|--lesskey|--log-file|--LOG-FILE)/.test(value)

/**
 * MAKEFLAGS / GNUMAKEFLAGS: make reads them as options and command-line variables. Any `VAR=value` there overrides
 * the makefile (`CC=./x`, `SHELL=./x`: what the recipes run), and `--eval`, `-E`, `-f`, `-I`, `-C` load or run other
 * makefiles.
 */
const makeFlags: ValueTest = (value) =>
  /(?:^|\s)(?:--eval|--file|--makefile|--include-dir|--directory|-[A-Za-z]*[EfIC])/.test(value) || /(?:^|\s)[^\s=-][^\s=]*=/.test(value)

/** Directories of code a runtime loads (`TCLLIBPATH`, `TCL_LIBRARY`): quiet when each is the operator's. */
const codeDirs: ValueTest = (value) => value.split(/[\s:]+/).some((d) => d !== "" && !/^\/(?:usr|lib\d*|opt)\//.test(d))

/** A package index or link list pip reads (`PIP_FIND_LINKS`): a local path or file URL can hold a planted sdist pip builds. */
const localPackages: ValueTest = (value) => value.split(/\s+/).some((u) => u !== "" && !/^https?:\/\//i.test(u))

/** A history file a REPL writes (typed lines): like any write, it asks when the path is one whose files run. */
const historyFile: ValueTest = (value, env) => value !== "" && sensitiveWrite(value, env)

/** Options that make tar run a program (GNU tar reads TAR_OPTIONS before its arguments). */
const TAR_RUNS = /--to-command|--use-compress-program|--info-script|--new-volume-script|--rsh-command|--checkpoint-action|(?:^|\s)-[A-Za-z]*[IF]/

/** pip options (as PIP_<NAME>) naming a program pip runs, a place it takes code from, or a place it writes or wipes. */
const PIP_PLACES = [
  "python", "src", "exists_action", "target", "prefix", "root", "cache_dir", "log", "log_file", "local_log", "report",
  "dest", "wheel_dir", "build", "build_dir", "config_settings", "global_option", "build_option", "install_option",
  "keyring_provider"
]

/** uv options (as UV_<NAME>) naming the requirements, interpreters, folders and files it builds from, runs or writes. */
const UV_PLACES = [
  "constraint", "override", "build_constraint", "requirement", "requirements", "python", "project", "directory",
  "working_directory", "cache_dir", "env_file", "project_environment", "tool_dir", "tool_bin_dir", "python_install_dir",
  "python_bin_dir", "python_install_mirror", "pypy_install_mirror", "python_downloads_json_url", "install_dir",
  "unmanaged_install", "config_settings", "keyring_provider", "target", "prefix", "python_cache_dir"
]

/** Name (lower-case) → whether the value runs code the gate does not see. */
export const PROGRAM_VARIABLES: Readonly<Record<string, ValueTest>> = lookupTable({
  pager: naming("pager"),
  manpager: naming("pager"),
  systemd_pager: naming("pager"),
  editor: naming("editor"),
  visual: naming("editor"),
  sudo_editor: naming("editor"),
  systemd_editor: naming("editor"),
  fcedit: naming("editor"),
  browser: naming("browser"),
  lessopen: always,
  // Bash skips the files it matches when it looks a command up on PATH: a system program's name then finds a
  // later folder's (round 9).
  execignore: always,
  lessclose: always,
  ssh_askpass: naming("askpass"),
  sudo_askpass: naming("askpass"),
  rsync_rsh: naming("rsh"),
  cvs_rsh: naming("rsh"),
  shell: naming("shell"),
  npm_config_script_shell: naming("shell"),
  npm_config_userconfig: always,
  npm_config_globalconfig: always,
  npm_config_prefix: always,
  kube_editor: naming("editor"),
  gh_editor: naming("editor"),
  svn_editor: naming("editor"),
  hgeditor: naming("editor"),
  bat_pager: naming("pager"),
  gh_pager: naming("pager"),
  glab_pager: naming("pager"),
  delta_pager: naming("pager"),
  psql_pager: naming("pager"),
  aws_pager: naming("pager"),
  // Compilers and tools that make's built-in rules, cargo and cmake run: `CC=./x make`.
  cc: naming("compiler"),
  cxx: naming("compiler"),
  cpp: naming("compiler"),
  ld: naming("compiler"),
  ar: naming("compiler"),
  fc: naming("compiler"),
  f77: naming("compiler"),
  rustc: naming("compiler"),
  rustdoc: naming("compiler"),
  cargo_build_rustc: naming("compiler"),
  rustc_workspace_wrapper: naming("wrapper"),
  cargo_build_rustc_workspace_wrapper: naming("wrapper"),
  ccache_prefix: naming("wrapper"),
  cmake_c_compiler_launcher: naming("wrapper"),
  cmake_cxx_compiler_launcher: naming("wrapper"),
  ...Object.fromEntries(
    ["x86_64_unknown_linux_gnu", "x86_64_unknown_linux_musl", "aarch64_unknown_linux_gnu", "aarch64_unknown_linux_musl"].flatMap((t) => [
      [`cargo_target_${t}_runner`, naming("wrapper")],
      [`cargo_target_${t}_linker`, naming("compiler")]
    ])
  ),
  // go's -toolexec and -exec run a program around every tool or test binary.
  goflags: (value) => /(?:^|\s)--?(?:toolexec|exec|vettool)(?:[= ]|$)/.test(value),
  rustc_wrapper: naming("wrapper"),
  cargo_build_rustc_wrapper: naming("wrapper"),
  tar_options: (value) => TAR_RUNS.test(value),
  curl_home: homeOr(""),
  wgetrc: always,
  // make reads these makefiles before its own: recipes the gate never saw.
  makefiles: always,
  makeflags: makeFlags,
  gnumakeflags: makeFlags,
  // vim and ex run VIMINIT / EXINIT as ex commands at start-up (`exe "!…"`); GVIMINIT for gvim.
  viminit: always,
  exinit: always,
  gviminit: always,
  vim: vimDir,
  vimruntime: vimDir,
  // neovim reads its init.lua from ~/.config/$NVIM_APPNAME, a name that may hold `../`.
  nvim_appname: always,
  // less reads lesskey files (source or compiled) whose `#env` section can set LESSOPEN, or the text itself.
  lesskey: startupFile,
  lesskeyin: startupFile,
  lesskey_system: startupFile,
  lesskeyin_system: startupFile,
  lesskey_content: always,
  less: lessOptions,
  // perl -d: the debugger's options can name a pager (`pager=|cmd`) it pipes through, and files it writes.
  perldb_opts: always,
  // node with no script loads this module as its REPL.
  node_repl_external_module: always,
  // tclsh sources init.tcl from TCL_LIBRARY and pkgIndex.tcl files from TCLLIBPATH.
  tcllibpath: codeDirs,
  tcl_library: codeDirs,
  // readline macros can retype what a program on a terminal reads (a key bound to a line of code), and `$include`.
  inputrc: startupFile,
  // pip's configuration can point index-url / find-links at a planted sdist, whose setup.py pip runs.
  pip_config_file: startupFile,
  pip_find_links: localPackages,
  pip_index_url: localPackages,
  pip_extra_index_url: localPackages,
  // pip reads every option from PIP_<NAME>: these name the local projects and requirement files it builds from
  // (`PIP_REQUIREMENT=req.txt pip install`, `PIP_EDITABLE=./proj`), which the line then does not show.
  pip_requirement: always,
  pip_constraint: always,
  pip_editable: always,
  // Every other pip option that names a program, a place it builds or unpacks from, or a place it writes or wipes:
  // `--python` re-runs pip with that interpreter, `--src` holds the checkouts it builds (`--exists-action w` wipes
  // one in the way), a cache can hold a planted wheel, `--target`/`--prefix`/`--root` install files that later run.
  ...Object.fromEntries(PIP_PLACES.map((o) => [`pip_${o}`, always])),
  // Folders pip (and other XDG programs) read site configuration from: `<dir>/pip/pip.conf` can set find-links.
  xdg_config_dirs: (value) => value.split(":").some((d) => d !== "" && !/^\/(?:etc|usr)\//.test(d)),
  // Locale data a program loads (TEXTDOMAINDIR, the catalogs bash translates `$"…"` through, is a loader
  // variable: loaderVariables.ts). TEXTDOMAIN alone only picks a catalog from the system's directory.
  locpath: startupFile,
  nlspath: startupFile,
  // Configuration that names programs the tool runs: gpg-agent.conf's pinentry-program, a kubeconfig's exec
  // credential plugin, AWS's credential_process, go's env file (GOFLAGS=-toolexec).
  gnupghome: homeOr("/.gnupg"),
  kubeconfig: homeOr("/.kube/config"),
  aws_config_file: homeOr("/.aws/config"),
  aws_shared_credentials_file: homeOr("/.aws/credentials"),
  goenv: startupFile,
  // Where toolchains' programs are taken from: rustup's toolchains (a path toolchain too), go's compiler and tools,
  // the java that build wrappers run, emacs's site-start.el.
  rustup_home: homeOr("/.rustup"),
  rustup_toolchain: (value) => value.includes("/"),
  goroot: codeDirs,
  gotooldir: always,
  java_home: codeDirs,
  emacsloadpath: codeDirs,
  // man takes options from MANOPT (`-P pager`, `-C config`); MANROFFOPT reaches groff, whose -U runs `.sy` requests.
  manopt: (value) => /(?:^|\s)(?:-[A-Za-z]*[PHCp]|--pager|--html|--config-file|--preprocessor)/.test(value),
  manroffopt: always,
  // Configuration files that run code or name programs: OpenSSL's (engines, providers), php.ini (auto_prepend_file),
  // R's profiles, irb's and psql's rc files (`\!`), mysql's my.cnf (pager), screen's rc, mailcap entries, mailx's rc.
  openssl_conf: configFile,
  openssl_engines: codeDirs,
  openssl_modules: codeDirs,
  phprc: configFile,
  php_ini_scan_dir: configFile,
  r_profile: configFile,
  r_profile_user: configFile,
  irbrc: configFile,
  psqlrc: configFile,
  mysql_home: configFile,
  screenrc: configFile,
  syscreenrc: configFile,
  mailcaps: configFile,
  mailrc: configFile,
  // Lua runs LUA_INIT (code, or `@file`) before anything else.
  lua_init: always,
  lua_init_5_1: always,
  lua_init_5_2: always,
  lua_init_5_3: always,
  lua_init_5_4: always,
  // IPython's and Jupyter's profiles hold startup scripts and Python config files they run.
  ipythondir: homeOr("/.ipython"),
  jupyter_config_dir: homeOr("/.jupyter"),
  // bundler evaluates the Gemfile (Ruby) it names.
  bundle_gemfile: always,
  // TeX's kpathsea takes texmf.cnf values from the environment: `shell_escape=t` lets documents run `\write18`.
  texmfcnf: always,
  shell_escape: (value) => !/^[fpn0]?$/i.test(value.trim()),
  shell_escape_commands: always,
  // uv reads the same package sources as pip, and options naming programs and places (`UV_PYTHON`, `UV_ENV_FILE`).
  ...Object.fromEntries(UV_PLACES.map((o) => [`uv_${o}`, always])),
  uv_config_file: startupFile,
  uv_find_links: localPackages,
  uv_index_url: localPackages,
  uv_extra_index_url: localPackages,
  uv_default_index: localPackages,
  uv_index: localPackages,
  // MYVIMRC is left alone: vim sets it to the vimrc it found and does not source a value given to it.
  // bash's own: any interactive bash writes it on exit (a plain `bash` on a terminal too), so a value naming a file
  // that runs asks where it is set, not only where a shell the gate sees as interactive starts.
  histfile: historyFile,
  node_repl_history: historyFile,
  sqlite_history: historyFile,
  lesshistfile: historyFile,
  python_history: historyFile,
  mysql_histfile: historyFile,
  psql_history: historyFile,
  pythonbreakpoint: (value) => !["", "0", "pdb.set_trace"].includes(value),
  pythonwarnings: warningsImport,
  pythonhome: (value) => value !== "" && !/^\/usr(?:\/local)?\/?$/.test(value),
  pythonuserbase: homeOr("/.local"),
  ld_library_path: libraryDirs,
  home: homeOr(""),
  zdotdir: homeOr(""),
  xdg_config_home: homeOr("/.config"),
  cargo_home: homeOr("/.cargo"),
  git_dir: gitDir,
  git_common_dir: gitDir
})
