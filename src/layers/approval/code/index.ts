/** Detection for interpreter source text (REPL input, scripts a command runs). */
export { detectCode } from "./detectCode.js"
