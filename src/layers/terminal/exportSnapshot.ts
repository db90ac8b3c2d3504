/**
 * Reads an export snapshot back into variables: the `declare -x NAME="value"`
 * lines bash's `export -p` writes, and the `export NAME='value'` lines of a
 * first snapshot. Approval uses it to resolve a command word held in a
 * variable exported by an earlier call of the same task.
 */
import { inputRecord } from "../../lib/lookupTable.js"

const LINE = /^(?:declare -[a-zA-Z-]*x[a-zA-Z-]*|export) ([A-Za-z_][A-Za-z0-9_]*)(?:=(.*))?$/

/** bash's double-quoted form: only `\"`, `\\`, `\$` and `` \` `` are escapes. */
const unDouble = (body: string): string => body.replace(/\\([\\"$`])/g, "$1")

/** `'a'\''b'` → `a'b`. */
const unSingle = (quoted: string): string => {
  let out = ""
  let i = 0
  while (i < quoted.length) {
    if (quoted[i] === "'") {
      const end = quoted.indexOf("'", i + 1)
      if (end < 0) return out + quoted.slice(i + 1)
      out += quoted.slice(i + 1, end)
      i = end + 1
    } else if (quoted[i] === "\\" && i + 1 < quoted.length) {
      out += quoted[i + 1]
      i += 2
    } else {
      out += quoted[i]
      i++
    }
  }
  return out
}

export const parseExportSnapshot = (text: string): Record<string, string> => {
  // No prototype: an exported `__proto__` is stored as a key, not swallowed as the object's prototype.
  const vars = inputRecord<string>()
  // A value may span lines (a quoted newline): join continuation lines until the quote closes.
  const lines = text.split("\n")
  for (let i = 0; i < lines.length; i++) {
    const match = LINE.exec(lines[i] ?? "")
    if (match === null) continue
    const name = match[1] ?? ""
    let value = match[2]
    if (value === undefined) continue
    if (value.startsWith('"')) {
      while (!/(?:^|[^\\])(?:\\\\)*"$/.test(value.slice(1)) && i + 1 < lines.length) value += `\n${lines[++i] ?? ""}`
      vars[name] = unDouble(value.slice(1, value.endsWith('"') ? -1 : undefined))
    } else if (value.startsWith("'")) {
      while ((value.split("'").length - 1) % 2 === 1 && i + 1 < lines.length) value += `\n${lines[++i] ?? ""}`
      vars[name] = unSingle(value)
    } else vars[name] = value
  }
  return vars
}
