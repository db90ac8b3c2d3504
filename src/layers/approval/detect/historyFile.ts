/**
 * Where bash saves its history: `history -a` and `history -w` with no file name write `$HISTFILE`, and an
 * interactive bash writes it on exit. The write is handed back as `history -w <file>`, so the value the line or the
 * task's exports give HISTFILE is judged as a write target (unknown in a persistent shell that may hold one: asks).
 * Unset, bash writes ~/.bash_history, which nothing runs.
 */

/** `-a`, `-w` (alone or among other letters) without an operand after them. */
const writesDefault = (args: ReadonlyArray<string>): boolean => {
  let writes = false
  for (const a of args) {
    if (a === "--") continue
    if (/^-[a-zA-Z]+$/.test(a)) {
      if (/[aw]/.test(a)) writes = true
      continue
    }
    // An operand names the file (operands.ts judges it).
    return false
  }
  return writes
}

const SHELLS = new Set(["bash", "sh", "rbash"])

/** A bash run as an interactive shell (`bash -i`, `bash --norc -i < f`): it saves its history on exit. */
const interactiveShell = (name: string, args: ReadonlyArray<string>, assigned: boolean): boolean => {
  if (!SHELLS.has(name)) return false
  let i = 0
  for (; i < args.length; i++) {
    const a = args[i] ?? ""
    if (a === "--" || !a.startsWith("-") && !a.startsWith("+")) break
    if (/^-[a-zA-Z]*i/.test(a) || a === "--interactive") return true
    if (/^-[a-zA-Z]*c/.test(a)) return false
    if (a === "--rcfile" || a === "--init-file" || a === "-o" || a === "+o" || a === "-O" || a === "+O") i++
  }
  // Reading commands from standard input with HISTFILE set on the command: interactive when that is a terminal.
  return assigned && i >= args.length
}

/**
 * The history write a command makes to a file it does not name, as shell text (`history -w "$HISTFILE"`), or null.
 * `before` are the words before the program (prefix assignments, `env X=…`): a HISTFILE assigned there is the one
 * the interactive shell uses.
 */
export const historyFileWrite = (name: string, args: ReadonlyArray<string>, before: ReadonlyArray<{ readonly raw: string }>): string | null => {
  if (name === "history" || name === "fc") return name === "history" && writesDefault(args) ? "history -w \"$HISTFILE\"" : null
  const assignment = [...before].reverse().find((w) => /^HISTFILE=/.test(w.raw))
  if (!interactiveShell(name, args, assignment !== undefined)) return null
  return assignment === undefined ? "history -w \"$HISTFILE\"" : `history -w ${assignment.raw.slice("HISTFILE=".length) || "''"}`
}
