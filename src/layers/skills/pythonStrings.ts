/**
 * The few Python string and path semantics Hermes' skill validation relies
 * on, so our answers agree with its messages case for case: `str.strip`
 * (its whitespace set differs from JavaScript's), `len` (code points, not
 * UTF-16 units), `re.match(...$)` (accepts one trailing newline), and
 * `PurePosixPath.parts` / `PureWindowsPath.drive`.
 */

/** Characters Python's `str.isspace()` accepts. */
const PY_SPACE = new Set([
  "\t", "\n", "\u000b", "\u000c", "\r", "\u001c", "\u001d", "\u001e", "\u001f", " ", "\u0085", "\u00a0", "\u1680",
  "\u2000", "\u2001", "\u2002", "\u2003", "\u2004", "\u2005", "\u2006", "\u2007", "\u2008", "\u2009", "\u200a",
  "\u2028", "\u2029", "\u202f", "\u205f", "\u3000"
])

export const isPySpace = (ch: string): boolean => PY_SPACE.has(ch)

export const pyStrip = (s: string): string => {
  let start = 0
  let end = s.length
  while (start < end && PY_SPACE.has(s[start] as string)) start++
  while (end > start && PY_SPACE.has(s[end - 1] as string)) end--
  return s.slice(start, end)
}

/** `len(s)`: code points. */
export const pyLen = (s: string): number => {
  let n = s.length
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i)
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1)
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--
        i++
      }
    }
  }
  return n
}

/** Python's `re.match(pattern + "$")` for an anchored pattern body: `$` also matches before a final newline. */
export const pyFullMatch = (body: string): RegExp => new RegExp(`^(?:${body})\\n?$`)

/** `PurePosixPath(p).parts`: root kept as "/" (or "//" for exactly two slashes), "." and empty segments dropped. */
export const posixParts = (p: string): ReadonlyArray<string> => {
  const parts: Array<string> = []
  let rest = p
  if (p.startsWith("/")) {
    const twoExactly = p.startsWith("//") && !p.startsWith("///")
    parts.push(twoExactly ? "//" : "/")
    rest = p.replace(/^\/+/, "")
  }
  for (const segment of rest.split("/")) {
    if (segment !== "" && segment !== ".") parts.push(segment)
  }
  return parts
}

/** Hermes' `has_traversal_component`: a literal `..` among the POSIX parts. */
export const hasTraversal = (p: string): boolean => posixParts(p).includes("..")

/** `PureWindowsPath(p).drive` (ntpath.splitroot): `X:` or a UNC `\\server\share`. */
export const windowsDrive = (p: string): string => {
  const s = p.replace(/\//g, "\\")
  if (s.startsWith("\\\\")) {
    const start = s.slice(0, 8).toUpperCase() === "\\\\?\\UNC\\" ? 8 : 2
    const first = s.indexOf("\\", start)
    if (first < 0) return s
    const second = s.indexOf("\\", first + 1)
    return second < 0 ? s : s.slice(0, second)
  }
  if (s.startsWith("\\")) return ""
  return s.length >= 2 && s[1] === ":" ? s.slice(0, 2) : ""
}

/** `"{:,}".format(n)`. */
export const thousands = (n: number): string => n.toLocaleString("en-US")

/** `Path(p).with_suffix(".md")` on the last component (a leading dot is not a suffix). */
export const withMdSuffix = (p: string): string => {
  const slash = p.lastIndexOf("/")
  const base = p.slice(slash + 1)
  const dot = base.lastIndexOf(".")
  const stem = dot > 0 && dot < base.length - 1 ? base.slice(0, dot) : base
  return `${p.slice(0, slash + 1)}${stem}.md`
}
