/** The skills guard as a library: scan a folder or a text, then decide with the trust policy. */
export { decide, formatReport, resolveTrust, SCANNER_VERSION, TRUSTED_REPOS, verdictOf } from "./policy.js"
export { LINE_RULES } from "./rules.js"
export type { LineRule } from "./rules.js"
export { scanSkill, scanText } from "./scan.js"
export type { ScanOptions } from "./scan.js"
