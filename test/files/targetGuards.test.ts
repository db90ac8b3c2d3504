/**
 * The ssh/container file operations' guards, run with `sh` on this machine
 * (the scripts are what the target runs; only the transport is left out):
 * devices, FIFOs and /dev, /proc, /sys are refused in the same round trip,
 * and stat reports identity and link count. The full ssh suite runs the
 * same checks over a real sshd (test/files/ssh.test.ts).
 */
import { spawnSync } from "node:child_process"
import { linkSync, lstatSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { shTargetFiles } from "../support/shTargetFiles.js"

const dir = mkdtempSync(join(tmpdir(), "hermes-target-guards-"))

const files = shTargetFiles(dir)

const refusal = (effect: Effect.Effect<unknown, { readonly reason: string; readonly message: string }>) =>
  Effect.runSync(Effect.flip(effect))

describe("transport file operations: guards", () => {
  it("devices stay devices; nothing is written under /dev, /proc or /sys, also through a link", () => {
    symlinkSync("/dev/null", join(dir, "null-link"))
    for (const path of ["/dev/null", "/dev/full", "null-link", "/proc/self/comm", "/sys/kernel/hermes-test"]) {
      for (const atomic of [true, false]) {
        const error = refusal(files.writeFile(path, "x", { atomic }))
        expect(error.reason, path).toBe("Denied")
        expect(error.message, path).toMatch(/never written by file tools|not a regular file/)
      }
    }
    expect(statSync("/dev/null").isCharacterDevice()).toBe(true)
    expect(statSync("/dev/full").isCharacterDevice()).toBe(true)
    expect(lstatSync(join(dir, "null-link")).isSymbolicLink()).toBe(true)
    expect(refusal(files.remove("/dev/null")).reason).toBe("Denied")
    expect(refusal(files.rename("null-link", "/dev/hermes-moved")).reason).toBe("Denied")
    writeFileSync(join(dir, "plain"), "x")
    expect(refusal(files.rename("plain", "/dev/null")).reason).toBe("Denied")
    expect(statSync("/dev/null").isCharacterDevice()).toBe(true)
  })

  it("a FIFO is refused for reading and writing at once", () => {
    expect(spawnSync("mkfifo", [join(dir, "pipe")]).status).toBe(0)
    const started = Date.now()
    expect(refusal(files.readFile("pipe")).message).toContain("not a regular file")
    expect(refusal(files.readFile("pipe", { offset: 0, length: 10 })).message).toContain("not a regular file")
    expect(refusal(files.writeFile("pipe", "x")).message).toContain("not a regular file")
    expect(refusal(files.writeFile("pipe", "x", { atomic: true })).message).toContain("not a regular file")
    expect(Date.now() - started).toBeLessThan(4000)
    expect(lstatSync(join(dir, "pipe")).isFIFO()).toBe(true)
  })

  it("ordinary files still work; stat tells a hard link by identity", () => {
    Effect.runSync(files.writeFile("new/file.txt", "hello", { atomic: true }))
    expect(readFileSync(join(dir, "new/file.txt"), "utf8")).toBe("hello")
    linkSync(join(dir, "new/file.txt"), join(dir, "twin.txt"))
    const a = Effect.runSync(files.stat("new/file.txt"))
    const b = Effect.runSync(files.stat("twin.txt"))
    expect(a.type).toBe("file")
    expect(a.links).toBe(2)
    expect(a.identity).toBe(`${statSync(join(dir, "twin.txt")).dev}:${statSync(join(dir, "twin.txt")).ino}`)
    expect(b.identity).toBe(a.identity)
  })
})
