/**
 * Argument helpers for our own rules. Unlike Hermes' rules (which read the
 * lower-cased view, prose included), ours look only at commands that run and
 * at their argument values as the program receives them: case kept, quotes
 * removed, expansions left verbatim (`$HOME/x`).
 */
import type { Cmd, Word } from "../../shell/ast.js"
import type { CmdView } from "../ruleInput.js"
import { INPUT_NAMERS, isOutputOption, namedByInput, OUTPUT_WRITERS, outputFiles, outputOptionValues } from "./outputFiles.js"
import { isPureReader } from "./unknownWriters.js"

const EMPTY: ReadonlySet<string> = new Set()

/**
 * The command runs: not quoted prose, not a comment, and not a heredoc body
 * (a heredoc only runs when fed to a shell or interpreter, which Hermes'
 * heredoc rules already flag).
 */
export const runs = (c: CmdView): boolean => c.head >= 0 && c.cmd.cls === "exec" && c.cmd.origin !== "heredoc"

/** Argument values after the program word. */
export const argv = (c: CmdView): ReadonlyArray<string> => {
  let a = c.argvMemo
  if (a === undefined) c.argvMemo = a = c.cmd.words.slice(c.head + 1).map((w) => w.value)
  return a
}

/** Runs as program `name` (lower-cased basename, after wrappers). */
export const runsAs = (c: CmdView, i: number, names: ReadonlyArray<string>): boolean =>
  i === c.head && runs(c) && names.includes(c.name)

export const isOption = (a: string): boolean => a.length > 1 && a.startsWith("-")

/**
 * Operands: arguments that are not options, with `--` ending the options.
 * `valued`: options whose value is the next word (`-t dir`).
 */
export const operands = (args: ReadonlyArray<string>, valued: ReadonlySet<string> = EMPTY): string[] => {
  const out: string[] = []
  let options = true
  for (let k = 0; k < args.length; k++) {
    const a = args[k] ?? ""
    if (options && a === "--") {
      options = false
      continue
    }
    if (options && isOption(a)) {
      if (valued.has(a)) k++
      continue
    }
    out.push(a)
  }
  return out
}

/** Value of option `short` (`-t x`, `-tx`) or `long` (`--long x`, `--long=x`); every occurrence. */
/**
 * Values of short option `-letter` where short options bundle (`curl -sSLo f`, `wget -qO f`): in a bundle the first
 * letter that takes a value (one of `valued`) owns the rest of it, or the next word; also the long form `long`.
 */
const bundledValues = (args: ReadonlyArray<string>, letter: string, valued: string, long: string): string[] => {
  const out: string[] = []
  for (let k = 0; k < args.length; k++) {
    const a = args[k] ?? ""
    if (a === "--") break
    if (a === long || a.startsWith(`${long}=`)) {
      const v = a === long ? args[++k] : a.slice(long.length + 1)
      if (v !== undefined) out.push(v)
      continue
    }
    if (!a.startsWith("-") || a.startsWith("--") || a.length < 2) continue
    for (let i = 1; i < a.length; i++) {
      const l = a[i] ?? ""
      if (!valued.includes(l)) continue
      const v = i < a.length - 1 ? a.slice(i + 1) : args[++k]
      if (l === letter && v !== undefined) out.push(v)
      break
    }
  }
  return out
}

/** Short options of curl and wget that take a value. */
const CURL_VALUED = "AbcCdDeEFHKmoPQrTtuUwxXyYz"
const WGET_VALUED = "eoaOPiBTtwQUlARDIX"

export const optionValues = (args: ReadonlyArray<string>, short: string | null, long: string | null): string[] => {
  const out: string[] = []
  for (let k = 0; k < args.length; k++) {
    const a = args[k] ?? ""
    if (a === "--") break
    if (long !== null && (a === long || a.startsWith(`${long}=`))) {
      const v = a === long ? args[++k] : a.slice(long.length + 1)
      if (v !== undefined) out.push(v)
    } else if (short !== null && a.startsWith(short) && !a.startsWith("--")) {
      const v = a === short ? args[++k] : a.slice(short.length)
      if (v !== undefined) out.push(v)
    }
  }
  return out
}

/**
 * `a` is long option `name` as getopt reads it: the name or any prefix down to `shortest` (`--remove-f` for
 * tar's `--remove-files`), with or without `=value`.
 */
export const isLong = (a: string, name: string, shortest: string): boolean => {
  const eq = a.indexOf("=")
  const opt = eq < 0 ? a : a.slice(0, eq)
  return opt.length >= shortest.length && name.startsWith(opt)
}

/** A short-option bundle or long option carrying `letter` / `long` (`-Rf`, `--recursive`). Case-sensitive. */
export const hasFlag = (args: ReadonlyArray<string>, letter: string, long: string | null): boolean => {
  for (const a of args) {
    if (a === "--") return false
    if (long !== null && (a === long || a.startsWith(`${long}=`))) return true
    if (a.length > 1 && a.startsWith("-") && !a.startsWith("--") && /^-[A-Za-z]+$/.test(a) && a.includes(letter, 1)) return true
  }
  return false
}

const WRITE_OPS = new Set([">", ">>", ">|", "&>", "&>>", "<>"])

/** The file redirect `r` of a command that runs writes, or null. */
export const redirectWrite = (c: CmdView, r: number): string | null => {
  if (c.cmd.cls !== "exec" || c.cmd.origin === "heredoc") return null
  const redir = c.cmd.redirs[r]
  const t = redir?.target?.value
  if (redir === undefined || t === undefined) return null
  return WRITE_OPS.has(redir.op) || (redir.op === ">&" && !/^\d+-?$|^-$/.test(t)) ? t : null
}

/** Files the redirects of this command write. */
export const redirectWrites = (c: CmdView): string[] => {
  const out: string[] = []
  for (let r = 0; r < c.cmd.redirs.length; r++) {
    const t = redirectWrite(c, r)
    if (t !== null) out.push(t)
  }
  return out
}

const COPY_VALUED = new Set(["-t", "-S", "--suffix", "-m", "--mode", "-o", "--owner", "-g", "--group", "-e", "--rsh"])
const TEE_VALUED = new Set(["--output-error"])

const baseName = (path: string): string => path.replace(/\/+$/, "").slice(path.replace(/\/+$/, "").lastIndexOf("/") + 1)

/**
 * The destination of cp/mv/install/ln/rsync/scp: `-t dir`, else the last operand; and, since a destination may be a
 * directory, each source's name under it (`cp .bashrc ~`, `cp -t ~/.config/git config` write ~/.bashrc, …/git/config).
 */
const copyDestination = (args: ReadonlyArray<string>): string[] => {
  const t = bundledValues(args, "t", "tSmog", "--target-directory")
  const ops = operands(args, COPY_VALUED)
  const dirs = t.length > 0 ? t : ops.length >= 2 ? [ops[ops.length - 1] ?? ""] : []
  const sources = t.length > 0 ? ops : ops.slice(0, -1)
  const out = [...dirs]
  for (const dir of dirs) for (const source of sources) if (baseName(source) !== "") out.push(`${dir.replace(/\/+$/, "")}/${baseName(source)}`)
  return out
}

/**
 * The files a hard link made here gives a second name (`ln a b`, `cp -l a b`, `cp -al dir copy`): writing the new
 * name later writes them, so they count as written too. Symbolic links (`ln -s`) are judged where they are followed.
 */
const hardLinkSources = (name: string, args: ReadonlyArray<string>): string[] => {
  const linking = name === "ln" ? !bundledFlag(args, "s", "tS", ["--symbolic"]) : bundledFlag(args, "l", "tS", ["--link"])
  if (!linking) return []
  const ops = operands(args, COPY_VALUED)
  const toDir = bundledValues(args, "t", "tS", "--target-directory").length > 0
  return toDir || ops.length === 1 ? ops : ops.slice(0, -1)
}

/**
 * What a symbolic link made here (`ln -s T L`, `cp -s T L`) points at, as paths to classify: a relative `T` counts
 * from the link's folder (the destination's, or the destination itself when it is a folder the link goes into).
 * Writes through a link are judged where it points when they are judged, but another process may swap the link
 * between that judgement and the write: so a link made into a place whose files run counts as writing there.
 */
export const symbolicLinkTargets = (name: string, args: ReadonlyArray<string>): string[] => {
  const symbolic = name === "ln" ? bundledFlag(args, "s", "tS", ["--symbolic"]) : name === "cp" && bundledFlag(args, "s", "tS", ["--symbolic-link"])
  if (!symbolic) return []
  const t = bundledValues(args, "t", "tS", "--target-directory")
  const ops = operands(args, COPY_VALUED)
  const targets = t.length > 0 || ops.length === 1 ? ops : ops.slice(0, -1)
  const last = ops[ops.length - 1] ?? "."
  const folders = t.length > 0 ? t : ops.length === 1 ? ["."] : [dirName(last), last]
  const out: string[] = []
  for (const target of targets) {
    if (target === "") continue
    if (target.startsWith("/") || target.startsWith("~") || target.startsWith("$")) out.push(target)
    else for (const folder of folders) out.push(folder === "." ? target : `${folder.replace(/\/+$/, "")}/${target}`)
  }
  return out
}

const dirName = (path: string): string => {
  const trimmed = path.replace(/\/+$/, "")
  const slash = trimmed.lastIndexOf("/")
  return slash < 0 ? "." : slash === 0 ? "/" : trimmed.slice(0, slash)
}

/**
 * A folder linked, copied or moved to a repository's name (`ln -s evil lnk.git`, `mv evil x.git`, `ln -s ../evil
 * .git`): git takes its `config` and hooks for a repository's, so making the name counts as writing that config.
 */
const repositoryConfigs = (destinations: ReadonlyArray<string>): string[] =>
  destinations.filter((d) => baseName(d).endsWith(".git")).map((d) => `${d.replace(/\/+$/, "")}/config`)

/** The destinations of cp, ln and mv, and the repository configs a destination named `*.git` makes. */
const placedWrites = (destinations: ReadonlyArray<string>): string[] => [...destinations, ...repositoryConfigs(destinations)]

const EDITORS = new Set(["ex", "vi", "vim", "nvim", "view", "ed", "red", "nano", "emacs"])
const EDITOR_VALUED = new Set(["-c", "-S", "-u", "-i", "-T", "--cmd", "-p", "-o", "-O", "-w", "-W", "-s"])

const SED_VALUED = new Set(["-e", "--expression", "-f", "--file", "-l", "--line-length"])

/** Files `sed -i` (or perl/ruby -i) edits in place; none without the in-place flag. */
const inPlaceFiles = (name: string, args: ReadonlyArray<string>): string[] => {
  const inPlace = args.some((a) => /^-[A-Za-z]*i/.test(a) || a.startsWith("--in-place"))
  if (!inPlace) return []
  const script = args.some((a) => /^-[A-Za-z]*[ef]/.test(a) || a.startsWith("--expression") || a.startsWith("--file"))
  const ops = operands(args, name === "sed" ? SED_VALUED : new Set(["-e", "-E", "-I", "-M", "-m", "-r"]))
  return script ? ops : ops.slice(1)
}

export const COPIERS = ["cp", "mv", "install", "ln", "rsync", "scp", "sponge", "tee", "sed", "perl", "ruby", "dd", "curl", "wget"]

/** Programs that write a file named by their arguments, beyond the copiers (`sort -o`, `uniq in out`, editors). */
const EXTRACTORS = ["tar", "gtar", "bsdtar", "unzip", "7z", "7za", "7zr"]
const OTHER_WRITERS = ["sort", "uniq", "patch", "history", "link", ...EDITORS, ...EXTRACTORS]

/**
 * Names an archive may hold, where other programs run them: extracting into a directory (`tar -C .git/hooks`,
 * `unzip -d ~/.config`) writes whatever names the archive holds, so each is judged as a write there.
 */
export const PLANTABLE: ReadonlyArray<string> = ["config", "pre-commit", "hooks/pre-commit", "git/config", "authorized_keys"]
/** In the home, the start-up files and ssh's keys too. */
export const PLANTABLE_HOME: ReadonlyArray<string> = [...PLANTABLE, ".bashrc", ".profile", ".ssh/authorized_keys", ".gitconfig"]
const HOME_SPELLINGS = new Set(["~", "$HOME", "${HOME}"])

/**
 * The directory an archive is extracted into (`tar -xf a -C d`, `unzip a -d d`, `7z x a -od`); "." when it extracts
 * into the current directory, null when it does not extract (listing, testing, creating).
 */
const extractDir = (name: string, args: ReadonlyArray<string>): string | null => {
  if (name === "unzip") {
    if (args.some((a) => /^-[A-Za-z]*[lptvzZ]/.test(a))) return null
    return optionValues(args, "-d", null).pop() ?? "."
  }
  if (name.startsWith("7z")) return args[0] === "x" || args[0] === "e" ? (args.find((a) => a.startsWith("-o"))?.slice(2) ?? ".") : null
  const first = args[0] ?? ""
  const extracting = args.some((a) => a === "--extract" || a === "--get" || (/^-[A-Za-z]*x/.test(a) && !a.startsWith("--"))) || (!first.startsWith("-") && first.includes("x"))
  return extracting ? (bundledValues(args, "C", "bCfFgHIKLNTVX", "--directory").pop() ?? ".") : null
}

const URL_WORD = /^[a-z][a-z0-9+.-]*:\/\//i
const CURL_LONG_VALUED = new Set(["--proxy", "--preproxy", "--referer", "--url", "--output-dir", "--config", "--header", "--data", "--user-agent"])

/** The URL operands of curl or wget (values of their options skipped). */
const urlOperands = (args: ReadonlyArray<string>, valued: string): string[] => {
  const out: string[] = []
  for (let k = 0; k < args.length; k++) {
    const a = args[k] ?? ""
    if (a.startsWith("--")) {
      if (!a.includes("=") && CURL_LONG_VALUED.has(a)) k++
      else if (a === "--url") out.push(args[++k] ?? "")
      continue
    }
    if (a.startsWith("-") && a.length > 1) {
      for (let i = 1; i < a.length; i++) {
        if (!valued.includes(a[i] ?? "")) continue
        if (i === a.length - 1) k++
        break
      }
      continue
    }
    if (URL_WORD.test(a)) out.push(a)
  }
  return out
}

/** A short flag set in a bundle before any letter that takes a value (`-fsSLO`), or its long form. */
const bundledFlag = (args: ReadonlyArray<string>, letter: string, valued: string, longs: ReadonlyArray<string>): boolean => {
  for (const a of args) {
    if (a === "--") return false
    if (longs.includes(a)) return true
    if (!a.startsWith("-") || a.startsWith("--")) continue
    for (let i = 1; i < a.length; i++) {
      if (a[i] === letter) return true
      if (valued.includes(a[i] ?? "")) break
    }
  }
  return false
}

/** The file name a download of `url` gets by default: its path's last part (wget: index.html for none). */
const remoteName = (url: string, fallback: string | null): string | null => {
  const path = url.replace(URL_WORD, "").replace(/[?#].*$/, "")
  const slash = path.indexOf("/")
  const last = slash < 0 ? "" : path.slice(path.lastIndexOf("/") + 1)
  return last !== "" ? last : fallback
}

/**
 * Where a download named by the server or the URL lands (`curl -O`, `wget URL`): in the current directory, or
 * curl's `--output-dir` / wget's `-P`. A name the server chooses (`curl -J`, `wget --content-disposition`) can be
 * anything, so it counts as every name that runs where it lands.
 */
const downloadNames = (name: "curl" | "wget", args: ReadonlyArray<string>): string[] => {
  const valued = name === "curl" ? CURL_VALUED : WGET_VALUED
  if (name === "curl" && !bundledFlag(args, "O", valued, ["--remote-name", "--remote-name-all"])) return []
  if (name === "wget" && bundledValues(args, "O", WGET_VALUED, "--output-document").length > 0) return []
  const dir = (name === "curl" ? optionValues(args, null, "--output-dir") : bundledValues(args, "P", WGET_VALUED, "--directory-prefix")).pop()
  if (serverNamed(name, args)) return dir === undefined ? [] : PLANTABLE.map((n) => `${dir.replace(/\/+$/, "")}/${n}`)
  const names = urlOperands(args, valued).flatMap((u) => {
    const n = remoteName(u, name === "wget" ? "index.html" : null)
    return n === null ? [] : [n]
  })
  return names.map((n) => (dir === undefined ? n : `${dir.replace(/\/+$/, "")}/${n}`))
}

const serverNamed = (name: "curl" | "wget", args: ReadonlyArray<string>): boolean =>
  name === "curl" ? bundledFlag(args, "J", CURL_VALUED, ["--remote-header-name"]) : args.includes("--content-disposition")

/**
 * Whether the command fills the current directory with names it does not show: extraction without a directory
 * (`tar xf a.tar`), a download named by the server (`curl -OJ`). Judged where the line's `cd` led
 * (implicitWrites.ts); with no `cd` in the line the directory is unknown and nothing is assumed.
 */
export const fillsCurrentDirectory = (c: CmdView): boolean => {
  if (!runs(c)) return false
  const args = argv(c)
  if (EXTRACTORS.includes(c.name)) return extractDir(c.name, args) === "."
  if (INPUT_NAMERS.includes(c.name)) return namedByInput(c.name, args) === "."
  if (RECURSIVE_COPIERS.has(c.name)) return recursiveCopyDestinations(c.name, args).some((d) => d === "." || d === "./")
  if (c.name === "curl") {
    return bundledFlag(args, "O", CURL_VALUED, ["--remote-name", "--remote-name-all"]) && serverNamed("curl", args) && optionValues(args, null, "--output-dir").length === 0
  }
  return c.name === "wget" && serverNamed("wget", args) && bundledValues(args, "P", WGET_VALUED, "--directory-prefix").length === 0
}

/**
 * The directories a recursive copy fills (`cp -r x/. ~`, `rsync -a x/ ~/`, `scp -r`): the names the copied tree
 * holds are not read, so every name that runs where it lands counts as written (PLANTABLE, and in the home its
 * start-up files: plantedUnder).
 */
const RECURSIVE_COPIERS = new Set(["cp", "rsync", "scp"])
export const recursiveCopyDestinations = (name: string, args: ReadonlyArray<string>): ReadonlyArray<string> => {
  const recursive = name === "rsync" || hasFlag(args, "r", "--recursive") || hasFlag(args, "R", null) || hasFlag(args, "a", "--archive")
  if (!recursive) return []
  const t = bundledValues(args, "t", "tSmog", "--target-directory")
  if (t.length > 0) return t
  const ops = operands(args, COPY_VALUED)
  return ops.length >= 2 ? [ops[ops.length - 1] ?? ""] : []
}

/** The names that run, under a directory some program fills with names it does not show. */
const plantedUnder = (dir: string): ReadonlyArray<string> => {
  const d = dir.replace(/\/+$/, "")
  if (d === "" || d === ".") return []
  return (HOME_SPELLINGS.has(d) ? PLANTABLE_HOME : PLANTABLE).map((n) => `${d}/${n}`)
}

const MODELLED = new Set(OUTPUT_WRITERS)

/** Files this command writes through its own arguments (not redirects). */
export const argumentWrites = (c: CmdView): string[] => {
  if (!runs(c)) return []
  const args = argv(c)
  const own = modelledWrites(c, args)
  if (MODELLED.has(c.name)) own.push(...outputFiles(c.name, args))
  if (RECURSIVE_COPIERS.has(c.name)) for (const d of recursiveCopyDestinations(c.name, args)) own.push(...plantedUnder(d))
  if (INPUT_NAMERS.includes(c.name)) own.push(...plantedUnder(namedByInput(c.name, args) ?? ""))
  // A program the gate does not model: the usual output options name what it writes.
  if (!WRITERS.has(c.name) && !isPureReader(c.name) && args.some(isOutputOption)) own.push(...outputOptionValues(args))
  return own
}

const modelledWrites = (c: CmdView, args: ReadonlyArray<string>): string[] => {
  switch (c.name) {
    case "cp":
    case "ln":
      return [...placedWrites(copyDestination(args)), ...hardLinkSources(c.name, args)]
    case "mv":
      return placedWrites(copyDestination(args))
    case "install":
    case "rsync":
    case "scp":
      return copyDestination(args)
    case "link":
      // `link a b`: one file, two names.
      return operands(args).slice(0, 2)
    case "tee":
    case "sponge":
      return operands(args, TEE_VALUED)
    case "sed":
    case "perl":
    case "ruby":
      return inPlaceFiles(c.name, args)
    case "dd":
      return args.filter((a) => a.startsWith("of=")).map((a) => a.slice(3))
    case "curl":
      // The body, and the headers, cookies, traces and error text it can be told to save (a URL ends up in them).
      return [
        ...bundledValues(args, "o", CURL_VALUED, "--output"), ...bundledValues(args, "D", CURL_VALUED, "--dump-header"),
        ...bundledValues(args, "c", CURL_VALUED, "--cookie-jar"), ...optionValues(args, null, "--trace"),
        ...optionValues(args, null, "--trace-ascii"), ...optionValues(args, null, "--stderr"), ...optionValues(args, null, "--libcurl"),
        ...downloadNames("curl", args)
      ]
    case "sort":
      return bundledValues(args, "o", "kotST", "--output")
    case "uniq": {
      const ops = operands(args, new Set(["-f", "-s", "-w", "--skip-fields", "--skip-chars", "--check-chars"]))
      return ops.length >= 2 ? [ops[1] ?? ""] : []
    }
    case "patch": {
      const out = optionValues(args, "-o", "--output")
      const ops = operands(args, new Set(["-p", "-i", "--input", "-o", "--output", "-d", "--directory", "-B", "-D", "-F", "-z", "-r", "-V", "-Y"]))
      return ops.length >= 1 ? [...out, ops[0] ?? ""] : out
    }
    case "history":
      return [...optionValues(args, "-w", null), ...optionValues(args, "-a", null)]
    default: {
      if (EDITORS.has(c.name)) return operands(args, EDITOR_VALUED).filter((a) => !a.startsWith("+"))
      const dir = EXTRACTORS.includes(c.name) ? extractDir(c.name, args) : null
      // "." (the current directory) is fillsCurrentDirectory's case: only what knows the directory can judge it.
      return dir === null ? [] : [...plantedUnder(dir)]
    }
    case "wget":
      // The download, and the log (`-o ~/.bashrc` writes lines holding the URL, `$(…)` and all).
      return [
        ...bundledValues(args, "O", WGET_VALUED, "--output-document"), ...bundledValues(args, "P", WGET_VALUED, "--directory-prefix"),
        ...bundledValues(args, "o", WGET_VALUED, "--output-file"), ...bundledValues(args, "a", WGET_VALUED, "--append-output"),
        ...downloadNames("wget", args)
      ]
  }
}

const WRITERS = new Set([...COPIERS, ...OTHER_WRITERS, ...OUTPUT_WRITERS, ...INPUT_NAMERS])

/** Whether the gate knows what `name` writes (so the paths it merely reads are not judged as written). */
export const modelledWriter = (name: string): boolean => WRITERS.has(name)

/** Whether the command may write through its arguments: a modelled writer, or an unmodelled one with an output option. */
const writesByArgs = (cmd: Cmd, head: number, name: string): boolean =>
  head >= 0 && (WRITERS.has(name) || (!isPureReader(name) && cmd.words.some((w, k) => k > head && isOutputOption(w.value))))
const NOTHING: ReadonlyArray<string> = []

/**
 * What a parsed command writes, outside the rule views (the judge's file tracking): `writes` reads only the words
 * and redirects, so the view carries no texts, and a command that neither redirects nor writes builds none.
 */
export const commandWrites = (cmd: Cmd, head: number, name: string): ReadonlyArray<string> =>
  cmd.redirs.length === 0 && !writesByArgs(cmd, head, name)
    ? NOTHING
    : writes({ cmd, texts: [], redirectTexts: [], base: 0, head, name })

/** The folder an extractor writes into when the command names one (`tar -C d`, `unzip -d d`, `7z x -od`). */
export const extractionDir = (name: string, args: ReadonlyArray<Word>): Word | undefined => {
  if (!EXTRACTORS.includes(name)) return undefined
  for (let i = 0; i < args.length; i++) {
    const v = args[i]?.value ?? ""
    if (name === "unzip" ? v === "-d" : v === "-C" || v === "--directory") return args[i + 1]
    if ((name.startsWith("7z") && v.startsWith("-o")) || v.startsWith("--directory=") || (name !== "unzip" && !name.startsWith("7z") && /^-C./.test(v))) return args[i]
  }
  return undefined
}

/** fillsCurrentDirectory for a command not yet in a view (the inspection's file tracking). */
export const commandFillsCurrentDirectory = (cmd: Cmd, head: number, name: string): boolean =>
  head >= 0 && (EXTRACTORS.includes(name) || INPUT_NAMERS.includes(name) || RECURSIVE_COPIERS.has(name) || name === "curl" || name === "wget") &&
  fillsCurrentDirectory({ cmd, texts: [], redirectTexts: [], base: 0, head, name })

/** Everything the command writes: redirect targets and argument destinations. */
export const writes = (c: CmdView): ReadonlyArray<string> => {
  if (c.cmd.cls !== "exec" || c.cmd.origin === "heredoc") return NOTHING
  const byArgs = writesByArgs(c.cmd, c.head, c.name)
  if (c.cmd.redirs.length === 0 && !byArgs) return NOTHING
  const r = redirectWrites(c)
  return byArgs ? [...r, ...argumentWrites(c)] : r
}
