/** `skills_list` (toolset `skills`): the cheap first tier — names, descriptions, categories. */
import { Effect, Schema } from "effect"
import { Skills } from "../../services/Skills.js"
import { defineTool } from "../../lib/tool/defineTool.js"
import { answer } from "./render.js"
import { observedFn } from "../../lib/effect/observedFn.js"

export const SkillsListParameters = Schema.Struct({
  category: Schema.optional(Schema.String.annotations({ description: "Only skills in this category." }))
})

export const skillsListTool = defineTool({
  name: "skills_list",
  toolset: "skills",
  emoji: "📚",
  description: "List the skills you can load: name, one-line description and category of each. Load one with skill_view(name).",
  parameters: SkillsListParameters,
  parallel: "safe",
  handler: observedFn("skills_list")(function*(args) {
    const skills = yield* Skills
    return yield* answer(Effect.map(skills.list({ category: args.category }), (listing) =>
      listing.total === 0
        ? { success: true, skills: [], categories: [], message: "No skills found in skills/ directory." }
        : {
          success: true,
          skills: listing.skills,
          categories: listing.categories,
          count: listing.skills.length,
          hint: "Use skill_view(name) to see full content, tags, and linked files"
        }))
  })
})
