import { TerminalBackendLocal } from "../../src/layers/terminal/local/TerminalBackendLocal.js"
import { fileToolsSuite } from "./suite.js"

fileToolsSuite({ backend: TerminalBackendLocal, kind: "local" })
