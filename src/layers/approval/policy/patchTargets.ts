/**
 * The files a `patch` run writes are named inside its diff (`+++ repo/.git/hooks/pre-commit`), not on the command
 * line. The judge knows where the command starts: it reads the diff there and classifies each name it could write
 * (implicitExec.ts), like the rules classify a redirect. A diff that cannot be read before it runs (a pipe, a file
 * only the line creates, one too large) leaves where the patch writes unknown, so it needs approval.
 */
import { posix } from "node:path"
import { Effect, Option } from "effect"
import type { CommandSurroundings } from "../../../services/Approval.js"
import { D } from "../detect/descriptions.js"
import type { DetectionEnv } from "../detect/detectionEnv.js"
import { implicitlyExecuted, otherUsersHome } from "../detect/implicitExec.js"
import type { PatchInput } from "../detect/patchInputs.js"
import { diffNames, patchedNames } from "../detect/patchInputs.js"
import { asCommandSees } from "../detect/pathClasses.js"

/** Diffs larger than this are not read (the patch then needs approval). */
const MAX_DIFF_BYTES = 4 * 1024 * 1024

export interface PatchFinding {
  readonly description: string
  readonly note: string
}

/** `path` as the command sees it from `cwd` (`~` the user's home), absolute and folded. */
const placed = (cwd: string, path: string, home: string | undefined): string => {
  const p = asCommandSees(path)
  if (home !== undefined && (p === "~" || p.startsWith("~/"))) return posix.resolve(home, `.${p.slice(1)}`)
  return posix.resolve(cwd, p)
}

/** The first file a patch would write that other programs run, or the unknown diff, or null. */
const judgeInput = (surroundings: CommandSurroundings, env: DetectionEnv, cwd: string, input: PatchInput): Effect.Effect<PatchFinding | null> =>
  Effect.gen(function*() {
    let text = input.text
    if (text === null && input.diff !== null) text = Option.getOrNull(yield* surroundings.readText(placed(cwd, input.diff, env.home), MAX_DIFF_BYTES))
    if (text === null) {
      return { description: D.computedWriteTarget, note: `patch reads a diff that cannot be read before it runs (${input.diff ?? "standard input"})` }
    }
    const base = input.dir === null ? cwd : placed(cwd, input.dir, env.home)
    for (const name of diffNames(text)) {
      for (const candidate of patchedNames(name, input.strip)) {
        const path = placed(base, candidate, env.home)
        const description = implicitlyExecuted(path, { home: env.home, hermesHome: env.hermesHome })
        if (description !== null && !otherUsersHome(path, env.home)) return { description, note: `patch writes ${name} → ${path}` }
      }
    }
    return null
  })

/** Judges every `patch` of the command by the names its diff holds. */
export const patchTargets = (
  surroundings: CommandSurroundings,
  env: DetectionEnv,
  cwd: string,
  inputs: ReadonlyArray<PatchInput>
): Effect.Effect<PatchFinding | null> =>
  Effect.gen(function*() {
    for (const input of inputs) {
      const found = yield* judgeInput(surroundings, env, cwd, input)
      if (found !== null) return found
    }
    return null
  })
