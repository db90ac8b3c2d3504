/**
 * `skill_manage` (toolset `skills`): create, fix and retire skills — the
 * agent's procedural memory. Actions and validation as Hermes:
 * create | patch | edit | delete | write_file | remove_file.
 */
import { Effect, Schema } from "effect"
import { Skills } from "../../services/Skills.js"
import type { SkillChange } from "../../services/Skills.js"
import { defineTool } from "../../lib/tool/defineTool.js"
import { answer } from "./render.js"
import type { Json } from "./render.js"

export const SkillManageParameters = Schema.Struct({
  action: Schema.Literal("create", "patch", "edit", "delete", "write_file", "remove_file").annotations({
    description: "What to do."
  }),
  name: Schema.String.annotations({
    description: "Skill name: lowercase letters, digits, '.', '_' and '-', at most 64 characters. Must name an existing skill except for create."
  }),
  content: Schema.optional(Schema.String.annotations({
    description: "The whole SKILL.md (YAML frontmatter with name and description, then the instructions). For create and edit; read the skill with skill_view before an edit."
  })),
  old_string: Schema.optional(Schema.String.annotations({
    description: "patch: the text to replace; it must match once unless replace_all is true, so include enough context."
  })),
  new_string: Schema.optional(Schema.String.annotations({ description: "patch: the replacement (empty to delete the text)." })),
  replace_all: Schema.optional(Schema.Boolean.annotations({ description: "patch: replace every match (default false)." })),
  category: Schema.optional(Schema.String.annotations({
    description: "create: a category folder to put the skill in, e.g. 'devops' or 'data-science'."
  })),
  file_path: Schema.optional(Schema.String.annotations({
    description: "A supporting file under references/, templates/, scripts/ or assets/: required for write_file and remove_file; for patch, the file to patch instead of SKILL.md."
  })),
  file_content: Schema.optional(Schema.String.annotations({ description: "write_file: the file's content." })),
  absorbed_into: Schema.optional(Schema.String.annotations({
    description: "delete: the skill this one was merged into (it must exist), or an empty string when it is simply retired."
  }))
})

type Args = typeof SkillManageParameters.Type

const refuse = (error: string): Json => ({ success: false, error })

const changeJson = (change: SkillChange, extra: Json = {}): Json => ({
  success: true,
  message: change.message,
  ...(change.path === undefined ? {} : { path: change.path }),
  ...extra
})

/** The first 200 characters (code points, as Python counts them), with "…" when there were more. */
const preview = (text: string): string => {
  const chars = Array.from(text)
  return chars.length > 200 ? `${chars.slice(0, 200).join("")}…` : text
}

const run = (args: Args) =>
  Effect.gen(function*() {
    const skills = yield* Skills
    switch (args.action) {
      case "create": {
        if (args.content === undefined || args.content.length === 0) {
          return refuse("content is required for 'create'. Provide the full SKILL.md text (frontmatter + body).")
        }
        return yield* answer(Effect.map(skills.create({ name: args.name, content: args.content, category: args.category }), (c) =>
          changeJson(c, {
            skill_md: c.skillMd,
            ...(c.category === undefined ? {} : { category: c.category }),
            hint: `To add reference files, templates, or scripts, use skill_manage(action='write_file', name='${args.name}', file_path='references/example.md', file_content='...')`
          })))
      }
      case "edit":
        if (args.content === undefined || args.content.length === 0) {
          return refuse("content is required for 'edit'. Provide the full updated SKILL.md text.")
        }
        return yield* answer(Effect.map(skills.edit(args.name, args.content), (c) => changeJson(c)))
      case "patch":
        if (args.old_string === undefined || args.old_string.length === 0) {
          return refuse("old_string is required for 'patch'. Provide the text to find.")
        }
        if (args.new_string === undefined) return refuse("new_string is required for 'patch'. Use empty string to delete matched text.")
        return yield* answer(Effect.map(
          skills.patch({ name: args.name, oldString: args.old_string, newString: args.new_string, filePath: args.file_path, replaceAll: args.replace_all }),
          // Hermes adds a preview of the change for verbose notifications.
          (c) => changeJson(c, { _change: { old: preview(args.old_string ?? ""), new: preview(args.new_string ?? "") } })
        ))
      case "delete":
        return yield* answer(Effect.map(skills.delete(args.name, args.absorbed_into), (c) => changeJson(c)))
      case "write_file":
        if (args.file_path === undefined || args.file_path.length === 0) {
          return refuse("file_path is required for 'write_file'. Example: 'references/api-guide.md'")
        }
        if (args.file_content === undefined) return refuse("file_content is required for 'write_file'.")
        return yield* answer(Effect.map(skills.writeFile(args.name, args.file_path, args.file_content), (c) => changeJson(c)))
      case "remove_file":
        if (args.file_path === undefined || args.file_path.length === 0) return refuse("file_path is required for 'remove_file'.")
        return yield* answer(Effect.map(skills.removeFile(args.name, args.file_path), (c) => changeJson(c)))
    }
  })

export const skillManageTool = defineTool({
  name: "skill_manage",
  toolset: "skills",
  emoji: "📝",
  description:
    "Create, fix and retire skills: your procedural memory, reusable instructions for a kind of task. New skills go to the skills folder of " +
    "this runtime's home; skills from external folders are read-only.\n\n" +
    "Actions: create (name, full SKILL.md content, optional category); patch (old_string → new_string, the preferred way to fix a skill; " +
    "SKILL.md unless file_path names a supporting file); edit (rewrite SKILL.md whole); delete (absorbed_into names the skill it was merged " +
    "into, if any); write_file / remove_file (supporting files under references/, templates/, scripts/, assets/).\n\n" +
    "Create one after a hard task succeeded (many steps, errors overcome, the user corrected your approach) or when asked to remember a " +
    "procedure. Patch one as soon as it proved wrong or incomplete. A good skill says when to use it, gives numbered steps with exact " +
    "commands, lists pitfalls and how to verify. Ask the user before creating or deleting skills.",
  parameters: SkillManageParameters,
  handler: (args: Args) => run(args)
})
