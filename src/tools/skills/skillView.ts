/**
 * `skill_view` (toolset `skills`): one skill in full — SKILL.md, tags,
 * linked files and whether it is ready to use here — or, with `file_path`,
 * one of its supporting files.
 */
import { Effect, Schema } from "effect"
import { Skills } from "../../services/Skills.js"
import type { SkillDocument, SkillFile, SkillView } from "../../services/Skills.js"
import { defineTool } from "../../lib/tool/defineTool.js"
import { answer } from "./render.js"
import type { Json } from "./render.js"
import { observedFn } from "../../lib/effect/observedFn.js"

export const SkillViewParameters = Schema.Struct({
  name: Schema.String.annotations({
    description: "The skill's name as skills_list shows it, or its path with the category ('devops/deploy-app')."
  }),
  file_path: Schema.optional(Schema.String.annotations({
    description: "A supporting file of the skill, e.g. 'references/api.md' or 'scripts/check.sh'. Leave out for SKILL.md."
  }))
})

const fileJson = (file: SkillFile): Json =>
  file.binary
    ? { success: true, name: file.name, file: file.file, is_binary: true, content: file.content }
    : { success: true, name: file.name, file: file.file, content: file.content, file_type: file.fileType }

export const documentJson = (doc: SkillDocument): Json => {
  const r = doc.readiness
  const linked = Object.keys(doc.linkedFiles).length > 0
  return {
    success: true,
    name: doc.name,
    description: doc.description,
    tags: doc.tags,
    related_skills: doc.relatedSkills,
    content: doc.content,
    path: doc.path,
    skill_dir: doc.skillDir,
    linked_files: linked ? doc.linkedFiles : null,
    usage_hint: linked
      ? "To view linked files, call skill_view(name, file_path) where file_path is e.g. 'references/api.md' or 'assets/config.yaml'"
      : null,
    required_environment_variables: r.requiredEnvironmentVariables.map((v) => ({
      name: v.name,
      prompt: v.prompt,
      ...(v.help === undefined ? {} : { help: v.help }),
      ...(v.requiredFor === undefined ? {} : { required_for: v.requiredFor }),
      ...(v.optional === true ? { optional: true } : {})
    })),
    required_commands: r.requiredCommands,
    missing_required_environment_variables: r.missingEnvironmentVariables,
    missing_credential_files: r.missingCredentialFiles,
    missing_required_commands: r.missingCommands,
    setup_needed: r.setupNeeded,
    setup_skipped: false,
    readiness_status: r.status,
    ...(r.setupHelp === undefined ? {} : { setup_help: r.setupHelp }),
    ...(r.setupNote === undefined ? {} : { setup_note: r.setupNote }),
    ...(doc.compatibility === undefined ? {} : { compatibility: doc.compatibility }),
    ...(doc.metadata === undefined ? {} : { metadata: doc.metadata })
  }
}

export const viewJson = (view: SkillView): Json => (view._tag === "File" ? fileJson(view) : documentJson(view))

export const skillViewTool = defineTool({
  name: "skill_view",
  toolset: "skills",
  emoji: "📚",
  description:
    "Load a skill: task-specific instructions, with the scripts, templates and references that go with it. Without file_path you get " +
    "SKILL.md plus `linked_files` (its supporting files by folder) and `readiness_status` (setup_needed lists missing variables or commands); " +
    "call again with file_path to read one of the linked files.",
  parameters: SkillViewParameters,
  parallel: "safe",
  handler: observedFn("skill_view")(function*(args) {
    const skills = yield* Skills
    return yield* answer(Effect.map(skills.view(args.name, args.file_path), viewJson))
  })
})
