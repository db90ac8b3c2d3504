/** execute_code on the ssh backend against a real sshd on loopback: tool calls travel as request/response files. */
import { afterAll, vi } from "@effect/vitest"
import { TerminalBackendSsh } from "../../src/layers/terminal/ssh/TerminalBackendSsh.js"
import { sshdProblem, startSshd } from "../support/sshd.js"
import { describeNeeding, programProblem } from "../support/systemPrograms.js"
import { codeSuite } from "./suite.js"

// Every call is a round trip to the target (several for a script run): slow on a loaded machine.
vi.setConfig({ testTimeout: 120_000 })

const problem = sshdProblem() ?? programProblem("python3")

const sshd = problem === undefined ? await startSshd() : undefined
if (sshd !== undefined) afterAll(() => sshd.stop())

describeNeeding(problem, "execute_code: ssh backend", () => {
  if (sshd === undefined) return
  codeSuite({ backend: TerminalBackendSsh, kind: "ssh", slowCalls: true, terminal: { backend: "ssh", ...sshd.terminal } })
})
