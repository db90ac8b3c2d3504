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

const SIMPLE_ESCAPES: Readonly<Record<string, number>> = { a: 7, b: 8, e: 27, E: 27, f: 12, n: 10, r: 13, t: 9, v: 11, "\\": 92, "'": 39, "\"": 34, "?": 63 }

/**
 * bash's `$'…'` form (the quotes included), which `export -p` uses for a value with control characters: escapes
 * are decoded to bytes (`\303\251` is one UTF-8 character), the rest kept as written.
 */
const unAnsi = (quoted: string): string => {
  const body = quoted.slice(2, quoted.endsWith("'") && quoted.length > 2 ? -1 : undefined)
  const bytes: Array<number> = []
  const literal = (s: string) => bytes.push(...Buffer.from(s, "utf8"))
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!
    if (c !== "\\" || i + 1 >= body.length) {
      literal(c)
      continue
    }
    const e = body[++i]!
    const simple = SIMPLE_ESCAPES[e]
    if (simple !== undefined) bytes.push(simple)
    else if (e >= "0" && e <= "7") {
      const digits = /^[0-7]{1,3}/.exec(body.slice(i))![0]
      bytes.push(parseInt(digits, 8) & 0xff)
      i += digits.length - 1
    } else if (e === "x" && /^[0-9a-fA-F]/.test(body[i + 1] ?? "")) {
      const digits = /^[0-9a-fA-F]{1,2}/.exec(body.slice(i + 1))![0]
      bytes.push(parseInt(digits, 16))
      i += digits.length
    } else if ((e === "u" || e === "U") && /^[0-9a-fA-F]/.test(body[i + 1] ?? "")) {
      const digits = new RegExp(`^[0-9a-fA-F]{1,${e === "u" ? 4 : 8}}`).exec(body.slice(i + 1))![0]
      const code = parseInt(digits, 16)
      literal(code <= 0x10ffff ? String.fromCodePoint(code) : "")
      i += digits.length
    } else if (e === "c" && i + 1 < body.length) {
      bytes.push(body.charCodeAt(++i) & 0x1f)
    } else literal(`\\${e}`)
  }
  return Buffer.from(bytes).toString("utf8")
}

/** Whether `value` (from `$'`) has reached its closing quote: one not escaped by an odd run of backslashes. */
const ansiClosed = (value: string): boolean => /(?:^|[^\\])(?:\\\\)*'$/.test(value.slice(2))

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
    if (value.startsWith("$'")) {
      while (!ansiClosed(value) && i + 1 < lines.length) value += `\n${lines[++i] ?? ""}`
      vars[name] = unAnsi(value)
    } else if (value.startsWith('"')) {
      while (!/(?:^|[^\\])(?:\\\\)*"$/.test(value.slice(1)) && i + 1 < lines.length) value += `\n${lines[++i] ?? ""}`
      vars[name] = unDouble(value.slice(1, value.endsWith('"') ? -1 : undefined))
    } else if (value.startsWith("'")) {
      while ((value.split("'").length - 1) % 2 === 1 && i + 1 < lines.length) value += `\n${lines[++i] ?? ""}`
      vars[name] = unSingle(value)
    } else vars[name] = value
  }
  return vars
}
