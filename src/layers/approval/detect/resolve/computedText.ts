/**
 * Text the shell would compute without running anything outside itself:
 * what `echo` / `printf` print (escapes decoded), base64, `tr` and `rev`
 * of literal text, shell quoting for re-rendered commands, and glob
 * patterns as regular expressions (for `${x#pat}` and friends).
 */
import { lookupTable } from "../../../../lib/lookupTable.js"

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = lookupTable({
  a: "\x07", b: "\b", e: "\x1b", E: "\x1b", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v", "\\": "\\", '"': '"', "'": "'"
})

/**
 * Backslash escapes as printf's format (`octal0`: false, `\NNN`) or `%b` /
 * `echo -e` (`octal0`: true, `\0NNN`, and `\NNN` too) decode them. `\c`
 * stops the output: `stop` is set.
 */
export const decodeEscapes = (s: string, octal0: boolean): { readonly text: string; readonly stop: boolean } => {
  if (!s.includes("\\")) return { text: s, stop: false }
  let out = ""
  for (let i = 0; i < s.length; i++) {
    const c = s[i] ?? ""
    if (c !== "\\" || i + 1 >= s.length) {
      out += c
      continue
    }
    const e = s[i + 1] ?? ""
    if (e === "c" && octal0) return { text: out, stop: true }
    if (e === "x") {
      const hex = /^[0-9a-fA-F]{1,2}/.exec(s.slice(i + 2, i + 4))
      if (hex !== null) {
        out += String.fromCharCode(parseInt(hex[0], 16))
        i += 1 + hex[0].length
        continue
      }
    }
    if (e === "u" || e === "U") {
      const hex = new RegExp(`^[0-9a-fA-F]{1,${e === "u" ? 4 : 8}}`).exec(s.slice(i + 2))
      if (hex !== null) {
        const code = parseInt(hex[0], 16)
        out += code <= 0x10ffff ? String.fromCodePoint(code) : ""
        i += 1 + hex[0].length
        continue
      }
    }
    const oct = /^[0-7]{1,3}/.exec(s.slice(octal0 && e === "0" ? i + 2 : i + 1, octal0 && e === "0" ? i + 5 : i + 4))
    if (oct !== null) {
      out += String.fromCharCode(parseInt(oct[0], 8) & 0xff)
      i += oct[0].length + (octal0 && e === "0" ? 1 : 0)
      continue
    }
    const simple = SIMPLE_ESCAPES[e]
    if (simple !== undefined) {
      out += simple
      i++
      continue
    }
    out += c
  }
  return { text: out, stop: false }
}

const CONVERSION = /%([-+ #0]*)(\d*|\*)(?:\.(\d*|\*))?([sbcdiouxXeEfFgGq%])/g

/** printf FORMAT ARGS…: the format is reused while arguments remain, as in bash. Null when it cannot tell. */
export const printfOutput = (args: ReadonlyArray<string>): string | null => {
  const [format, ...rest] = args
  if (format === undefined) return null
  const decoded = decodeEscapes(format, false)
  let out = ""
  let k = 0
  for (let round = 0; round < 64; round++) {
    let used = false
    let stop = false
    let failed = false
    const text = decoded.text.replace(CONVERSION, (_all, flags: string, width: string, prec: string | undefined, conv: string) => {
      if (conv === "%") return "%"
      if (width === "*" || prec === "*") {
        failed = true
        return ""
      }
      const arg = rest[k] ?? ""
      if (k < rest.length) used = true
      k++
      let v: string
      // A precision cuts a string to that many characters (`%.1s` of `rx` is `r`).
      const cut = (s: string): string => (prec === undefined ? s : s.slice(0, Number(prec || "0")))
      // `%q` quotes what the shell would read specially: only a plain word is known to print as itself.
      if (conv === "q" && !/^[A-Za-z0-9_./:=@%^,+-]+$/.test(arg)) failed = true
      // A precision or `%c` counts characters (bytes in the C locale), not UTF-16 units: not worked out on non-ASCII.
      if ((prec !== undefined || conv === "c") && /[^\x00-\x7f]/.test(arg)) failed = true
      if (conv === "s" || conv === "q") v = cut(arg)
      else if (conv === "b") {
        const r = decodeEscapes(arg, true)
        if (r.stop) stop = true
        v = cut(r.text)
      } else if (conv === "c") v = arg.slice(0, 1)
      else if ((conv === "d" || conv === "i" || conv === "u") && prec === undefined && !flags.includes("0") && !flags.includes("+") && !flags.includes(" ")) {
        const n = arg === "" ? 0 : /^-?\d+$/.test(arg) && !/^-?0\d/.test(arg) ? Number(arg) : /^'./.test(arg) ? arg.charCodeAt(1) : NaN
        if (Number.isNaN(n) || !Number.isSafeInteger(n)) failed = true
        v = String(n)
      } else {
        // Other conversions and number formats (padding zeros, signs, octal and hex input): not worked out here.
        failed = true
        v = ""
      }
      const w = Number(width || "0")
      return v.length >= w ? v : flags.includes("-") ? v.padEnd(w) : v.padStart(w)
    })
    if (failed) return null
    out += text
    if (stop || decoded.stop || !used || k >= rest.length) break
  }
  return out
}

const ECHO_FLAGS = /^-[neE]+$/

/** What `echo ARGS…` may print: bash's echo leaves escapes alone, sh's (dash) decodes them; both when they differ. */
export const echoOutputs = (args: ReadonlyArray<string>): ReadonlyArray<string> => {
  let i = 0
  let newline = true
  let escapes: boolean | null = null
  while (i < args.length && ECHO_FLAGS.test(args[i] ?? "")) {
    const flags = args[i] ?? ""
    if (flags.includes("n")) newline = false
    if (flags.includes("e")) escapes = true
    if (flags.includes("E")) escapes = false
    i++
  }
  const text = args.slice(i).join(" ")
  const end = newline ? "\n" : ""
  const plain = text + end
  if (escapes === false || !text.includes("\\")) return [plain]
  const decoded = decodeEscapes(text, true)
  const interpreted = decoded.stop ? decoded.text : decoded.text + end
  return escapes === true ? [interpreted] : [plain, interpreted]
}

const BASE64 = /^[A-Za-z0-9+/=_\-\s]*$/

export const base64Decode = (s: string): string | null => {
  if (!BASE64.test(s)) return null
  return Buffer.from(s.replace(/\s+/g, ""), "base64").toString("latin1")
}

export const hexDecode = (s: string): string | null => {
  const clean = s.replace(/\s+/g, "")
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(clean)) return null
  return Buffer.from(clean, "hex").toString("latin1")
}

/** `a-z` ranges and `\n`-style escapes of a tr set. */
const trSet = (set: string): string | null => {
  if (set.includes("[:") || set.includes("[=")) return null
  const s = decodeEscapes(set, false).text
  let out = ""
  for (let i = 0; i < s.length; i++) {
    const a = s.charCodeAt(i)
    if (s[i + 1] === "-" && i + 2 < s.length) {
      const b = s.charCodeAt(i + 2)
      if (b < a || b - a > 256) return null
      for (let c = a; c <= b; c++) out += String.fromCharCode(c)
      i += 2
    } else out += s[i]
  }
  return out
}

/** `tr SET1 SET2` without options; null for anything else. */
export const trMap = (text: string, from: string, to: string): string | null => {
  // GNU tr maps bytes: `tr é rm` maps é's two bytes to r and m. Only ASCII is mapped alike here.
  if (/[^\x00-\x7f]/.test(text + from + to)) return null
  const a = trSet(from)
  const b = trSet(to)
  if (a === null || b === null || b.length === 0 || /[^\x00-\x7f]/.test(a + b)) return null
  const map = new Map<string, string>()
  for (let i = 0; i < a.length; i++) map.set(a[i] ?? "", b[Math.min(i, b.length - 1)] ?? "")
  let out = ""
  for (const c of text) out += map.get(c) ?? c
  return out
}

export const reverseLines = (text: string): string =>
  text
    .split("\n")
    .map((l) => [...l].reverse().join(""))
    .join("\n")

const SAFE = /^[A-Za-z0-9@%+=:,./_-]+$/

/** One shell word that reads back as exactly `s`. */
export const shellQuote = (s: string): string => (s === "" ? "''" : SAFE.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`)

const LIT_SPECIAL = /[\s;&|<>()$`\\"'#]/g
const EXPANDED_SPECIAL = /[;&|<>()$`\\"'#{}~=!]/g

/** Unquoted literal text, re-rendered: shell syntax escaped, globs kept (they were live). */
export const escapeLiteral = (s: string): string =>
  s.includes("\n") ? s.split("\n").map(escapeLiteral).join("$'\\n'") : s.replace(LIT_SPECIAL, "\\$&")

/**
 * An unquoted expansion result, re-rendered so that it splits on `ifs` and
 * globs again but is never read as syntax (operators, quotes, braces, `~`).
 */
export const escapeExpanded = (s: string, ifs: string): string => {
  let out = ""
  let pendingSpace = false
  for (const c of s) {
    if (ifs.includes(c)) {
      pendingSpace = true
      continue
    }
    if (pendingSpace && out !== "") out += " "
    pendingSpace = false
    out += c.replace(EXPANDED_SPECIAL, "\\$&")
  }
  // Leading / trailing separators still split the word from its neighbours.
  const lead = s.length > 0 && ifs.includes(s[0] ?? "") ? " " : ""
  const trail = pendingSpace && out !== "" ? " " : ""
  return lead + out + trail
}

/** A shell pattern (`*`, `?`, `[…]`) as a regex source. */
export const globSource = (pat: string, lazy: boolean): string => {
  let out = ""
  for (let i = 0; i < pat.length; i++) {
    const c = pat[i] ?? ""
    if (c === "*") out += lazy ? "[\\s\\S]*?" : "[\\s\\S]*"
    else if (c === "?") out += "[\\s\\S]"
    else if (c === "[") {
      const close = pat.indexOf("]", i + 2)
      if (close < 0) out += "\\["
      else {
        let body = pat.slice(i + 1, close)
        if (body.startsWith("!")) body = `^${body.slice(1)}`
        out += `[${body.replace(/\\/g, "\\\\")}]`
        i = close
      }
    } else if (c === "\\" && i + 1 < pat.length) {
      out += (pat[i + 1] ?? "").replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")
      i++
    } else out += c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")
  }
  return out
}

/** `*`, `?` or a closed `[…]`: the word is a pathname pattern. */
export const hasGlob = (s: string): boolean => {
  if (s.includes("*") || s.includes("?")) return true
  const open = s.indexOf("[")
  return open >= 0 && s.indexOf("]", open + 2) > 0
}
