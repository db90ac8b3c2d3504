/**
 * Values that name a program another program will run: `PAGER`, `EDITOR`,
 * `RSYNC_RSH`, `tar -I`, `make SHELL=`. A value that is one well-known
 * program of the expected kind with plain flags (`less -R`, `zstd -19`,
 * `ssh -p 2222`, `/bin/bash`) is harmless; anything else (a path to a
 * planted script, a shell or interpreter handed a script, text the shell
 * would expand) runs code the gate never sees.
 */

export type ProgramKind = "pager" | "editor" | "browser" | "compressor" | "rsh" | "shell" | "askpass" | "wrapper" | "compiler"

const KNOWN: Readonly<Record<ProgramKind, ReadonlySet<string>>> = {
  pager: new Set(["less", "more", "most", "cat", "bat", "batcat", "delta", "diff-so-fancy", "moar", "moor", "pg", "true"]),
  editor: new Set([
    "vi", "vim", "nvim", "gvim", "view", "nano", "pico", "emacs", "emacsclient", "code", "code-insiders", "codium", "subl",
    "micro", "hx", "helix", "kak", "gedit", "kate", "mate", "zed", "true", "cat", ":"
  ]),
  // `BROWSER=none npm start`: dev servers read it as "open nothing".
  browser: new Set(["xdg-open", "open", "firefox", "chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "w3m", "lynx", "links", "true", "echo", "none"]),
  compressor: new Set([
    "gzip", "gunzip", "pigz", "unpigz", "bzip2", "bunzip2", "pbzip2", "lbzip2", "xz", "unxz", "pixz", "pxz", "zstd",
    "unzstd", "pzstd", "zstdmt", "lz4", "lzip", "plzip", "lzop", "brotli", "lzma", "compress"
  ]),
  rsh: new Set(["ssh", "rsh"]),
  shell: new Set(["bash", "sh", "dash", "zsh", "ksh", "mksh", "fish", "tcsh", "csh"]),
  askpass: new Set(["ssh-askpass", "ksshaskpass", "x11-ssh-askpass", "lxqt-openssh-askpass", "ssh-askpass-gnome"]),
  wrapper: new Set(["sccache", "cachepot", "ccache"]),
  compiler: new Set(["ccache", "sccache", "distcc", "zig"])
}

/**
 * Compilers and binutils by name, with a cross prefix or a version (`gcc`, `x86_64-linux-gnu-gcc-12`, `clang++`,
 * `ld.lld`, `llvm-ar`, `musl-gcc`, `emcc`, `rustc`).
 */
const COMPILER = /^(?:[\w.-]+-)?(?:gcc|g\+\+|cc|c\+\+|c89|c99|clang|clang\+\+|clang-cl|cpp|ld|ld\.\w+|lld|ar|as|nm|ranlib|strip|objcopy|gfortran|f77|f95|tcc|icc|icpx|icx|rustc|rustdoc|nasm|yasm|emcc|em\+\+)(?:-\d+(?:\.\d+)*)?$/

/** Directories whose programs the operator installed: a value may name one by absolute path. */
const SYSTEM_DIR = /^\/(?:usr\/(?:local\/)?)?s?bin\/[^/]+$/

/** A flag or operand the program reads as data: nothing the shell would expand, split or redirect. */
const PLAIN_WORD = /^[\w.,:=/~+@%-]+$/

/** Flags that make the named program load or run more code (an editor's startup command, ssh's ProxyCommand) or write a file. */
const RUNS_MORE: Readonly<Partial<Record<ProgramKind, RegExp>>> = {
  // A lesskey file, or less's log file (`-o f`: the text paged is copied there, a write the line does not show).
  pager: /^(?:-[A-Za-z]*[koO]|--lesskey|--log-file|--LOG-FILE)/,
  editor: /^(?:-[cSulx]$|\+|--cmd|--eval|--load|--init|--exec)/,
  rsh: /command|^-[A-Za-z]*F/i
}

/** Whether `value` (as the program receives it) is one known program of `kind` with plain words after it. */
export const plainProgram = (value: string, kind: ProgramKind): boolean => {
  const words = value.trim().split(/[ \t]+/)
  const first = words[0] ?? ""
  if (first === "") return true
  const name = first.includes("/") ? (SYSTEM_DIR.test(first) ? first.slice(first.lastIndexOf("/") + 1) : "") : first
  if (!KNOWN[kind].has(name) && !(kind === "compiler" && COMPILER.test(name))) return false
  const more = RUNS_MORE[kind]
  return words.slice(1).every((w) => PLAIN_WORD.test(w) && (more === undefined || !more.test(w)))
}
