/**
 * Which network addresses the web tools may reach (SSRF policy, pure).
 *
 * Every textual form an attacker can smuggle is normalised first: IPv4 in
 * decimal/octal/hex or shorthand (`0x7f.1`, `2130706433`), IPv6 with embedded
 * or IPv4-mapped/compatible addresses. Cloud metadata endpoints are refused
 * even when private addresses are allowed.
 */

export type AddressClass = "public" | "private" | "metadata" | "invalid"

/** inet_aton rules: 1–4 parts, each decimal, 0-octal or 0x-hex; the last part fills the remaining bytes. */
export const parseIPv4 = (text: string): number | undefined => {
  const parts = text.split(".")
  if (parts.length === 0 || parts.length > 4 || parts.some((p) => p === "")) return undefined
  const values: Array<number> = []
  for (const part of parts) {
    const value = /^0x[0-9a-f]*$/i.test(part)
      ? (part.length === 2 ? 0 : parseInt(part.slice(2), 16))
      : /^0[0-7]*$/.test(part)
      ? parseInt(part, 8)
      : /^[1-9][0-9]*$/.test(part)
      ? parseInt(part, 10)
      : NaN
    if (!Number.isFinite(value)) return undefined
    values.push(value)
  }
  const last = values[values.length - 1]!
  const head = values.slice(0, -1)
  if (head.some((v) => v > 255) || last >= 2 ** (8 * (5 - values.length))) return undefined
  return head.reduce((acc, v, i) => acc + v * 2 ** (8 * (3 - i)), 0) + last
}

/** Eight 16-bit groups, or undefined when not IPv6 (a zone id `%eth0` is ignored). */
export const parseIPv6 = (input: string): ReadonlyArray<number> | undefined => {
  let text = input.replace(/^\[|\]$/g, "").replace(/%.*$/, "")
  if (!text.includes(":")) return undefined
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)
  if (dotted !== null) {
    const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(dotted[1]!)
    if (v4 === null || v4.slice(1).some((b) => Number(b) > 255)) return undefined
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number]
    text = `${text.slice(0, -dotted[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const halves = text.split("::")
  if (halves.length > 2) return undefined
  const groups = (s: string) => (s === "" ? [] : s.split(":"))
  const head = groups(halves[0]!)
  const tail = halves.length === 2 ? groups(halves[1]!) : []
  const fill = 8 - head.length - tail.length
  if ((halves.length === 1 && fill !== 0) || fill < 0 || (halves.length === 2 && fill < 1)) return undefined
  const all = [...head, ...Array<string>(halves.length === 2 ? fill : 0).fill("0"), ...tail]
  if (all.some((g) => !/^[0-9a-f]{1,4}$/i.test(g))) return undefined
  return all.map((g) => parseInt(g, 16))
}

const v4 = (a: number, b: number, c: number, d: number) => ((a * 256 + b) * 256 + c) * 256 + d
const inV4 = (ip: number, base: number, bits: number) => Math.floor(ip / 2 ** (32 - bits)) === Math.floor(base / 2 ** (32 - bits))

const V4_METADATA = [v4(169, 254, 169, 254), v4(169, 254, 170, 2), v4(169, 254, 169, 253), v4(100, 100, 100, 200)]

/** Ranges that are not the public internet (RFC 6890 special-purpose, multicast, reserved). */
const V4_PRIVATE: ReadonlyArray<readonly [number, number]> = [
  [v4(0, 0, 0, 0), 8], [v4(10, 0, 0, 0), 8], [v4(100, 64, 0, 0), 10], [v4(127, 0, 0, 0), 8],
  [v4(169, 254, 0, 0), 16], [v4(172, 16, 0, 0), 12], [v4(192, 0, 0, 0), 24], [v4(192, 0, 2, 0), 24],
  [v4(192, 88, 99, 0), 24], [v4(192, 168, 0, 0), 16], [v4(198, 18, 0, 0), 15], [v4(198, 51, 100, 0), 24],
  [v4(203, 0, 113, 0), 24], [v4(224, 0, 0, 0), 4], [v4(240, 0, 0, 0), 4]
]

export const classifyIPv4 = (ip: number): AddressClass =>
  V4_METADATA.includes(ip) || inV4(ip, v4(169, 254, 0, 0), 16)
    ? "metadata"
    : V4_PRIVATE.some(([base, bits]) => inV4(ip, base, bits)) ? "private" : "public"

export const classifyIPv6 = (g: ReadonlyArray<number>): AddressClass => {
  const zeroPrefix = (n: number) => g.slice(0, n).every((x) => x === 0)
  const embedded = () => g[6]! * 65536 + g[7]!
  // ::ffff:a.b.c.d (mapped), ::a.b.c.d (compatible), 64:ff9b::a.b.c.d (NAT64): judge the IPv4 inside.
  if (zeroPrefix(5) && g[5] === 0xffff) return classifyIPv4(embedded())
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return classifyIPv4(embedded())
  if (zeroPrefix(6)) return embedded() <= 1 ? "private" : classifyIPv4(embedded())
  if (g[0] === 0xfd00 && g[1] === 0x0ec2 && g.slice(2, 7).every((x) => x === 0) && g[7] === 0x254) return "metadata"
  const first = g[0]!
  if ((first & 0xfe00) === 0xfc00) return "private" // fc00::/7 unique local
  if ((first & 0xffc0) === 0xfe80 || (first & 0xffc0) === 0xfec0) return "private" // link-local, site-local
  if ((first & 0xff00) === 0xff00) return "private" // multicast
  if (first === 0x2001 && g[1] === 0x0db8) return "private" // documentation
  if (first === 0x2002) return classifyIPv4(g[1]! * 65536 + g[2]!) // 6to4 carries an IPv4
  if (first === 0x2001 && g[1] === 0) return "private" // Teredo
  return "public"
}

/** Classify one address literal (IPv4 in any inet_aton form, or IPv6). */
export const classifyAddress = (address: string): AddressClass => {
  const six = parseIPv6(address)
  if (six !== undefined) return classifyIPv6(six)
  const four = parseIPv4(address)
  return four === undefined ? "invalid" : classifyIPv4(four)
}

/** Host names that always mean cloud metadata, whatever they resolve to. */
export const METADATA_HOSTS: ReadonlyArray<string> = ["metadata.google.internal", "metadata.goog"]

/** Whether an address may be contacted: metadata never, private only when allowed. */
export const addressAllowed = (address: string, allowPrivate: boolean): boolean => {
  const kind = classifyAddress(address)
  return kind === "public" || (kind === "private" && allowPrivate)
}
