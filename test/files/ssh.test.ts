/** The file tools on the ssh backend, against a real sshd on loopback (its files are this machine's). */
import { afterAll, describe, it } from "@effect/vitest"
import { TerminalBackendSsh } from "../../src/layers/terminal/ssh/TerminalBackendSsh.js"
import { sshdProblem, startSshd } from "../support/sshd.js"
import { fileToolsSuite } from "./suite.js"

const problem = sshdProblem()

if (problem === undefined || process.env["CI"] !== undefined) {
  const sshd = await startSshd()
  afterAll(() => sshd.stop())
  fileToolsSuite({ backend: TerminalBackendSsh, kind: "ssh", terminal: { backend: "ssh", ...sshd.terminal } })
} else {
  describe.skip(`file tools: ssh (${problem})`, () => {
    it("skipped", () => {})
  })
}
