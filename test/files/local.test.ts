import { TerminalBackendLocal } from "../../src/layers/TerminalBackendLocal.js"
import { fileToolsSuite } from "./suite.js"

fileToolsSuite({ backend: TerminalBackendLocal, kind: "local" })
