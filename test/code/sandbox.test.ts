import { TerminalBackendSandbox } from "../../src/layers/terminal/sandbox/TerminalBackendSandbox.js"
import { bwrapProblem, describeNeeding, programProblem } from "../support/systemPrograms.js"
import { codeSuite } from "./suite.js"

// The socket lives under the sandbox's home, bound at the same path inside.
describeNeeding(bwrapProblem() ?? programProblem("python3"), "execute_code: sandbox backend", () => {
  codeSuite({ backend: TerminalBackendSandbox, kind: "sandbox", isolated: true })
})
