import { execFileSync } from "node:child_process"
import { describe, expect, it } from "@effect/vitest"
import { Duration } from "effect"
import { makeBoundedCapture } from "../../src/layers/terminal/boundedCapture.js"
import { childEnv } from "../../src/layers/terminal/childEnv.js"
import { isCredentialName } from "../../src/lib/credentialNames.js"
import { capOutput, redactToolOutput, stripAnsiOutput, truncateMiddle } from "../../src/lib/text.js"
import { shellQuote, snapshotScript } from "../../src/layers/terminal/shellScript.js"
import { parseExportSnapshot } from "../../src/layers/terminal/exportSnapshot.js"
import { exportRecords, exportScript } from "../../src/layers/terminal/remoteScripts.js"
import {
  makeGlobalWatchState,
  makeWatchState,
  onWatchMatch,
  WATCH_GLOBAL_COOLDOWN_MS,
  WATCH_MIN_INTERVAL_MS
} from "../../src/layers/processes/watchLimiter.js"
import { TERMINAL_BACKENDS } from "../../src/services/Config.js"
import { SHELL_LIMITS } from "../../src/services/Shell.js"
import { TERMINAL_BACKEND_TABLE } from "../../src/layers/terminal/backends.js"
import { CONFIG_DEFAULTS, MAX_FOREGROUND_TIMEOUT_SECONDS } from "../../src/services/Config.js"
import { processDispatchTimeout } from "../../src/tools/process.js"
import { terminalDispatchTimeout } from "../../src/tools/terminal.js"
import { exitCodeMeaning, foregroundGuidance, workdirProblem } from "../../src/tools/terminal/guards.js"

const bytes = (s: string) => Buffer.from(s, "utf8")

describe("bounded capture", () => {
  it("keeps everything under the budget", () => {
    const c = makeBoundedCapture(100)
    c.push(bytes("hello "))
    c.push(bytes("world"))
    expect(c.result()).toEqual({ head: "hello world", tail: "", omittedBytes: 0, totalBytes: 11 })
  })

  it("keeps 40% head and 60% tail and counts the rest", () => {
    const c = makeBoundedCapture(10)
    for (const chunk of ["abcdef", "ghijklmn", "opqrst", "uvwxyz"]) c.push(bytes(chunk))
    expect(c.result()).toEqual({ head: "abcd", tail: "uvwxyz", omittedBytes: 16, totalBytes: 26 })
  })

  it("a chunk larger than the tail window replaces it", () => {
    const c = makeBoundedCapture(10)
    c.push(bytes("ab"))
    c.push(bytes("0123456789"))
    c.push(bytes("xyz"))
    expect(c.result()).toEqual({ head: "ab01", tail: "789xyz", omittedBytes: 5, totalBytes: 15 })
  })

  it("never splits a UTF-8 character at a cut", () => {
    const c = makeBoundedCapture(10)
    c.push(bytes("aaé€€€€€€bé"))
    const r = c.result()
    expect(r.head).toBe("aaé")
    expect(r.tail).toBe("€bé")
    expect(r.head + r.tail).not.toContain("\uFFFD")
  })
})

describe("output text", () => {
  it("truncates like Hermes: 40% head, 60% tail, marker with counts", () => {
    const text = "a".repeat(60) + "b".repeat(40)
    expect(truncateMiddle(text, 50)).toBe(
      `${"a".repeat(20)}\n\n... [OUTPUT TRUNCATED - 50 chars omitted out of 100 total] ...\n\n${"b".repeat(30)}`
    )
    expect(truncateMiddle("short", 50)).toBe("short")
  })

  it("caps an already windowed capture with the true total", () => {
    const out = capOutput({ head: "H".repeat(4), tail: "T".repeat(6), omittedBytes: 90, totalBytes: 100 }, 10)
    expect(out).toBe("HHHH\n\n... [OUTPUT TRUNCATED - 90 chars omitted out of 100 total] ...\n\nTTTTTT")
  })

  it("strips colour, cursor and title sequences and CRLF", () => {
    expect(stripAnsiOutput("\x1b[1;31mred\x1b[0m \x1b]0;title\x07x\x1b[2K\r\ny")).toBe("red x\ny")
  })

  it("masks shaped secrets everywhere", () => {
    const text = [
      "openai sk-proj-abcdefghijklmnopqrstuvwx",
      "gh ghp_abcdefghijklmnopqrstuvwxyz0123456789",
      "aws AKIAABCDEFGHIJKLMNOP",
      "Authorization: Bearer abc.def.ghi",
      "db postgres://user:hunter2@host/db",
      "-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----"
    ].join("\n")
    expect(redactToolOutput(text)).toBe([
      "openai sk-p…[REDACTED]",
      "gh ghp_…[REDACTED]",
      "aws AKIA…[REDACTED]",
      "Authorization: Bearer [REDACTED]",
      "db postgres://user:[REDACTED]@host/db",
      "-----BEGIN RSA PRIVATE KEY-----\n[REDACTED]\n-----END RSA PRIVATE KEY-----"
    ].join("\n"))
  })

  it("masks credential-named variables only in environment dumps", () => {
    const dump = "PATH=/bin\nMY_API_KEY=opaque123\ndeclare -x DB_PASSWORD=\"pw\"\nMAX_TOKENS=100"
    expect(redactToolOutput(dump, "env | sort")).toBe("PATH=/bin\nMY_API_KEY=[REDACTED]\ndeclare -x DB_PASSWORD=[REDACTED]\nMAX_TOKENS=[REDACTED]")
    expect(redactToolOutput(dump, "cat config.py")).toBe(dump)
  })
})

describe("terminal guards", () => {
  it("workdir must be a plain path", () => {
    expect(workdirProblem("/home/me/my project-1.2")).toBeUndefined()
    expect(workdirProblem("/tmp/$(id)")).toBe(
      "Blocked: workdir contains disallowed character \"$\". Use a plain filesystem path without shell metacharacters."
    )
  })

  it("long-running foreground commands get guidance; quoted text and --help do not", () => {
    expect(foregroundGuidance("nohup python app.py")).toContain("nohup/disown/setsid")
    expect(foregroundGuidance("cd x && setsid ./run")).toContain("nohup/disown/setsid")
    expect(foregroundGuidance("./server &")).toContain("'&'")
    expect(foregroundGuidance("sleep 1 & wait")).toContain("'&'")
    expect(foregroundGuidance("pnpm dev")).toContain("long-lived server")
    expect(foregroundGuidance("uvicorn app:app --reload")).toContain("long-lived server")
    expect(foregroundGuidance("git commit -m 'use nohup & vite'")).toBeUndefined()
    expect(foregroundGuidance("vite --help")).toBeUndefined()
    expect(foregroundGuidance("make test && echo ok")).toBeUndefined()
  })

  it("explains benign exit codes by the command that decides them", () => {
    expect(exitCodeMeaning("grep foo file", 1)).toBe("No matches found (not an error)")
    expect(exitCodeMeaning("cat x | LC_ALL=C /usr/bin/rg foo", 1)).toBe("No matches found (not an error)")
    expect(exitCodeMeaning("diff a b", 1)).toBe("Files differ (expected, not an error)")
    expect(exitCodeMeaning("curl http://x", 6)).toBe("Could not resolve host")
    expect(exitCodeMeaning("grep foo file", 2)).toBeUndefined()
    expect(exitCodeMeaning("grep foo file | wc -l", 1)).toBeUndefined()
    expect(exitCodeMeaning("grep foo file", 0)).toBeUndefined()
  })

  it("the registry waits longer than the command may run", () => {
    expect(Duration.toSeconds(terminalDispatchTimeout({ command: "x", timeout: 10 }))).toBe(40)
    expect(Duration.toSeconds(terminalDispatchTimeout({ command: "x" }))).toBe(630)
    expect(Duration.toSeconds(terminalDispatchTimeout({ command: "x", timeout: 5000, background: true }))).toBe(30)
    expect(Duration.toSeconds(processDispatchTimeout({ action: "wait", timeout: 100 }))).toBe(130)
  })
})

describe("child environment", () => {
  it("drops credentials unless passed through, keeps the rest", () => {
    const env = childEnv({
      HOME: "/home/me",
      OPENAI_API_KEY: "x",
      GITHUB_TOKEN: "x",
      AWS_PROFILE: "x",
      CLIENT_SECRET_FILE: "x",
      DB_PASSWORD: "x",
      MY_SERVICE_TOKEN: "kept",
      LANG: "C.UTF-8",
      PATH: "/opt/bin::/usr/bin"
    }, ["MY_SERVICE_TOKEN"])
    expect(env).toEqual({
      HOME: "/home/me",
      MY_SERVICE_TOKEN: "kept",
      LANG: "C.UTF-8",
      PATH: "/opt/bin:/usr/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/sbin:/bin"
    })
    expect(isCredentialName("SSH_AUTH_SOCK")).toBe(false)
    expect(isCredentialName("ANTHROPIC_BASE_URL")).toBe(true)
  })
})

describe("shell quoting", () => {
  it("round-trips through bash", () => {
    for (const value of ["plain", "it's", "a b\nc", "$(id) `x` \\ \" '"]) {
      expect(execFileSync("bash", ["-c", `printf %s ${shellQuote(value)}`], { encoding: "utf8" })).toBe(value)
    }
  })
})

describe("watch limiter", () => {
  it("one notification per 15 s; three struck windows in a row disable watching", () => {
    const state = makeWatchState()
    const global = makeGlobalWatchState()
    expect(onWatchMatch(state, global, 0)).toEqual({ _tag: "Deliver", suppressed: 0 })
    expect(onWatchMatch(state, global, 1000)._tag).toBe("Drop")
    expect(onWatchMatch(state, global, 2000)._tag).toBe("Drop")
    expect(onWatchMatch(state, global, WATCH_MIN_INTERVAL_MS)).toEqual({ _tag: "Deliver", suppressed: 2 })
    expect(onWatchMatch(state, global, WATCH_MIN_INTERVAL_MS + 1)._tag).toBe("Drop")
    expect(onWatchMatch(state, global, 2 * WATCH_MIN_INTERVAL_MS)._tag).toBe("Deliver")
    expect(onWatchMatch(state, global, 2 * WATCH_MIN_INTERVAL_MS + 1)).toEqual({ _tag: "Disable" })
    expect(state.disabled).toBe(true)
    expect(onWatchMatch(state, global, 10 * WATCH_MIN_INTERVAL_MS)._tag).toBe("Drop")
  })

  it("a quiet window resets the strikes", () => {
    const state = makeWatchState()
    const global = makeGlobalWatchState()
    let now = 0
    for (let i = 0; i < 10; i++) {
      expect(onWatchMatch(state, global, now)._tag).toBe("Deliver")
      if (i % 2 === 0) expect(onWatchMatch(state, global, now + 1)._tag).toBe("Drop")
      now += WATCH_MIN_INTERVAL_MS
    }
    expect(state.disabled).toBe(false)
  })

  it("the global breaker stops a flood across processes for 30 s", () => {
    const global = makeGlobalWatchState()
    const verdicts = Array.from({ length: 16 }, () => onWatchMatch(makeWatchState(), global, 1000)._tag)
    expect(verdicts.filter((v) => v === "Deliver")).toHaveLength(15)
    expect(verdicts[15]).toBe("Drop")
    expect(onWatchMatch(makeWatchState(), global, 1000 + WATCH_GLOBAL_COOLDOWN_MS - 1)._tag).toBe("Drop")
    expect(onWatchMatch(makeWatchState(), global, 1000 + WATCH_GLOBAL_COOLDOWN_MS)._tag).toBe("Deliver")
  })
})

describe("terminal wiring", () => {
  it("the limits the tools state are the config schema's defaults", () => {
    expect(SHELL_LIMITS.defaultTimeoutSeconds).toBe(CONFIG_DEFAULTS.terminal.timeout)
    expect(SHELL_LIMITS.maxForegroundTimeoutSeconds).toBe(MAX_FOREGROUND_TIMEOUT_SECONDS)
  })

  it("every backend name the config accepts has a layer in the table", () => {
    expect(Object.keys(TERMINAL_BACKEND_TABLE).sort()).toEqual([...TERMINAL_BACKENDS].sort())
  })
})

describe("export snapshots", () => {
  // Values bash writes in each of its forms: plain, double-quoted with escapes, and `$'…'` for control characters.
  const tricky: Record<string, string> = {
    PLAIN: "value",
    SPACES: "a b  c",
    QUOTES: `it's "quoted" \\ $HOME \`cmd\``,
    NEWLINES: "line 1\nline 2\n",
    CONTROL: "tab\there\u0001bell\u0007esc\u001b[0m\r",
    UTF8: "café ☕ 𝄞",
    UTF8_CONTROL: "é\u0001ü\n",
    EMPTY: ""
  }
  const bashExports = (script: string, env: Record<string, string> = {}) =>
    execFileSync("bash", ["-c", `${script}\nexport -p`], { env: { PATH: process.env["PATH"] ?? "/usr/bin:/bin", ...env }, encoding: "utf8" })
  const picked = (variables: Record<string, string>) => Object.fromEntries(Object.keys(tricky).map((name) => [name, variables[name]]))

  it("reads back every form bash's `export -p` writes", () => {
    for (const locale of ["C", "C.UTF-8"]) {
      expect(picked(parseExportSnapshot(bashExports("", { ...tricky, LC_ALL: locale })))).toEqual(tricky)
    }
  })

  it("the export lines the runtime writes give bash the same values, as a script and as one line each", () => {
    expect(picked(parseExportSnapshot(bashExports(exportScript(tricky))))).toEqual(tricky)
    // The `lines` form: a count, then one line per variable, each read and evaluated on its own.
    const records = exportRecords(tricky)
    const lines = records.split("\n")
    expect(Number(lines[0])).toBe(Object.keys(tricky).length)
    expect(lines.slice(1, -1).every((line) => line.startsWith("builtin export "))).toBe(true)
    const reader = `{ IFS= read -r n; while [ "$n" -gt 0 ] && IFS= read -r l; do eval "$l"; n=$((n - 1)); done; } <<'__END__'\n${records}__END__`
    expect(picked(parseExportSnapshot(bashExports(reader)))).toEqual(tricky)
  })

  it("a snapshot rebuilt from a report keeps values and drops everything that is not an export", () => {
    const report = `${bashExports("", tricky)}touch /tmp/never\ndeclare -x EVIL="$(touch /tmp/never)"\n`
    const { script, variables } = snapshotScript(report)
    expect(picked(variables)).toEqual(tricky)
    expect(variables["EVIL"]).toBe("$(touch /tmp/never)")
    expect(script).not.toMatch(/^touch/m)
    expect(picked(parseExportSnapshot(bashExports(script)))).toEqual(tricky)
  })
})
