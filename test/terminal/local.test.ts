import { TerminalBackendLocal } from "../../src/layers/TerminalBackendLocal.js"
import { terminalSuite } from "./suite.js"

terminalSuite({ backend: TerminalBackendLocal, kind: "local", isolated: false, ttyPattern: /^\/dev\/pts\/\d+$/ })
