/**
 * Tests that drive a system program for real (bubblewrap, sshd, podman, rg, …)
 * skip with one line naming what is missing on a machine without it, so a fresh
 * clone with only Node passes `npm test`. CI sets HERMES_EFFECT_REQUIRE_SYSTEM=1
 * (.ci/run), which turns every such skip into a failure: CI installs them all.
 */
import { spawnSync } from "node:child_process"
import { describe, it } from "@effect/vitest"

export const systemRequired = (): boolean =>
  process.env["HERMES_EFFECT_REQUIRE_SYSTEM"] === "1" || process.env["HERMES_EFFECT_REQUIRE_SYSTEM"] === "true"

/** Why `program` cannot be used here (not on PATH, or its probe failed), or undefined when it can. */
export const programProblem = (program: string, probe: ReadonlyArray<string> = ["--version"]): string | undefined => {
  const run = spawnSync(program, [...probe], { stdio: "ignore", timeout: 10_000 })
  if (run.error !== undefined) return `${program} is not installed`
  return run.status === 0 ? undefined : `${program} is installed but does not work here (exit ${run.status ?? run.signal})`
}

/** bubblewrap with the namespaces the sandbox uses. */
export const bwrapProblem = (): string | undefined =>
  programProblem("bwrap", ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-pid", "--unshare-net", "true"])

/**
 * `describe` when nothing is missing. Otherwise one skipped test whose name says
 * what is missing — or, where the system programs are required, one failing test.
 */
export const describeNeeding = (problem: string | undefined, name: string, body: () => void): void => {
  if (problem === undefined) {
    describe(name, body)
    return
  }
  if (systemRequired()) {
    describe(name, () => {
      it(`needs a system program: ${problem}`, () => {
        throw new Error(`${problem} (HERMES_EFFECT_REQUIRE_SYSTEM is set: CI must install it)`)
      })
    })
    return
  }
  process.stderr.write(`skipped: ${name} (${problem})\n`)
  describe.skip(`${name} (skipped: ${problem})`, () => {
    it("skipped", () => {})
  })
}
