import { TerminalBackendLocal } from "../../src/layers/terminal/local/TerminalBackendLocal.js"
import { describeNeeding, programProblem } from "../support/systemPrograms.js"
import { codeSuite } from "./suite.js"

describeNeeding(programProblem("python3"), "execute_code: local backend", () => {
  codeSuite({ backend: TerminalBackendLocal, kind: "local", hostProcess: true })
})
