import { spawnSync } from "node:child_process"
import { describe, it } from "@effect/vitest"
import { TerminalBackendSandbox } from "../../../src/layers/terminal/sandbox/TerminalBackendSandbox.js"
import { terminalSuite } from "../suite.js"

const bwrapWorks =
  spawnSync("bwrap", ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-pid", "--unshare-net", "true"]).status === 0

if (bwrapWorks || process.env["CI"] !== undefined) {
  // bwrap gives a PTY to the sandbox as its console; the host's /dev/pts stays hidden.
  terminalSuite({ backend: TerminalBackendSandbox, kind: "sandbox", isolated: true, ttyPattern: /^\/dev\/console$/ })
} else {
  // Outside CI a machine without bubblewrap skips (CI installs it and must run these).
  describe.skip("terminal backend: sandbox (bwrap is not installed or not permitted here)", () => {
    it("skipped", () => {})
  })
}
