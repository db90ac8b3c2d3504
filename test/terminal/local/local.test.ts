import { TerminalBackendLocal } from "../../../src/layers/terminal/local/TerminalBackendLocal.js"
import { terminalSuite } from "../suite.js"

terminalSuite({ backend: TerminalBackendLocal, kind: "local", isolated: false, ttyPattern: /^\/dev\/pts\/\d+$/ })
