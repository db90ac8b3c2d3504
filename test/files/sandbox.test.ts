import { spawnSync } from "node:child_process"
import { describe, it } from "@effect/vitest"
import { TerminalBackendSandbox } from "../../src/layers/terminal/sandbox/TerminalBackendSandbox.js"
import { fileToolsSuite } from "./suite.js"

const bwrapWorks =
  spawnSync("bwrap", ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-pid", "--unshare-net", "true"]).status === 0

if (bwrapWorks || process.env["CI"] !== undefined) {
  fileToolsSuite({ backend: TerminalBackendSandbox, kind: "sandbox" })
} else {
  // Outside CI a machine without bubblewrap skips (CI installs it and must run these).
  describe.skip("file tools: sandbox (bwrap is not installed or not permitted here)", () => {
    it("skipped", () => {})
  })
}
