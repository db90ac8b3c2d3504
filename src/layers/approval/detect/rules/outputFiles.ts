/**
 * Files written by programs beyond the copiers: output options (`openssl -out`, `iconv -o`, `git diff --output=`),
 * names a program derives from its input (`gunzip x.gz` writes `x`), files a program's own script names (awk's
 * `print > "f"`, sed's `w f`, find's `-fprintf f`), a key pair (`ssh-keygen -f`), split pieces (`csplit -f prefix`).
 * operands.ts adds these to what a command writes, so the implicit-write rules and the judge (symlinks, the directory
 * a command starts in) see them like a redirect. The mode change that arms a planted hook (`chmod +x`) and the
 * programs that write names their input holds (`patch`, `cpio -i`) are here too, read apart.
 *
 * Self-contained (no import of operands.ts): operands.ts builds its tables from this module at load time.
 */
import { awkProgram, sedScriptEffects, sedScripts } from "../inputCommands.js"
import { gitOptions } from "../gitOptions.js"

const NONE: ReadonlyArray<string> = []

/** Values of `-x v`, `-xv` (short) and `--long v`, `--long=v`; options end at `--`. */
export const valuesOf = (args: ReadonlyArray<string>, shorts: ReadonlyArray<string>, longs: ReadonlyArray<string>): string[] => {
  const out: string[] = []
  for (let k = 0; k < args.length; k++) {
    const a = args[k] ?? ""
    if (a === "--") break
    const long = longs.find((l) => a === l || a.startsWith(`${l}=`))
    if (long !== undefined) {
      const v = a === long ? args[++k] : a.slice(long.length + 1)
      if (v !== undefined) out.push(v)
      continue
    }
    const short = shorts.find((s) => a === s || (a.startsWith(s) && !a.startsWith("--") && s.length === 2))
    if (short === undefined) continue
    const v = a === short ? args[++k] : a.slice(short.length)
    if (v !== undefined) out.push(v)
  }
  return out
}

/** Arguments that are not options, `valued` options' values skipped, `--` ending the options. */
const plainOperands = (args: ReadonlyArray<string>, valued: ReadonlySet<string>): string[] => {
  const out: string[] = []
  let options = true
  for (let k = 0; k < args.length; k++) {
    const a = args[k] ?? ""
    if (options && a === "--") options = false
    else if (options && a.length > 1 && a.startsWith("-")) {
      if (valued.has(a)) k++
    } else out.push(a)
  }
  return out
}

/** A short-option bundle (`-dc`) or a long option among the arguments. */
const flagged = (args: ReadonlyArray<string>, letters: string, longs: ReadonlyArray<string>): boolean =>
  args.some((a) => longs.includes(a) || (/^-[A-Za-z0-9]+$/.test(a) && [...letters].some((l) => a.includes(l, 1))))

// ---- generic output options ----------------------------------------------------------------------------------

/**
 * Option spellings that name an output file in most programs (`-o f`, `-of`, `-out f`, `--output=f`, `--out f`,
 * `--outfile`): for a program the gate does not model, their values count as written, so the judge follows their
 * symlinks and places relative ones where the command starts.
 */
const OUTPUT_SHORT = ["-o"]
const OUTPUT_LONG = ["--output", "--out", "--outfile", "--output-file", "-out", "-outfile", "-output", "--out-file", "-keyout"]

/** Cheap pre-check: the argument may be one of those options. */
export const isOutputOption = (a: string): boolean => a.startsWith("-o") || a.startsWith("--o") || a.startsWith("-keyout")

export const outputOptionValues = (args: ReadonlyArray<string>): string[] => valuesOf(args, OUTPUT_SHORT, OUTPUT_LONG)

// ---- decompressors ------------------------------------------------------------------------------------------

/** Programs that decompress by default, and those that do with `-d`/`--decompress`/`--uncompress`. */
const DECOMPRESSORS = new Set(["gunzip", "unxz", "unlzma", "bunzip2", "unzstd", "unlz4", "uncompress", "unpigz", "lunzip", "unlzip", "unbrotli"])
const COMPRESSORS = new Set(["gzip", "pigz", "xz", "lzma", "bzip2", "pbzip2", "lbzip2", "zstd", "pzstd", "lz4", "lzop", "lzip", "plzip", "brotli", "compress", "lrzip"])
const COMPRESSED_SUFFIX = /(?:\.(?:gz|z|xz|lzma|bz2|bz|zst|zstd|lz4|lzo|lz|br|Z|lrz)|-gz|_z|-z)$/i
const TGZ = /\.(?:tgz|taz)$/i

/** The file a decompressor writes for `input`: the name without its suffix (`-S suf` adds one), `x.tgz` → `x.tar`. */
const decompressedName = (input: string, suffixes: ReadonlyArray<string>): string | null => {
  for (const s of suffixes) if (s !== "" && input.endsWith(s) && input.length > s.length) return input.slice(0, -s.length)
  if (TGZ.test(input)) return input.replace(TGZ, ".tar")
  const stripped = input.replace(COMPRESSED_SUFFIX, "")
  return stripped !== input && stripped !== "" ? stripped : null
}

const DECOMPRESSOR_VALUED = new Set(["-S", "--suffix", "-o", "--output", "-T", "--threads", "-b", "-B", "-D", "--dict", "-M", "--memory", "-F", "--format"])

const decompressed = (name: string, args: ReadonlyArray<string>): ReadonlyArray<string> => {
  const decompressing = DECOMPRESSORS.has(name) || flagged(args, "d", ["--decompress", "--uncompress"])
  const explicit = valuesOf(args, ["-o"], ["--output"])
  // Writes to standard output, or only tests / lists.
  if (flagged(args, "ctl", ["--stdout", "--to-stdout", "--test", "--list"])) return explicit
  const ops = plainOperands(args, DECOMPRESSOR_VALUED)
  // lz4 and lzop take `input output` as two operands (`lz4 -d x.lz4 out`).
  if ((name === "lz4" || name === "unlz4" || name === "lzop") && ops.length === 2 && !args.includes("-m") && !args.includes("--multiple")) {
    return [...explicit, ops[1] ?? ""]
  }
  if (!decompressing) return explicit
  const suffixes = valuesOf(args, ["-S"], ["--suffix"])
  // `-r` walks a directory: every file under it is written, so the directory counts as the written name.
  const recursive = flagged(args, "r", ["--recursive"])
  const out = [...explicit]
  for (const op of ops) {
    const n = decompressedName(op, suffixes)
    if (n !== null) out.push(n)
    else if (recursive) out.push(op)
  }
  return out
}

// ---- script outputs -----------------------------------------------------------------------------------------

const AWK_STRING = /"(?:[^"\\]|\\.)*"/g

/** An awk string literal's text (its common escapes). */
const awkLiteral = (literal: string): string => literal.slice(1, -1).replace(/\\(.)/g, (_m, ch: string) => (ch === "n" ? "\n" : ch === "t" ? "\t" : ch))

/** Where an awk `print`/`printf` sends its output: literal file names, and whether some target is computed. */
export interface AwkOutputs {
  readonly files: ReadonlyArray<string>
  readonly computed: boolean
}

/**
 * awk's output redirections: in a `print` or `printf` statement, a `>` or `>>` outside parentheses sends the output
 * to the file the expression after it names (`print $1 > 5` writes the file "5"; a comparison has to be
 * parenthesised). A target that is one string literal is a file name; anything else is computed when it runs.
 */
export const awkOutputs = (program: string): AwkOutputs => {
  if (!program.includes(">")) return { files: [], computed: false }
  const literals: string[] = []
  // Strings set aside (`">"` inside one is no redirect), each replaced by a placeholder naming it.
  const bare = program.replace(AWK_STRING, (s) => `\u0001${literals.push(s) - 1}\u0002`)
  const files: string[] = []
  let computed = false
  for (const m of bare.matchAll(/\bprintf?\b/g)) {
    let depth = 0
    for (let i = (m.index ?? 0) + m[0].length; i < bare.length; i++) {
      const ch = bare[i] ?? ""
      if (ch === "(") depth++
      else if (ch === ")") depth--
      else if (depth <= 0 && (ch === ";" || ch === "}" || ch === "\n")) break
      else if (depth <= 0 && ch === ">") {
        const from = bare[i + 1] === ">" ? i + 2 : i + 1
        const end = bare.slice(from).search(/[;}\n]/)
        const target = bare.slice(from, end < 0 ? bare.length : from + end).trim()
        const lit = /^\u0001(\d+)\u0002$/.exec(target)
        if (lit !== null) files.push(awkLiteral(literals[Number(lit[1])] ?? "\"\""))
        else computed = true
        break
      }
    }
  }
  return { files, computed }
}

export const AWKS: ReadonlySet<string> = new Set(["awk", "gawk", "mawk", "nawk", "busybox-awk"])

/** gawk's in-place extension (`-i inplace`, `--include=inplace`): the input files are rewritten. */
const awkInPlace = (args: ReadonlyArray<string>): boolean =>
  valuesOf(args, ["-i"], ["--include"]).some((v) => v === "inplace" || v === "inplace.awk")

const awkWrites = (args: ReadonlyArray<string>): ReadonlyArray<string> => {
  const program = awkProgram(args)
  const out = program === null ? [] : [...awkOutputs(program.text).files]
  if (awkInPlace(args) && program !== null) out.push(...args.slice(program.arg + 1).filter((a) => !a.startsWith("-") && !/^[A-Za-z_]\w*=/.test(a)))
  return out
}

/** Whether awk's program sends output to a file it only names when it runs (`print > $1`). */
export const awkComputedOutput = (name: string, args: ReadonlyArray<string>): boolean => {
  if (!AWKS.has(name)) return false
  const program = awkProgram(args)
  return program !== null && awkOutputs(program.text).computed
}

const sedWrites = (args: ReadonlyArray<string>): ReadonlyArray<string> => sedScripts(args).flatMap((s) => sedScriptEffects(s.text).writes)

/** find's actions that write a file (`-fprint f`, `-fprintf f format`, `-fls f`, `-fprint0 f`). */
const FIND_WRITERS = new Set(["-fprint", "-fprint0", "-fprintf", "-fls"])
const findWrites = (args: ReadonlyArray<string>): ReadonlyArray<string> => {
  const out: string[] = []
  for (let k = 0; k < args.length - 1; k++) if (FIND_WRITERS.has(args[k] ?? "")) out.push(args[k + 1] ?? "")
  return out
}

// ---- other programs with their own output conventions ----------------------------------------------------------

const ZIP_VALUED = new Set(["-b", "-n", "-t", "-tt", "-x", "-i", "-P", "--password", "-Z", "--out", "-O", "-TT", "--unzip-command", "-s", "-sp"])
const XXD_VALUED = new Set(["-c", "-cols", "-g", "-groupsize", "-l", "-len", "-s", "-seek", "-o", "-offset", "-n", "-name"])

/** git subcommands whose `-o` is an output (file or folder), besides every subcommand's `--output`. */
const GIT_O_OUTPUT = new Set(["archive", "format-patch", "bundle"])
const GIT_CONFIG_READS = ["--get", "--get-all", "--get-regexp", "--get-urlmatch", "--list", "-l", "--show-origin", "--show-scope", "--name-only", "--get-color", "--get-colorbool", "get", "list"]

const gitWrites = (args: ReadonlyArray<string>): ReadonlyArray<string> => {
  const { sub } = gitOptions(args)
  const name = args[sub] ?? ""
  const rest = args.slice(sub + 1)
  const out = valuesOf(rest, GIT_O_OUTPUT.has(name) ? ["-o"] : [], ["--output", "--output-directory"])
  if (name === "bundle" && rest[0] === "create" && rest[1] !== undefined) out.push(rest[1])
  // `git config -f file key value` writes that file in git's syntax (a start-up file so written runs its lines).
  if (name === "config" && !rest.some((a) => GIT_CONFIG_READS.includes(a))) out.push(...valuesOf(rest, ["-f"], ["--file"]))
  return out
}

/** ssh-keygen writes `-f file` (and `file.pub`) unless it only reads or prints (fingerprint, public key, search, export). */
const sshKeygenWrites = (args: ReadonlyArray<string>): ReadonlyArray<string> => {
  if (flagged(args, "lyBeDLQF", [])) return NONE
  return valuesOf(args, ["-f"], []).flatMap((f) => [f, `${f}.pub`])
}

/**
 * A mode that lets the file run (`+x`, `a=rwx`, `755`, `--reference=f`): a hook or a program on PATH only runs once
 * executable, so making one so arms what was planted.
 */
const addsExecute = (mode: string): boolean => {
  if (/^[0-7]{1,4}$/.test(mode)) return /[1357]/.test(mode.slice(-3))
  return /[+=][rwxXst]*[xX]/.test(mode)
}

const CHMOD_VALUED = new Set(["--reference"])

/**
 * The files `chmod` makes executable. Not a write of their text (a shell-level write list would treat names xargs
 * fills in as computed targets), so the implicit-write rules read it apart: a hook made executable runs.
 */
export const armedFiles = (name: string, args: ReadonlyArray<string>): ReadonlyArray<string> => {
  if (name !== "chmod") return NONE
  const ops = plainOperands(args, CHMOD_VALUED)
  const reference = args.some((a) => a.startsWith("--reference"))
  if (reference) return ops
  // `chmod -x f` reads as an option, and only takes a permission away.
  return addsExecute(ops[0] ?? "") ? ops.slice(1) : NONE
}

/** split/csplit write pieces named by a prefix (`split f .git/hooks/x` writes `.git/hooks/xaa`…): the prefix counts. */
const SPLIT_VALUED = new Set(["-a", "-b", "-C", "-l", "-n", "-t", "--suffix-length", "--bytes", "--line-bytes", "--lines", "--number", "--separator", "--additional-suffix", "--filter"])
const splitWrites = (name: string, args: ReadonlyArray<string>): ReadonlyArray<string> => {
  if (name === "csplit") return [...valuesOf(args, ["-f"], ["--prefix"]), "xx"]
  const ops = plainOperands(args, SPLIT_VALUED)
  return [ops[1] ?? "x"]
}

/**
 * Programs whose operands are inputs and whose output options are these few. Programs with many output options
 * (openssl's `-out`, `-keyout`, `-sess_out`…, gpg's) are left unmodelled: every path they are given counts.
 */
const OWN_OUTPUT: Readonly<Record<string, { readonly shorts: ReadonlyArray<string>; readonly longs: ReadonlyArray<string> }>> = Object.freeze(
  Object.assign(Object.create(null) as Record<string, { readonly shorts: ReadonlyArray<string>; readonly longs: ReadonlyArray<string> }>, {
    iconv: { shorts: ["-o"], longs: ["--output"] },
    shuf: { shorts: ["-o"], longs: ["--output"] },
    sdiff: { shorts: ["-o"], longs: ["--output"] },
    msgfmt: { shorts: ["-o"], longs: ["--output-file"] },
    msgcat: { shorts: ["-o"], longs: ["--output-file"] },
    msgmerge: { shorts: ["-o"], longs: ["--output-file"] },
    base64: { shorts: ["-o"], longs: ["--output"] },
    uudecode: { shorts: ["-o"], longs: ["--output-file"] },
    // ssh's log file (`-E f`): its lines hold text the command chose (a host name, an option).
    ssh: { shorts: ["-E"], longs: [] },
    // less's log file: on a terminal it copies a piped input there whole (`… | less -o .git/hooks/pre-commit`).
    less: { shorts: ["-o", "-O"], longs: ["--log-file", "--LOG-FILE"] }
  })
)

/** Programs whose written files this module knows (operands.ts treats them as writers). */
export const OUTPUT_WRITERS: ReadonlyArray<string> = [
  ...DECOMPRESSORS, ...COMPRESSORS, ...AWKS, "sed", "gsed", "find", "xxd", "git", "ssh-keygen", "split", "csplit", "zip", ...Object.keys(OWN_OUTPUT)
]

/** Files `name` writes through its arguments, for the programs of OUTPUT_WRITERS. */
export const outputFiles = (name: string, args: ReadonlyArray<string>): ReadonlyArray<string> => {
  if (DECOMPRESSORS.has(name) || COMPRESSORS.has(name)) return decompressed(name, args)
  if (AWKS.has(name)) return awkWrites(args)
  const own = OWN_OUTPUT[name]
  if (own !== undefined) return valuesOf(args, own.shorts, own.longs)
  switch (name) {
    case "sed":
    case "gsed":
      return sedWrites(args)
    case "find":
      return findWrites(args)
    case "xxd": {
      const ops = plainOperands(args, XXD_VALUED)
      return ops.length >= 2 ? [ops[1] ?? ""] : NONE
    }
    case "git":
      return gitWrites(args)
    case "ssh-keygen":
      return sshKeygenWrites(args)
    case "split":
    case "csplit":
      return splitWrites(name, args)
    case "zip": {
      // The archive is the first operand (a start-up file's name gets zip's bytes).
      const first = plainOperands(args, ZIP_VALUED)[0]
      return first === undefined ? valuesOf(args, [], ["--out"]) : [first, ...valuesOf(args, [], ["--out"])]
    }
    default:
      return NONE
  }
}

// ---- programs that write names their input holds -------------------------------------------------------------

/**
 * Programs that write files their input names, which the gate does not read: `patch` (the diff's file names),
 * `cpio -i`, `ar x`, `uudecode` (the name in its `begin` line). Where they start, any name may land, as when an
 * archive is extracted there; "." is the current directory, null when they write nothing so (a dry run, `-o`).
 */
export const namedByInput = (name: string, args: ReadonlyArray<string>): string | null => {
  switch (name) {
    case "patch":
      if (args.some((a) => a === "--dry-run" || a === "-C" || a === "--check") || valuesOf(args, ["-o"], ["--output"]).length > 0) return null
      return valuesOf(args, ["-d"], ["--directory"]).pop() ?? "."
    case "cpio":
      if (!flagged(args, "ip", ["--extract", "--pass-through"])) return null
      if (flagged(args, "p", ["--pass-through"])) return plainOperands(args, new Set(["-D", "--directory", "-H", "--format", "-E", "-F", "-I", "-O", "-R", "-M"]))[0] ?? "."
      return valuesOf(args, ["-D"], ["--directory"]).pop() ?? "."
    case "ar":
      return /^-?[A-Za-z]*x/.test(args[0] ?? "") ? (valuesOf(args, [], ["--output"]).pop() ?? ".") : null
    case "uudecode":
      return valuesOf(args, ["-o"], ["--output-file"]).length > 0 ? null : "."
    default:
      return null
  }
}

export const INPUT_NAMERS: ReadonlyArray<string> = ["patch", "cpio", "ar", "uudecode"]
