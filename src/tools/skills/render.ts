/**
 * The skill tools answer in Hermes' shapes: `{"success": true, …}`, or
 * `{"success": false, "error": …}` with the facts the model needs to try
 * again (candidates, available files, a preview of the file it patched).
 * Refusals are results, not failed calls, as in Hermes.
 */
import { Effect } from "effect"
import type {
  SkillAmbiguous,
  SkillBlocked,
  SkillFileNotFound,
  SkillInvalid,
  SkillNotFound,
  SkillsIoError,
  SkillUnsupported
} from "../../services/Skills.js"

export type Json = Record<string, unknown>

type Refusal = SkillNotFound | SkillAmbiguous | SkillFileNotFound | SkillUnsupported | SkillInvalid | SkillBlocked | SkillsIoError

export const refusal = (e: Refusal): Json => {
  switch (e._tag) {
    case "SkillNotFound":
      return e.available === undefined
        ? { success: false, error: e.message }
        : { success: false, error: e.message, available_skills: e.available, hint: "Use skills_list to see all available skills" }
    case "SkillAmbiguous":
      return {
        success: false,
        error: e.message,
        matches: e.matches,
        hint: "Pass the full relative path instead of the bare name (e.g., 'category/skill-name'), or rename one of the colliding skills so each name is unique."
      }
    case "SkillFileNotFound":
      return Array.isArray(e.available) || e.available === null
        ? { success: false, error: e.message, available_files: e.available }
        : { success: false, error: e.message, available_files: e.available, hint: "Use one of the available file paths listed above" }
    case "SkillUnsupported":
      return { success: false, error: e.message, readiness_status: "unsupported" }
    case "SkillInvalid":
      return { success: false, error: e.message, ...e.details }
    case "SkillBlocked":
    case "SkillsIoError":
      return { success: false, error: e.message }
  }
}

/** Turn every refusal of `effect` into its JSON answer. */
export const answer = <E extends Refusal, R>(effect: Effect.Effect<Json, E, R>): Effect.Effect<Json, never, R> =>
  Effect.catchAll(effect, (e) => Effect.succeed(refusal(e)))
