/**
 * Words whose text a shell reads again as commands after this line has
 * expanded them: `eval`'s arguments, a `trap` action, what `watch`, tmux or
 * screen run, `mapfile -C`'s callback, `compgen -W`'s word list (expanded
 * when it runs) and `-C` command, an ssh remote command, an alias's text.
 * A variable or command output there (`x=$(cat f); eval echo $x`) is code
 * only known when the command runs, wherever it stands in the text.
 */

/** Programs some of whose arguments are read again as shell text. */
export const CODE_TEXT_PROGRAMS: ReadonlySet<string> = new Set([
  "eval", "trap", "watch", "mapfile", "readarray", "compgen", "tmux", "screen", "ssh", "alias"
])

const WATCH_VALUED = new Set(["-n", "--interval", "-d", "--differences", "-q", "--equexit", "--shell"])

/**
 * The index of the action in `trap [--] action signal…` (args after `trap`), or -1: a listing (`-p`, `-l`), a
 * reset (`-`), an ignore (`''`) or no signal.
 */
export const trapActionIndex = (args: ReadonlyArray<string>): number => {
  const k = args[0] === "--" ? 1 : 0
  if (k === 0 && (args[0] ?? "").startsWith("-") && args[0] !== "-") return -1
  const text = args[k]
  return text === undefined || text === "" || text === "-" || k + 1 >= args.length ? -1 : k
}

/** Where the command `watch [options] command…` runs starts (args after `watch`), or -1. */
export const watchCommandStart = (args: ReadonlyArray<string>): number => {
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? ""
    if (a === "--") return i + 1 < args.length ? i + 1 : -1
    if (!a.startsWith("-")) return i
    if (WATCH_VALUED.has(a)) i++
  }
  return -1
}
/** ssh's options that take a value (the next word, or the rest of the bundle). */
const SSH_VALUED = "BbcDEeFIiJLlmOopQRSWw"

const range = (from: number, to: number): Array<number> => Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i)

/** The indexes of the values of option `flag` (`-C cb`, or `-Ccb` whole). */
const optionValue = (args: ReadonlyArray<string>, flag: string): Array<number> => {
  const out: Array<number> = []
  args.forEach((a, i) => {
    if (a === flag && i + 1 < args.length) out.push(i + 1)
    else if (a.startsWith(flag) && a.length > flag.length && !a.startsWith("--")) out.push(i)
  })
  return out
}

/** The remote command of `ssh [options] host command…`: the words after the host. */
const sshCommand = (args: ReadonlyArray<string>): Array<number> => {
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? ""
    if (a === "--") return range(i + 2, args.length)
    if (!a.startsWith("-") || a === "-") return range(i + 1, args.length)
    const letter = a.slice(1).split("").findIndex((c) => SSH_VALUED.includes(c))
    // A value-taking letter last in its bundle takes the next word.
    if (letter >= 0 && letter === a.length - 2) i++
  }
  return []
}

/** Indexes (into `args`, the words after the program) of the words read again as shell text. */
export const codeWordIndexes = (name: string, args: ReadonlyArray<string>): ReadonlyArray<number> => {
  switch (name) {
    case "eval":
    case "tmux":
    case "screen":
    case "alias":
      return range(0, args.length)
    case "trap": {
      const k = trapActionIndex(args)
      return k < 0 ? [] : [k]
    }
    case "watch": {
      const from = watchCommandStart(args)
      return from < 0 ? [] : range(from, args.length)
    }
    case "mapfile":
    case "readarray":
      return optionValue(args, "-C")
    case "compgen":
      return [...optionValue(args, "-W"), ...optionValue(args, "-C")]
    case "ssh":
      return sshCommand(args)
    default:
      return []
  }
}
