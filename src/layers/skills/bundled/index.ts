/**
 * The skills shipped with hermes-effect. They are TypeScript data, not a
 * folder of Markdown, so they survive both build steps unchanged: `tsc`
 * compiles them into dist/ and esbuild inlines them into dist/bin.mjs, and
 * no package.json `files` entry or copy step is needed.
 */
import { githubPrWorkflow } from "./githubPrWorkflow.js"
import { gitWorkflow } from "./gitWorkflow.js"
import { skillAuthoring } from "./skillAuthoring.js"
import { systematicDebugging } from "./systematicDebugging.js"
import type { BundledSkill } from "./types.js"

export type { BundledSkill } from "./types.js"

export const BUNDLED_SKILLS: ReadonlyArray<BundledSkill> = [skillAuthoring, gitWorkflow, systematicDebugging, githubPrWorkflow]
