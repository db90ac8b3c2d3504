/**
 * Options that make an innocent program run another one the gate never
 * sees: `tar --to-command=./x`, `tar -I ./x`, `rsync -e ./x`,
 * `ssh -o ProxyCommand=./x`, `ssh -F ./planted.cfg`, `make SHELL=./x`,
 * `npm test --script-shell=./x`, `zip -TT ./x`, `git --git-dir=./bare`
 * (whose planted `config` is not under a `.git` directory, so writing it
 * asked nothing). A value naming a well-known program of the expected kind
 * (`tar -I zstd`, `rsync -e 'ssh -p 2222'`) stays quiet.
 */
import { D } from "../descriptions.js"
import { gitOptions } from "../gitOptions.js"
import type { CmdView } from "../ruleInput.js"
import type { Rule, RuleEnv } from "./engine.js"
import { argv, runs } from "./operands.js"
import { plainProgram } from "./programValues.js"
import { gitDir, PROGRAM_VARIABLES } from "./programVariables.js"
import { lookupTable } from "../../../../lib/lookupTable.js"

/** A value test: true when the value runs code the gate does not see (null: the option had no value). */
type Flags = (value: string | null) => boolean

const always: Flags = () => true
/** wgetrc commands (`wget -e …`) that name a file wget writes or a program it runs; `robots=off` and the like are fine. */
const wgetrcWrites: Flags = (value) =>
  /^\s*(?:output_?document|dir_?prefix|logfile|append_?output|save_?cookies|warc_?file|use_?askpass)\s*=/i.test(value ?? "")
/** A configuration file other than none at all. */
const planted: Flags = (value) => value !== "/dev/null" && value !== ""

/** A long option, the shortest prefix getopt accepts for it, and its value test. */
interface LongOption {
  readonly name: string
  readonly min: number
  readonly flags: Flags
}

const long = (name: string, shortest: string, flags: Flags): LongOption => ({ name, min: shortest.length, flags })

/** One program's options: long ones that run code, short letters that do, and every short letter taking a value. */
interface Options {
  readonly long: ReadonlyArray<LongOption>
  readonly short: Readonly<Record<string, Flags>>
  readonly valued: string
  /** The first argument may be a dash-less bundle (`tar xIf …`) whose letters take the words after it in turn. */
  readonly traditional?: boolean
  /** Options end at the first operand (the words after it are a command's: `tmux -f cfg new …`). */
  readonly operandEnds?: boolean
}

const notPlain = (kind: Parameters<typeof plainProgram>[1]): Flags => (value) => value === null || !plainProgram(value, kind)

/** ssh's `-o Key=value` keys that run a local command, or load more configuration. */
const SSH_RUNS = /^\s*(?:proxycommand|localcommand|knownhostscommand|include)\s*[= ]\s*(.*)$/is
const sshOption: Flags = (value) => {
  const m = SSH_RUNS.exec(value ?? "")
  return m !== null && (m[1] ?? "").trim().toLowerCase() !== "none"
}
/** `ssh -F file`: a configuration file may hold a ProxyCommand or `Match exec`; /dev/null (no configuration) does not. */
const sshConfig: Flags = (value) => value !== "/dev/null"

const SSH: Options = { long: [], short: { o: sshOption, F: sshConfig }, valued: "BbcDEeFIiJLlmOoPpQRSWw" }

const TAR: Options = {
  long: [
    long("--to-command", "--to-c", always),
    long("--use-compress-program", "--use", notPlain("compressor")),
    long("--info-script", "--info", always),
    long("--new-volume-script", "--new-v", always),
    long("--rsh-command", "--rsh", always),
    long("--checkpoint-action", "--checkpoint-", (v) => v === null || v.includes("exec"))
  ],
  short: { I: notPlain("compressor"), F: always },
  valued: "bCfFgHIKLNTVX",
  traditional: true
}

const NPM: Options = {
  long: [
    long("--script-shell", "--script-s", notPlain("shell")),
    long("--userconfig", "--userc", always),
    long("--globalconfig", "--globalc", always),
    long("--node-options", "--node-o", (v) => /(?:^|\s)(?:-r|--require|--import|--loader|--experimental-loader)(?:[\s=]|$)/.test(v ?? ""))
  ],
  short: {},
  valued: ""
}

/** diffutils' `--diff-program`: GNU diff itself is quiet. */
const notDiff: Flags = (value) => value === null || !/^(?:(?:\/usr)?\/bin\/)?diff$/.test(value.trim())

/** util-linux su/runuser: `-s PROG` runs PROG (with the words after the user); a plain shell is judged by what it runs. */
const SWITCH_USER: Options = { long: [long("--shell", "--sh", notPlain("shell"))], short: { s: notPlain("shell") }, valued: "cgGsuw" }

const DIFF_PROGRAM: Options = { long: [long("--diff-program", "--d", notDiff)], short: {}, valued: "ILow" }

const YT_DLP: Options = {
  long: [
    long("--exec", "--exec", always), long("--exec-before-download", "--exec-b", always), long("--netrc-cmd", "--netrc-c", always),
    long("--config-locations", "--config-l", planted), long("--plugin-dirs", "--plugin-d", always)
  ],
  short: {},
  valued: "oaPfrRS"
}

const PIP: Options = { long: [long("--python", "--pyt", always)], short: {}, valued: "rceiftdwC" }

/** An interpreter named by a path (`./x`), not a version request (`3.12`, `pypy`, `cpython@3.11`). */
const interpreterPath: Flags = (value) => value === null || value.includes("/")

const OPTIONS: Readonly<Record<string, Options>> = lookupTable({
  tar: TAR,
  gtar: TAR,
  bsdtar: TAR,
  rsync: { long: [long("--rsh", "--rsh", notPlain("rsh"))], short: { e: notPlain("rsh") }, valued: "BefMT@" },
  ssh: SSH,
  scp: { long: [], short: { ...SSH.short, S: notPlain("rsh") }, valued: "cDFiJlmoPSX" },
  sftp: { long: [], short: { ...SSH.short, S: notPlain("rsh") }, valued: "BbcDFiJlloPRSs" },
  zip: { long: [long("--unzip-command", "--unzip-c", always)], short: {}, valued: "" },
  // A config file or wgetrc command can name any output file (`output = ~/.bashrc`) the write rules never see.
  curl: { long: [long("--config", "--config", planted)], short: { K: planted }, valued: "KodeEHuUxXAbcrTwyYmz" },
  wget: { long: [long("--config", "--config", planted), long("--execute", "--execute", wgetrcWrites), long("--use-askpass", "--use-a", always)], short: { e: wgetrcWrites }, valued: "eoaOPiBTtwQUYlAD" },
  // Programs that start the program an option names, with the words after `--` as its arguments.
  capsh: { long: [long("--shell", "--shell", always)], short: {}, valued: "" },
  "start-stop-daemon": {
    long: [long("--exec", "--exec", always), long("--startas", "--startas", always)],
    short: { x: always, a: always },
    valued: "xanupcgrdNPIksR"
  },
  su: SWITCH_USER,
  runuser: SWITCH_USER,
  // Programs that run a program an option names, or read a configuration that can.
  sdiff: DIFF_PROGRAM,
  diff3: DIFF_PROGRAM,
  // A lesskey file (source or compiled) or text: its `#env` section can set LESSOPEN, a command less runs.
  less: {
    long: [long("--lesskey-src", "--lesskey-s", planted), long("--lesskey-file", "--lesskey-f", planted), long("--lesskey-content", "--lesskey-c", always)],
    short: { k: planted },
    valued: "bhjkoOpPtTxyz#D"
  },
  // `tcpdump -z CMD` runs CMD on every file it rotates (gzip and the like are quiet).
  tcpdump: { long: [], short: { z: notPlain("compressor") }, valued: "BcCEFGijmMQrsTVwWyzZ" },
  // pandoc runs JSON filters (programs) and Lua filters, and reads them from a defaults file.
  pandoc: {
    long: [long("--filter", "--filt", always), long("--lua-filter", "--lu", always), long("--defaults", "--def", planted)],
    short: { F: always, L: always, d: planted },
    valued: "frtwodFLMVABHcT"
  },
  // A tmux configuration can `run-shell`; a screenrc can start programs (`screen cmd`, `exec`).
  tmux: { long: [], short: { f: planted }, valued: "cfLST", operandEnds: true },
  screen: { long: [], short: { c: planted }, valued: "cehpsSTX", operandEnds: true },
  // rlwrap runs a filter program over everything it reads and prints.
  rlwrap: { long: [long("--filter", "--filter", always)], short: { z: always }, valued: "bCDefFHlMOPqsStwz", operandEnds: true },
  // aria2c runs hook commands on download events, and reads them from a configuration file.
  aria2c: {
    long: [
      long("--on-download-complete", "--on-download-c", always), long("--on-download-start", "--on-download-s", always),
      long("--on-download-error", "--on-download-e", always), long("--on-download-pause", "--on-download-p", always),
      long("--on-download-stop", "--on-download-sto", always), long("--on-bt-download-complete", "--on-bt", always),
      long("--conf-path", "--conf", planted)
    ],
    short: {},
    valued: "dolsxjkuiU"
  },
  // yt-dlp runs `--exec` commands and `--netrc-cmd`, and reads options (those too) and plugins from files.
  "yt-dlp": YT_DLP,
  "youtube-dl": YT_DLP,
  // bash's fc runs its -e program on the history lines, then runs what it leaves.
  fc: { long: [], short: { e: notPlain("editor") }, valued: "e" },
  // pip runs itself again under the interpreter `--python` names; uv runs a `--python` given as a path.
  pip: PIP,
  uv: { long: [long("--python", "--python", interpreterPath), long("--env-file", "--env-file", planted)], short: { p: interpreterPath }, valued: "pCw" },
  // mutt reads a muttrc (`-F`) and runs configuration commands (`-e`): `source`, a `set editor`/`sendmail` program.
  mutt: { long: [], short: { F: planted, e: always }, valued: "aAbcdDeEfFHimsQ" },
  neomutt: { long: [], short: { F: planted, e: always }, valued: "aAbcdDeEfFHimsQ" },
  npm: NPM,
  pnpm: NPM,
  yarn: NPM,
  npx: NPM
})

/** The words after a dash-less first bundle, handed to its value-taking letters in turn. */
const traditionalBundle = (o: Options, args: ReadonlyArray<string>): boolean => {
  const first = args[0] ?? ""
  if (first === "" || first.startsWith("-")) return false
  let next = 1
  for (const letter of first) {
    if (!o.valued.includes(letter)) continue
    const value = args[next++] ?? null
    if (o.short[letter]?.(value) === true) return true
  }
  return false
}

const runsProgram = (o: Options, args: ReadonlyArray<string>): boolean => {
  if (o.traditional === true && traditionalBundle(o, args)) return true
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? ""
    if (a === "--") return false
    if (a.startsWith("--")) {
      const eq = a.indexOf("=")
      const name = eq < 0 ? a : a.slice(0, eq)
      const option = o.long.find((l) => name.length >= l.min && l.name.startsWith(name))
      if (option === undefined) continue
      const value = eq >= 0 ? a.slice(eq + 1) : (args[++i] ?? null)
      if (option.flags(value)) return true
      continue
    }
    if (!a.startsWith("-") || a.length < 2) {
      if (o.operandEnds === true) return false
      continue
    }
    // In a short bundle the first value-taking letter owns the rest of it, or the next word when it is last.
    for (let k = 1; k < a.length; k++) {
      const letter = a[k] ?? ""
      if (!o.valued.includes(letter)) continue
      const value = k < a.length - 1 ? a.slice(k + 1) : (args[++i] ?? null)
      if (o.short[letter]?.(value) === true) return true
      break
    }
  }
  return false
}

/**
 * `make SHELL=…` (a command-line variable make runs every recipe with), `make CC=./x` (one its rules run), `make
 * --eval …`.
 */
const makeRuns = (args: ReadonlyArray<string>, env: RuleEnv): boolean =>
  args.some((a) => {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)\s*:{0,2}=(.*)$/s.exec(a)
    if (m === null) return a === "-E" || a.startsWith("--eval")
    const value = m[2] ?? ""
    if (m[1] === "SHELL") return !plainProgram(value, "shell")
    return PROGRAM_VARIABLES[(m[1] ?? "").toLowerCase()]?.(value, env) === true
  })

/** `go build -toolexec ./x`, `go test -exec ./x`, `go vet -vettool=./x`: go runs the program around its tools. */
const goRuns = (args: ReadonlyArray<string>): boolean => args.some((a) => /^--?(?:toolexec|exec|vettool)(?:=|$)/.test(a))

/**
 * The program git runs for the other side of a transport, by shell, on this machine when the remote is a path:
 * `git clone --upload-pack=CMD ./repo`, `fetch`/`pull`/`ls-remote` likewise, `push --receive-pack=CMD`,
 * `archive --remote=… --exec=CMD`.
 */
const GIT_TRANSPORT: Readonly<Record<string, Options>> = lookupTable({
  clone: { long: [long("--upload-pack", "--upl", always)], short: { u: always }, valued: "obcju" },
  fetch: { long: [long("--upload-pack", "--upl", always)], short: {}, valued: "jo" },
  pull: { long: [long("--upload-pack", "--upl", always)], short: {}, valued: "josX" },
  "ls-remote": { long: [long("--upload-pack", "--upl", always)], short: {}, valued: "" },
  push: { long: [long("--receive-pack", "--rece", always), long("--exec", "--e", always)], short: {}, valued: "o" },
  "send-pack": { long: [long("--receive-pack", "--rece", always), long("--exec", "--e", always)], short: {}, valued: "" },
  "fetch-pack": { long: [long("--upload-pack", "--upl", always), long("--exec", "--e", always)], short: {}, valued: "" },
  archive: { long: [long("--exec", "--e", always)], short: {}, valued: "o" }
})

/** `git --git-dir=…` among git's own options, naming a directory not called `*.git`; a transport's program option. */
const gitRuns = (args: ReadonlyArray<string>): boolean => {
  const parsed = gitOptions(args)
  if (parsed.options.some((o) => o.name === "--git-dir" && o.value !== null && gitDir(o.value))) return true
  const transport = GIT_TRANSPORT[args[parsed.sub] ?? ""]
  return transport !== undefined && runsProgram(transport, args.slice(parsed.sub + 1))
}

const COMPILER = /^(?:[\w.-]+-)?(?:gcc|g\+\+|cc|c\+\+|clang(?:\+\+)?|cpp|gfortran)(?:-[\d.]+)?$/

/**
 * `gcc -wrapper ./x,…` (runs every subprogram through ./x), `-fplugin=./p.so` / `-fpass-plugin=` / `-Xclang -load`
 * (load a library into the compiler), `-B dir` (takes cc1, as and ld from dir), `-specs=f` (a specs file can run
 * programs), `-fuse-ld=./x` / `--ld-path=` (a linker by path).
 */
const compilerRuns = (args: ReadonlyArray<string>): boolean =>
  args.some((a, i) =>
    a === "-wrapper" || a.startsWith("-fplugin=") || a.startsWith("-fpass-plugin=") || a.startsWith("-B") || /^--?specs(?:=|$)/.test(a) ||
    (a.startsWith("-fuse-ld=") && a.includes("/")) || a.startsWith("--ld-path") || (a === "-Xclang" && /^-(?:load|plugin|add-plugin)$/.test(args[i + 1] ?? ""))
  )

/** TeX engines: `--shell-escape` lets a document run `\\write18{cmd}`; latexmk also runs perl (`-e`, `-r rc`) and the commands it is given (`-pdflatex=CMD`). */
const TEX = /^(?:(?:pdf|xe|lua|e)?(?:la)?tex|(?:pdf|xe|lua|up|p)?latex(?:-dev)?|latexmk|context)$/
const texRuns = (name: string, args: ReadonlyArray<string>): boolean =>
  args.some((a) => /^--?(?:shell-escape|enable-write18)$/.test(a) || (name === "latexmk" && /^-(?:[er]$|(?:(?:pdf|lua|xe)?latex|bibtex|biber|makeindex|dvipdf|dvips|ps2pdf|usepretex)=)/.test(a)))

const test = (c: CmdView, env: RuleEnv): boolean => {
  if (!runs(c)) return false
  const name = c.name
  if (name === "make" || name === "gmake") return makeRuns(argv(c), env)
  if (name === "go") return goRuns(argv(c))
  if (COMPILER.test(name)) return compilerRuns(argv(c))
  if (name === "git") return gitRuns(argv(c))
  if (TEX.test(name)) return texRuns(name, argv(c))
  // less's initial commands (`+cmd`): `!` and `|` hand text to a shell.
  if (name === "less" && argv(c).some((a) => a.startsWith("+") && /[!|]/.test(a))) return true
  // zip's two-letter `-TT cmd` (test the archive with cmd).
  if (name === "zip" && argv(c).some((a) => a === "-TT" || a.startsWith("-TT="))) return true
  // `python3 -m pip --python ./x`: pip's own options follow the module name.
  if (PYTHON_NAME.test(name)) {
    const args = argv(c)
    const m = args.findIndex((a, i) => a === "-m" && PIP_NAME.test(args[i + 1] ?? ""))
    return m >= 0 && runsProgram(PIP, args.slice(m + 2))
  }
  const o = OPTIONS[name] ?? (PIP_NAME.test(name) ? PIP : undefined)
  return o !== undefined && runsProgram(o, argv(c))
}

const PIP_NAME = /^pip[\d.]*$/
const PYTHON_NAME = /^python[\d.]*$/

const mayRun = (name: string): boolean =>
  PIP_NAME.test(name) || PYTHON_NAME.test(name) || name === "make" || name === "gmake" || name === "go" || name === "git" || name === "zip" || COMPILER.test(name) || TEX.test(name) || OPTIONS[name] !== undefined

export const programOptionRules: ReadonlyArray<Rule> = [
  { kind: "program", description: D.programOption, only: mayRun, test: (_v, c, env) => test(c, env) }
]
