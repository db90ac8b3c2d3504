/**
 * The one redaction policy (src/lib/redact.ts) on real key files: key bodies
 * are hidden whatever slice of them is shown (a window after the BEGIN line,
 * one search hit, `sed -n 2,3p`), secret assignments in file content are
 * masked, and ordinary base64, hashes and code are left alone.
 */
import { spawnSync } from "node:child_process"
import { mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { privateKeyLines, redactSecrets } from "../../src/lib/redact.js"
import { redactAuditText as auditRedact, redactFileText, redactToolOutput as outputRedact } from "../../src/lib/text.js"

const dir = mkdtempSync(join(tmpdir(), "hermes-redact-"))
const keygen = (name: string, ...args: Array<string>) => {
  const path = join(dir, name)
  expect(spawnSync("ssh-keygen", ["-q", "-N", "", "-C", "me@host", "-f", path, ...args]).status).toBe(0)
  return readFileSync(path, "utf8")
}
const ed25519 = keygen("id_ed25519", "-t", "ed25519")
const rsaPem = keygen("id_rsa", "-t", "rsa", "-b", "2048", "-m", "PEM")
const ecdsa = keygen("id_ecdsa", "-t", "ecdsa")
const pkcs8 = keygen("id_pkcs8", "-t", "rsa", "-b", "2048", "-m", "PKCS8")
const KEYS = { ed25519, rsaPem, ecdsa, pkcs8 }

/** The base64 body lines of a key file (no BEGIN/END lines). */
const bodyOf = (key: string) => key.trim().split("\n").filter((l) => !l.startsWith("-----"))
/** Every body line of length ≥ 20 must be gone from `shown`. */
const leaks = (key: string, shown: string) => bodyOf(key).filter((line) => line.length >= 20 && shown.includes(line))

describe("private keys: any slice is redacted", () => {
  for (const [name, key] of Object.entries(KEYS)) {
    it(`${name}: whole, every window after the BEGIN line, single lines, with gutters and grep prefixes`, () => {
      const lines = key.trimEnd().split("\n")
      expect(leaks(key, outputRedact(key))).toEqual([])
      for (let from = 1; from < lines.length; from++) {
        for (const width of [1, 2, 3]) {
          const window = lines.slice(from, from + width)
          const plain = window.join("\n")
          const numbered = window.map((l, i) => `${from + i + 1}|${l}`).join("\n")
          const grepped = window.map((l, i) => `${join(dir, name)}:${from + i + 1}:${l}`).join("\n")
          // The last line of a body is short: alone, it is not recognisable (and holds the least).
          const last = from === lines.length - 2 && width === 1
          if (last) continue
          expect(leaks(key, outputRedact(plain)), `sed -n ${from + 1},${from + width}p`).toEqual([])
          expect(leaks(key, redactFileText(numbered)), `read_file offset ${from + 1}`).toEqual([])
          expect(leaks(key, outputRedact(grepped)), "grep -n").toEqual([])
        }
      }
    })
  }

  it("a whole file's key lines are known wherever the window starts (read_file)", () => {
    const file = `notes\n${ed25519}more notes\n`
    const marked = privateKeyLines(file.split("\n"))
    const lines = file.split("\n")
    lines.forEach((line, i) => {
      const body = !line.startsWith("-----") && line !== "notes" && line !== "more notes" && line !== ""
      expect(marked[i], line).toBe(body)
    })
  })

  it("PuTTY keys: the counted private lines", () => {
    const ppk = [
      "PuTTY-User-Key-File-3: ssh-ed25519",
      "Encryption: none",
      "Comment: me",
      "Public-Lines: 2",
      "AAAAC3NzaC1lZDI1NTE5AAAAIGoyq60PzoBus",
      "qmIAr7k53GZs7nfvzk",
      "Private-Lines: 1",
      "AAAAIO6LFQHUPo/55Av0qk05L+EBiGc+C8mq9b25mk5QBa8f",
      "Private-MAC: 0123"
    ].join("\n")
    const out = redactSecrets(ppk)
    expect(out).not.toContain("AAAAIO6LFQHUPo")
    expect(out).toContain("AAAAC3NzaC1lZDI1NTE5AAAAIGoyq60PzoBus")
  })

  it("a key inside a JSON string (a service account file) is masked on its one line", () => {
    const body = bodyOf(pkcs8)
    const json = JSON.stringify({ type: "service_account", private_key: pkcs8, client_email: "a@b.iam" }, null, 2)
    for (const shown of [redactFileText(json), outputRedact(json), auditRedact(json)]) {
      expect(shown.split("\n")).toHaveLength(json.split("\n").length)
      expect(body.filter((line) => shown.includes(line))).toEqual([])
      expect(shown).toContain("\"client_email\": \"a@b.iam\"")
    }
  })

  it("code that mentions a BEGIN line is not taken for a key", () => {
    const code = [
      "const HEADER = \"-----BEGIN PRIVATE KEY-----\"",
      "function isPem(text) {",
      "  return text.startsWith(HEADER)",
      "}",
      "# -----BEGIN RSA PRIVATE KEY-----",
      "echo done",
      "echo again",
      "# -----END RSA PRIVATE KEY-----",
      "const FOOTER = '-----END PRIVATE KEY-----'"
    ].join("\n")
    expect(redactFileText(code)).toBe(code)
    expect(outputRedact(code)).toBe(code)
  })

  it("certificates and public keys stay readable", () => {
    const cert = spawnSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", join(dir, "k.pem"), "-subj", "/CN=x", "-days", "1"])
    const pem = cert.stdout.toString()
    expect(pem).toContain("BEGIN CERTIFICATE")
    expect(outputRedact(pem)).toBe(pem)
    expect(redactFileText(pem)).toBe(pem)
    const pub = readFileSync(join(dir, "id_ed25519.pub"), "utf8")
    expect(outputRedact(pub)).toBe(pub)
  })
})

describe("no false alarms on ordinary text", () => {
  const random64 = Buffer.from(Array.from({ length: 48 }, (_, i) => (i * 37 + 11) % 256)).toString("base64")
  const samples: Record<string, string> = {
    "base64 in JSON": JSON.stringify({ data: random64, image: `data:image/png;base64,${random64}${random64}` }, null, 2),
    "a JSON array of base64 strings": `[\n  "${random64}",\n  "${random64}"\n]`,
    "sha256sum output": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08  test.txt",
    "a bare sha256": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    "a sha512 hash": "ee26b0dd4af7e749aa1a8ee3c10ae9923f618980772e473f8819a5d4940e0db27ac185f8a0e1d5f84f88bc887fd67b143732c304cc5fa9ad8e6f57f50028a8ff",
    "package-lock integrity": `"integrity": "sha512-${random64}${random64.slice(0, 24)}=="`,
    "minified JS": `!function(e){var t={};function n(r){if(t[r])return t[r].exports;var o=t[r]={i:r,l:!1,exports:{}};return e[r].call(o.exports,o,o.exports,n),o.l=!0,o.exports}n.m=e}([]);`,
    "MIME base64 (76 wide)": Buffer.alloc(300, "hello world, this is ordinary mail text. ").toString("base64").replace(/(.{76})/g, "$1\n"),
    "git log": "commit 3b18e512dba79e4c8300dd08aeb37f8e728b8dad\nAuthor: A <a@b.c>\n\n    Fix the thing",
    "source code with credential names": [
      "MAX_TOKENS = 100",
      "const token: string = req.headers.authorization",
      "  password: string;",
      "password = os.environ[\"DB_PASSWORD\"]",
      "api_key = get_api_key()",
      "  apiKey: process.env.API_KEY,",
      "TOKEN_LIMIT=4096",
      "SECRET_KEY_FILE=/run/secrets/django",
      "\"password\": \"Password\",",
      "token = None",
      "secret: ${{ secrets.DEPLOY_KEY }}",
      "credentials: include"
    ].join("\n")
  }
  for (const [name, text] of Object.entries(samples)) {
    it(name, () => {
      expect(redactFileText(text)).toBe(text)
      expect(outputRedact(text)).toBe(text)
    })
  }
})

describe("secret assignments in file content", () => {
  it("masks literal secrets whatever the syntax, keeps the names", () => {
    const text = [
      "API_KEY=a8f3k2m9q1z7x4c6",
      "export GITHUB_TOKEN=opaque-value-123",
      "declare -x DB_PASSWORD=\"hunter2-but-longer\"",
      "password: s3cr3t-pw!",
      "  client_secret: 'abcdefghijklmnopqrstuvwxyz'",
      "{\"secret\": \"9d8c7b6a5f4e3d2c1b0a\", \"user\": \"bob\"}",
      "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
      "const apiKey = \"AbC123xYz789QwE\""
    ].join("\n")
    const out = redactFileText(text)
    for (const secret of ["a8f3k2m9q1z7x4c6", "opaque-value-123", "hunter2-but-longer", "s3cr3t-pw!", "abcdefghijklmnopqrstuvwxyz", "9d8c7b6a5f4e3d2c1b0a", "wJalrXUtnFEMI", "AbC123xYz789QwE"]) {
      expect(out).not.toContain(secret)
    }
    expect(out.split("\n")).toEqual([
      "API_KEY=[REDACTED]",
      "export GITHUB_TOKEN=[REDACTED]",
      "declare -x DB_PASSWORD=\"[REDACTED]\"",
      "password: [REDACTED]",
      "  client_secret: '[REDACTED]'",
      "{\"secret\": \"[REDACTED]\", \"user\": \"bob\"}",
      "aws_secret_access_key = [REDACTED]",
      "const apiKey = \"[REDACTED]\""
    ])
  })

  it("command text (audit, prompts, errors) masks every credential-named value", () => {
    expect(auditRedact("OPENAI_API_KEY=sk-abcdefghijklmnopqrstuvwx git reset --hard")).toBe("OPENAI_API_KEY=[REDACTED] git reset --hard")
    expect(auditRedact("database refused: password=hunter2")).toBe("database refused: password=[REDACTED]")
    expect(auditRedact(`cat <<EOF\n${ed25519}EOF`)).not.toContain(bodyOf(ed25519)[1])
  })
})
