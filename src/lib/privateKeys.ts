/**
 * Private-key material by its shape, so a key is hidden whatever slice of it
 * is shown: a window that starts after the BEGIN line (`read_file` with an
 * offset, `sed -n 2,3p`, a search hit on one body line) still shows body
 * lines, and those look like nothing else: PEM bodies are base64 lines exactly
 * 64 characters wide, OpenSSH bodies 70 wide and starting with the format's
 * magic (`openssh-key-v1\0`, base64 `b3BlbnNzaC1rZXktdjEA`), PuTTY keys count
 * their private lines. Public material (certificates, public keys) is left
 * alone when its BEGIN line is in view.
 */

export const REDACTED_KEY_LINE = "[REDACTED PRIVATE KEY]"

/** base64 of `openssh-key-v1\0`: the first bytes of every OpenSSH private key body. */
const OPENSSH_MAGIC = "b3BlbnNzaC1rZXktdjEA"

/** Armor lines end their line and are not inside a quoted string (source code that mentions one is not a key). */
const PEM_BEGIN = /^[^"'`]*-----BEGIN ([A-Z0-9 ]+)-----\s*$/
const PEM_END = /^[^"'`]*-----END ([A-Z0-9 ]+)-----\s*$/
/** Headers of encrypted PEM keys (`Proc-Type: 4,ENCRYPTED`, `DEK-Info: …`). */
const PEM_HEADER = /^\s*[A-Za-z][A-Za-z-]*: \S/
const PUTTY_PRIVATE = /^\s*Private-Lines:\s*(\d{1,4})\s*$/

const isBase64Char = (c: number): boolean =>
  (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 43 || c === 47

/**
 * A whole BEGIN … END block, its body only what a key holds (base64, armor
 * headers, and `\n` escapes when the key sits in a JSON string): code that
 * merely mentions a BEGIN line is not swallowed up to some later END.
 */
export const PRIVATE_KEY_BLOCK = /-----BEGIN ([A-Z0-9 ]*?)PRIVATE KEY( BLOCK)?-----(?:[\r\n\t A-Za-z0-9+/=:,.\\-])*?-----END \1PRIVATE KEY\2-----/g

export const isPrivateLabel = (label: string): boolean => label.includes("PRIVATE KEY")

/** Random base64 of a key body: all three character classes, and not hex (hashes are hex). */
const looksRandom = (body: string): boolean =>
  /[A-Z]/.test(body) && /[a-z]/.test(body) && /[0-9]/.test(body) && !/^[0-9a-fA-F]+$/.test(body)

/** A full-width body line of a PEM (64) or OpenSSH (70) key, or the start of an OpenSSH body. */
const isKeyBody = (token: string): boolean =>
  token.startsWith(OPENSSH_MAGIC) || ((token.length === 64 || token.length === 70) && looksRandom(token))

/**
 * The base64 token that ends `line` (after blanks), with what precedes it: a
 * line-number gutter, a `path:line:` prefix, indentation, `NAME=`… never a
 * quote (a quoted string is data in some format, not a line of a key file).
 * Undefined when the line does not end in such a token. Linear: one walk back.
 */
const tokenOf = (line: string): { readonly prefix: string; readonly token: string } | undefined => {
  let end = line.length
  while (end > 0 && /[\s\\]/.test(line[end - 1] as string)) end--
  let start = end
  let padding = 0
  while (start > 0 && line.charCodeAt(start - 1) === 61 && padding < 2) {
    start--
    padding++
  }
  const bodyEnd = start
  while (start > 0 && isBase64Char(line.charCodeAt(start - 1))) start--
  if (start === bodyEnd) return undefined
  const prefix = line.slice(0, start)
  if (prefix.length > 0 && (!/[\s:|=>-]$/.test(prefix) || /["'`]/.test(prefix))) return undefined
  return { prefix, token: line.slice(start, bodyEnd) }
}

/** A gutter (`12|`, `12:`, `  12\t`), a grep prefix (`path:12:`, `path-12-`) or nothing: what a printed key line may carry. */
const LINE_PREFIX = /^(?:\s*|\s*\d+[|:\t]\s*|[^\s"'`]*[:-]\d+[:-])$/

/** The token of a line that holds nothing else (after a line prefix): a short key line must look like this. */
const bareToken = (line: string): string | undefined => {
  const found = tokenOf(line)
  return found !== undefined && LINE_PREFIX.test(found.prefix) ? found.token : undefined
}

/**
 * Which of `lines` carry private-key material. Knows the blocks whose BEGIN
 * line is among the lines; body lines elsewhere are recognised by shape, with
 * the shorter last line of a body that follows them.
 */
export const privateKeyLines = (lines: ReadonlyArray<string>): ReadonlyArray<boolean> => {
  const marked: Array<boolean> = new Array<boolean>(lines.length).fill(false)
  let block: "none" | "private" | "public" = "none"
  let run = false
  let putty = 0
  lines.forEach((line, i) => {
    const begin = PEM_BEGIN.exec(line)
    if (begin !== null) {
      block = isPrivateLabel(begin[1] as string) ? "private" : "public"
      run = false
      return
    }
    const end = PEM_END.exec(line)
    if (end !== null) {
      // The END of a key whose BEGIN is out of view: the base64 lines just above are its body.
      if (block === "none" && isPrivateLabel(end[1] as string)) {
        for (let j = i - 1; j >= 0 && marked[j] !== true && (bareToken(lines[j] as string)?.length ?? 0) >= 4; j--) marked[j] = true
      }
      block = "none"
      run = false
      return
    }
    if (block === "private") {
      // Already collapsed to a marker (collapseKeyBlocks) or blank: nothing to hide.
      if (line.trim().length === 0 || line.includes("[REDACTED")) return
      // Body lines are long (a short last line is caught from its END line, below).
      if ((tokenOf(line)?.token.length ?? 0) >= 16 || PEM_HEADER.test(line)) {
        marked[i] = true
        return
      }
      // Not key material: the BEGIN line was a mention, or the key ended without its END line.
      block = "none"
    }
    if (block === "public") {
      // Certificate bodies stay readable; an OpenSSH key body never does.
      const found = tokenOf(line)
      if (found?.token.includes(OPENSSH_MAGIC) === true) marked[i] = true
      if (found !== undefined || line.trim().length === 0 || PEM_HEADER.test(line)) return
      block = "none"
    }
    if (putty > 0) {
      putty--
      marked[i] = true
      return
    }
    const count = PUTTY_PRIVATE.exec(line)
    if (count !== null) {
      putty = Number(count[1])
      run = false
      return
    }
    const found = tokenOf(line)
    if (found !== undefined && (found.token.includes(OPENSSH_MAGIC) || isKeyBody(found.token))) {
      marked[i] = true
      run = true
      return
    }
    // The last, shorter line of a body whose full-width lines came just before.
    const bare = run ? bareToken(line) : undefined
    if (bare !== undefined && bare.length >= 4 && bare.length <= 70) {
      marked[i] = true
      return
    }
    run = false
  })
  return marked
}

/** At least `min` base64 characters in a row somewhere in `text` (one linear pass; a `{64}` regex retries at every offset). */
export const hasBase64Run = (text: string, min = 64): boolean => {
  let run = 0
  for (let i = 0; i < text.length; i++) {
    if (isBase64Char(text.charCodeAt(i))) {
      if (++run >= min) return true
    } else run = 0
  }
  return false
}

/** Cheap first look: nothing qualifies without a full-width body line, the magic, a PuTTY header or a key label. */
export const mayHoldKeyLines = (text: string): boolean =>
  text.includes("PRIVATE KEY") || text.includes("Private-Lines:") || text.includes(OPENSSH_MAGIC) || hasBase64Run(text)

/** Lines of `text` holding key material, each replaced by a marker (line structure kept). */
export const redactKeyLines = (text: string): string => {
  if (!mayHoldKeyLines(text)) return text
  const lines = text.split("\n")
  const marked = privateKeyLines(lines)
  if (!marked.includes(true)) return text
  return lines.map((line, i) => (marked[i] === true ? redactLine(line) : line)).join("\n")
}

/** One key line as shown: its gutter or prefix kept, the material gone. */
export const redactLine = (line: string): string => {
  const found = tokenOf(line)
  return found === undefined ? REDACTED_KEY_LINE : `${found.prefix}${REDACTED_KEY_LINE}`
}

/**
 * Collapse whole BEGIN … END private-key blocks to one marker (the common
 * case: the whole key is shown). With `keepLines`, only blocks inside one
 * line (a key in a JSON string) are collapsed; in a multi-line block each
 * line becomes a marker, so the line count stays.
 */
export const collapseKeyBlocks = (text: string, keepLines = false): string =>
  text.includes("PRIVATE KEY")
    ? text.replace(PRIVATE_KEY_BLOCK, (whole: string, kind: string, block: string | undefined) => {
      const inline = !whole.includes("\n")
      if (keepLines && !inline) {
        // Every line between the armor lines, one marker each: the line count stays.
        const lines = whole.split("\n")
        return lines.map((line, i) => (i === 0 || i === lines.length - 1 || line.trim().length === 0 ? line : REDACTED_KEY_LINE)).join("\n")
      }
      const begin = `-----BEGIN ${kind}PRIVATE KEY${block ?? ""}-----`
      const end = `-----END ${kind}PRIVATE KEY${block ?? ""}-----`
      return inline ? `${begin}[REDACTED]${end}` : `${begin}\n[REDACTED]\n${end}`
    })
    : text

/** Telltales of key material in raw file bytes, for deciding whether a whole-file look is needed. */
export const KEY_MARKERS: ReadonlyArray<string> = ["PRIVATE KEY", OPENSSH_MAGIC, "Private-Lines:"]
