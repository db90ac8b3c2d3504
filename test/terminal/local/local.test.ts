import { TerminalBackendLocal } from "../../../src/layers/terminal/local/TerminalBackendLocal.js"
import { terminalSuite } from "../suite.js"

// The same suite with a process per command (the default) and with one persistent shell per task.
for (const persistent of [false, true]) {
  terminalSuite({ backend: TerminalBackendLocal, kind: "local", isolated: false, ttyPattern: /^\/dev\/pts\/\d+$/, persistent })
}
