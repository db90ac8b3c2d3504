/** The pure SSRF classifier and URL vetting, on many address spellings. */
import { describe, expect, it } from "vitest"
import { addressAllowed, classifyAddress, parseIPv4 } from "../../src/lib/web/addressPolicy.js"
import { vetUrl } from "../../src/lib/web/urlPolicy.js"
import { parseRobots } from "../../src/lib/web/robots.js"
import { cutHeadTail } from "../../src/lib/web/truncate.js"

describe("classifyAddress", () => {
  it.each([
    ["127.0.0.1", "private"], ["127.1", "private"], ["2130706433", "private"], ["017700000001", "private"],
    ["0x7f000001", "private"], ["0x7f.0.0.1", "private"], ["0177.0.0.1", "private"], ["0.0.0.0", "private"], ["0", "private"],
    ["10.1.2.3", "private"], ["172.16.0.1", "private"], ["172.31.255.255", "private"], ["192.168.1.1", "private"],
    ["100.64.0.1", "private"], ["100.127.255.255", "private"], ["224.0.0.1", "private"], ["255.255.255.255", "private"],
    ["169.254.169.254", "metadata"], ["169.254.1.1", "metadata"], ["100.100.100.200", "metadata"], ["0xa9fea9fe", "metadata"],
    ["::1", "private"], ["::", "private"], ["[::1]", "private"], ["::ffff:127.0.0.1", "private"], ["::ffff:7f00:1", "private"],
    ["0:0:0:0:0:ffff:a9fe:a9fe", "metadata"], ["::ffff:169.254.169.254", "metadata"], ["fd00:ec2::254", "metadata"],
    ["fc00::1", "private"], ["fdff:1234::1", "private"], ["fe80::1%eth0", "private"], ["ff02::1", "private"],
    ["64:ff9b::10.0.0.1", "private"], ["2002:7f00:1::", "private"],
    ["8.8.8.8", "public"], ["1.1.1.1", "public"], ["100.128.0.1", "public"], ["172.32.0.1", "public"], ["::ffff:8.8.8.8", "public"],
    ["2606:4700:4700::1111", "public"], ["not-an-ip", "invalid"], ["1.2.3.4.5", "invalid"], ["256.1.1.1", "invalid"]
  ])("%s is %s", (address, kind) => {
    expect(classifyAddress(address)).toBe(kind)
  })

  it("inet_aton shorthand fills the last part", () => {
    expect(parseIPv4("10.1")).toBe(10 * 2 ** 24 + 1)
    expect(parseIPv4("192.168.257")).toBe(((192 * 256 + 168) * 256 + 1) * 256 + 1)
  })

  it("private addresses only when allowed; metadata never", () => {
    expect(addressAllowed("127.0.0.1", false)).toBe(false)
    expect(addressAllowed("127.0.0.1", true)).toBe(true)
    expect(addressAllowed("169.254.169.254", true)).toBe(false)
    expect(addressAllowed("93.184.216.34", false)).toBe(true)
  })
})

describe("vetUrl", () => {
  it("http(s) only", () => {
    expect(vetUrl("file:///etc/passwd")._tag).toBe("Invalid")
    expect(vetUrl("ftp://example.com/x")._tag).toBe("Invalid")
    expect(vetUrl("not a url")._tag).toBe("Invalid")
    expect(vetUrl("https://example.com/page")._tag).toBe("Ok")
  })
  it("numeric hosts are normalised by the URL parser", () => {
    const verdict = vetUrl("http://2130706433/x")
    expect(verdict._tag === "Ok" && verdict.url.hostname).toBe("127.0.0.1")
  })
  it("secrets in URLs are refused", () => {
    const param = vetUrl("https://example.com/?api_key=abc123")
    expect(param._tag).toBe("Secret")
    expect(param._tag === "Secret" && param.message).toContain("(api_key)")
    expect(vetUrl("https://example.com/?q=sk-proj-abcdefghijklmnopqrstuvwxyz123456")._tag).toBe("Secret")
    expect(vetUrl("https://user:hunter2@example.com/")._tag).toBe("Secret")
    expect(vetUrl("https://example.com/?token=")._tag).toBe("Ok")
  })
  it("metadata host names are refused", () => {
    expect(vetUrl("http://metadata.google.internal/computeMetadata/v1/")._tag).toBe("Private")
  })
})

describe("robots.txt", () => {
  const robots = parseRobots("User-agent: other\nDisallow: /\n\nUser-agent: *\nDisallow: /private\nAllow: /private/open\nDisallow: /*.pdf$\n", "hermes-effect")
  it("longest match wins", () => {
    expect(robots.allowed("/public")).toBe(true)
    expect(robots.allowed("/private/x")).toBe(false)
    expect(robots.allowed("/private/open/y")).toBe(true)
    expect(robots.allowed("/a/b.pdf")).toBe(false)
    expect(robots.allowed("/a/b.pdf?x")).toBe(true)
  })
})

describe("cutHeadTail", () => {
  it("keeps 75 % head and 25 % tail on line boundaries", () => {
    const text = Array.from({ length: 1000 }, (_, i) => `line ${i}`).join("\n")
    const cut = cutHeadTail(text, 2000)
    expect(cut.head.length + cut.tail.length).toBeLessThanOrEqual(2000)
    expect(cut.head.startsWith("line 0\n")).toBe(true)
    expect(cut.tail.endsWith("line 999")).toBe(true)
    expect(cut.tail.startsWith("line ")).toBe(true)
    expect(text.split("\n")[cut.omittedFromLine - 1]).not.toBe(cut.head.split("\n").at(-1))
  })
})
