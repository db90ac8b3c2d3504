/**
 * Secret masking for file content, with a cheap first look: most text holds
 * none of the shapes the masks look for, and one scan for their telltale
 * fragments is much cheaper than every mask's full scan.
 * Keep TELLTALE in step with the masks in `layers/terminal/outputText.ts`
 * (test/files/units.test.ts checks a sample of each shape).
 */
import { redactSecrets } from "../../layers/terminal/outputText.js"

const TELLTALE = /sk-|gh[pousr]_|github_pat_|xox[abposr]-|AKIA|ASIA|AIza|hf_|glpat-|npm_|eyJ|uthorization|:\/\/|PRIVATE KEY/i

export const maskSecrets = (text: string): string => (TELLTALE.test(text) ? redactSecrets(text) : text)
