/**
 * A write judged at one place must not land at another: the file tools judge
 * the link-resolved path and write with it as `expectedReal`, so a symlink on
 * the way that another process swaps between the judgement and the write
 * (red team 3, class 6: `d` flipped between `safe` and `repo/.git`) makes the
 * write fail with nothing written, on the host's files and on a transport
 * target's (the same `sh` scripts ssh and containers run).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { makeHostFiles } from "../../src/layers/terminal/environmentFiles.js"
import { EnvironmentFileError } from "../../src/services/TerminalBackend.js"
import { shTargetFiles } from "../support/shTargetFiles.js"

/** A folder with `safe/`, a git directory `repo/.git/config`, and `d` → safe (the link the judgement followed). */
const layout = () => {
  const dir = mkdtempSync(join(tmpdir(), "hermes-swapped-"))
  mkdirSync(join(dir, "safe"))
  mkdirSync(join(dir, "repo/.git"), { recursive: true })
  writeFileSync(join(dir, "repo/.git/config"), "[core]\n")
  symlinkSync("safe", join(dir, "d"))
  return dir
}

/** Point `d` at the git directory, as a swapping process would once the write was judged. */
const swap = (dir: string) => {
  rmSync(join(dir, "d"))
  symlinkSync("repo/.git", join(dir, "d"))
}

const host = makeHostFiles({
  hostPath: (path) => path,
  identity: true,
  writeDenied: () => undefined,
  fileError: (path, error) => new EnvironmentFileError({ path, reason: "Io", message: String(error) })
})

const FSMONITOR = "[core]\n\tfsmonitor = \"touch pwned\"\n"

describe("a write lands where it was judged, or nowhere", () => {
  it.effect("host files: a link swapped after the judgement makes the atomic write fail, nothing written", () =>
    Effect.gen(function*() {
      const dir = layout()
      const judged = join(dir, "safe/config")
      swap(dir)
      const exit = yield* Effect.exit(host.writeAtomic(join(dir, "d/config"), FSMONITOR, judged))
      expect(Exit.isFailure(exit)).toBe(true)
      const error = Exit.isFailure(exit) ? exit.cause : undefined
      expect(JSON.stringify(error)).toMatch(/leads to .*repo\/\.git\/config now/)
      expect(readFileSync(join(dir, "repo/.git/config"), "utf8")).toBe("[core]\n")
      expect(existsSync(judged)).toBe(false)
      // Written at the judged path itself, it lands there while that path still resolves to itself.
      yield* host.writeAtomic(judged, "x = 1\n", judged)
      expect(readFileSync(judged, "utf8")).toBe("x = 1\n")
    }))

  it.effect("host files: the judged folder replaced by a link is refused too", () =>
    Effect.gen(function*() {
      const dir = layout()
      const judged = join(dir, "safe/config")
      rmSync(join(dir, "safe"), { recursive: true })
      symlinkSync("repo/.git", join(dir, "safe"))
      expect(Exit.isFailure(yield* Effect.exit(host.writeAtomic(judged, FSMONITOR, judged)))).toBe(true)
      expect(readFileSync(join(dir, "repo/.git/config"), "utf8")).toBe("[core]\n")
    }))

  it.effect("transport targets (ssh, containers): the same refusal from the write script", () =>
    Effect.gen(function*() {
      const dir = layout()
      const files = shTargetFiles(dir)
      const judged = join(dir, "safe/config")
      swap(dir)
      const error = yield* Effect.flip(files.writeFile("d/config", FSMONITOR, { atomic: true, expectedReal: judged }))
      expect(error.reason).toBe("Denied")
      expect(error.message).toMatch(/symlink on the way changed/)
      expect(readFileSync(join(dir, "repo/.git/config"), "utf8")).toBe("[core]\n")
      yield* files.writeFile("safe2/config", "ok\n", { atomic: true, expectedReal: join(dir, "safe2/config") })
      expect(readFileSync(join(dir, "safe2/config"), "utf8")).toBe("ok\n")
    }))
})
