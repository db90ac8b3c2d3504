/**
 * Brace expansion on a word as written (bash does it first, before any
 * other expansion, and never inside quotes or `${…}`): `{rm,-rf,/}` is
 * three words, `r{m,x}` two, `{1..3}` three.
 */

export const MAX_BRACE_WORDS = 32

const SEQUENCE = /^(-?\d+|[A-Za-z])\.\.(-?\d+|[A-Za-z])(?:\.\.(-?\d+))?$/

/** Index after the quoted or expansion construct starting at `i`, or `i` when there is none. */
const skipConstruct = (s: string, i: number): number => {
  const c = s[i]
  if (c === "\\") return i + 2
  if (c === "'") {
    const close = s.indexOf("'", i + 1)
    return close < 0 ? s.length : close + 1
  }
  if (c === '"') {
    for (let j = i + 1; j < s.length; j++) {
      if (s[j] === "\\") j++
      else if (s[j] === '"') return j + 1
    }
    return s.length
  }
  if (c === "`") {
    for (let j = i + 1; j < s.length; j++) {
      if (s[j] === "\\") j++
      else if (s[j] === "`") return j + 1
    }
    return s.length
  }
  if (c === "$" && (s[i + 1] === "{" || s[i + 1] === "(")) {
    const open = s[i + 1] ?? ""
    const close = open === "{" ? "}" : ")"
    let depth = 0
    for (let j = i + 1; j < s.length; j++) {
      const d = s[j]
      if (d === "\\") j++
      else if (d === "'" || d === '"') j = skipConstruct(s, j) - 1
      else if (d === open) depth++
      else if (d === close && --depth === 0) return j + 1
    }
    return s.length
  }
  if (c === "$" && s[i + 1] === "'") return skipConstruct(s, i + 1)
  return i
}

const sequence = (body: string): ReadonlyArray<string> | null => {
  const m = SEQUENCE.exec(body)
  if (m === null) return null
  const [, a = "", b = "", stepText] = m
  const numeric = /\d/.test(a)
  if (numeric !== /\d/.test(b)) return null
  const from = numeric ? Number(a) : a.charCodeAt(0)
  const to = numeric ? Number(b) : b.charCodeAt(0)
  const step = Math.abs(Number(stepText ?? "1")) || 1
  if (Math.abs(to - from) / step >= MAX_BRACE_WORDS) return null
  const out: string[] = []
  const dir = to >= from ? 1 : -1
  for (let v = from; dir > 0 ? v <= to : v >= to; v += dir * step) out.push(numeric ? String(v) : String.fromCharCode(v))
  return out
}

/** The first expandable `{…}` in `s`: where it is and what it yields. */
const findBrace = (s: string): { open: number; close: number; items: ReadonlyArray<string> } | null => {
  for (let i = 0; i < s.length; ) {
    const skipped = skipConstruct(s, i)
    if (skipped !== i) {
      i = skipped
      continue
    }
    if (s[i] !== "{") {
      i++
      continue
    }
    let depth = 0
    const commas: number[] = []
    let close = -1
    for (let j = i; j < s.length; ) {
      const k = skipConstruct(s, j)
      if (k !== j) {
        j = k
        continue
      }
      if (s[j] === "{") depth++
      else if (s[j] === "}" && --depth === 0) {
        close = j
        break
      } else if (s[j] === "," && depth === 1) commas.push(j)
      j++
    }
    if (close < 0) return null
    if (commas.length > 0) {
      const items: string[] = []
      let from = i + 1
      for (const c of [...commas, close]) {
        items.push(s.slice(from, c))
        from = c + 1
      }
      return { open: i, close, items }
    }
    const seq = sequence(s.slice(i + 1, close))
    if (seq !== null) return { open: i, close, items: seq }
    i++
  }
  return null
}

/** The words `raw` expands to, or null when it has no brace expansion (or too many words). */
export const braceExpand = (raw: string): ReadonlyArray<string> | null => {
  if (!raw.includes("{") || (!raw.includes(",") && !raw.includes(".."))) return null
  const out: string[] = []
  const expand = (s: string, depth: number): boolean => {
    const found = depth > 8 ? null : findBrace(s)
    if (found === null) {
      out.push(s)
      return out.length <= MAX_BRACE_WORDS
    }
    const pre = s.slice(0, found.open)
    const post = s.slice(found.close + 1)
    for (const item of found.items) if (!expand(pre + item + post, depth + 1)) return false
    return true
  }
  if (!expand(raw, 0)) return null
  return out.length === 1 && out[0] === raw ? null : out
}
