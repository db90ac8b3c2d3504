/**
 * skills_list, skill_view and skill_manage through the registry: the JSON
 * the model sees, on a real skills dir in a temp home plus a read-only
 * external dir.
 */
import { existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { expect, layer as withLayer } from "@effect/vitest"
import { Effect } from "effect"
import { ConfigTest } from "../../src/layers/ConfigTest.js"
import { layer as hermesRuntime } from "../../src/layers/HermesRuntime.js"
import { makeSkillsLive } from "../../src/layers/SkillsLive.js"
import { Config } from "../../src/services/Config.js"
import { ToolExecutor } from "../../src/services/ToolExecutor.js"
import { tempHome } from "../support/runtime.js"
import { skillMd, writeSkill } from "./helpers.js"

type Json = Record<string, unknown>

const root = tempHome("hermes-skills-tools-")
const skillsDir = join(root, "skills")
const external = tempHome("hermes-skills-external-")
const outside = tempHome("hermes-skills-outside-")
writeFileSync(join(outside, "secret.txt"), "not for skills\n")

// Fixtures present before the runtime starts.
writeSkill(join(skillsDir, "devops", "deploy-app"), {
  "SKILL.md": skillMd("deploy-app", "Deploy the app.", "metadata:\n  hermes:\n    tags: [ops, deploy]\n    related_skills: [rollback]\n"),
  "references/api.md": "# API\n",
  "references/notes.txt": "not listed: references lists *.md only\n",
  "templates/config.yaml": "a: 1\n",
  "templates/nested/page.md": "# page\n",
  "templates/image.png": "not listed\n",
  "scripts/check.sh": "#!/bin/sh\necho ok\n",
  "scripts/tool.exe": "not listed\n",
  "assets/logo.bin": "\u0000\u0001\u0002binary",
  "assets/deep/data.csv": "a,b\n"
})
writeSkill(join(skillsDir, "alpha"), { "SKILL.md": skillMd("alpha", "First skill.") })
writeSkill(join(skillsDir, "no-desc"), { "SKILL.md": "---\nname: no-desc\n---\n\n# Heading\n\nThe first real line.\nMore.\n" })
writeSkill(join(skillsDir, "dir-name-differs"), { "SKILL.md": skillMd("real-skill-name", "Frontmatter name wins.") })
writeSkill(join(skillsDir, "windows-only"), { "SKILL.md": skillMd("windows-only", "Not here.", "platforms: [windows]\n") })
writeSkill(join(skillsDir, "hidden-skill"), { "SKILL.md": skillMd("hidden-skill", "Disabled in config.") })
writeSkill(join(skillsDir, "umbrella"), {
  "SKILL.md": skillMd("umbrella", "Has an archived package in references."),
  "references/old-package/SKILL.md": skillMd("old-package", "Support data, not a skill.")
})
writeSkill(join(skillsDir, "legacy"), { "flat-one.md": "# Flat skill\n\nA legacy single-file skill.\n" })
writeSkill(join(skillsDir, "gated"), {
  "SKILL.md": skillMd(
    "gated",
    "Needs setup.",
    "required_environment_variables:\n  - name: HERMES_TEST_SET_VAR\n  - name: HERMES_TEST_MISSING_VAR\n    help: Get it from the dashboard.\n  - name: HERMES_TEST_FROM_DOTENV\nprerequisites:\n  commands: [definitely-missing-cmd, sh]\nrequired_credential_files: [creds/token.json]\n"
  )
})
writeSkill(join(skillsDir, "leaky"), { "SKILL.md": skillMd("leaky", "Has an escaping link.") })
symlinkSync(join(outside, "secret.txt"), join(skillsDir, "leaky", "references-leak.md"))
mkdirSync(join(skillsDir, "leaky", "references"))
symlinkSync(join(outside, "secret.txt"), join(skillsDir, "leaky", "references", "leak.md"))
writeSkill(join(external, "shared-name"), { "SKILL.md": skillMd("shared-name", "External copy.") })
writeSkill(join(skillsDir, "shared-name"), { "SKILL.md": skillMd("shared-name", "Local copy.") })
writeSkill(join(external, "tools", "ext-only"), { "SKILL.md": skillMd("ext-only", "Only in the external dir.") })
writeFileSync(join(root, ".env"), "HERMES_TEST_FROM_DOTENV=yes\n")
process.env["HERMES_TEST_SET_VAR"] = "1"

const runtime = hermesRuntime({
  plugins: false,
  mcp: false,
  skills: makeSkillsLive({ bundled: [], hasCommand: (c) => c === "sh" }),
  config: ConfigTest(
    { skills: { external_dirs: [external], disabled: ["hidden-skill"] } },
    { root, workspaceDir: join(root, "workspace"), pluginsDir: join(root, "plugins") }
  )
})

const call = (tool: string, args: Json) =>
  Effect.map(Effect.flatMap(ToolExecutor, (r) => r.dispatch({ tool, args }, { context: { taskId: "skills" } })), (s) => JSON.parse(s) as Json)

const manage = (args: Json) => call("skill_manage", args)

withLayer(runtime, { excludeTestServices: true, timeout: "60 seconds" })("skill tools", (it) => {
  // ------------------------------------------------------------------ skills_list
  it.effect("skills_list: names, descriptions, categories, sorted; platform, disabled, support data and duplicates left out", () =>
    Effect.gen(function*() {
      const r = yield* call("skills_list", {})
      expect(r["success"]).toBe(true)
      const skills = r["skills"] as Array<{ name: string; description: string; category: string | null }>
      const names = skills.map((s) => s.name)
      expect(names).toContain("alpha")
      expect(names).toContain("real-skill-name")
      expect(names).not.toContain("windows-only")
      expect(names).not.toContain("hidden-skill")
      expect(names).not.toContain("old-package")
      expect(names.filter((n) => n === "shared-name")).toHaveLength(1)
      expect(skills.find((s) => s.name === "shared-name")?.description).toBe("Local copy.") // local root first
      expect(skills.find((s) => s.name === "no-desc")?.description).toBe("The first real line.")
      expect(skills.find((s) => s.name === "deploy-app")).toEqual({ name: "deploy-app", description: "Deploy the app.", category: "devops" })
      expect(skills.find((s) => s.name === "ext-only")?.category).toBe("tools")
      const keys = skills.map((s) => `${s.category ?? ""}\u0000${s.name}`)
      expect(keys).toEqual([...keys].sort())
      expect(r["categories"]).toEqual(["devops", "tools"])
      expect(r["count"]).toBe(skills.length)
      expect(r["hint"]).toBe("Use skill_view(name) to see full content, tags, and linked files")
    }))

  it.effect("skills_list: category filter", () =>
    Effect.gen(function*() {
      const r = yield* call("skills_list", { category: "devops" })
      expect((r["skills"] as Array<Json>).map((s) => s["name"])).toEqual(["deploy-app"])
      expect(r["categories"]).toEqual(["devops"])
      const none = yield* call("skills_list", { category: "nope" })
      expect(none).toMatchObject({ success: true, skills: [], categories: [], count: 0 })
    }))

  // ------------------------------------------------------------------ skill_view
  it.effect("skill_view: the whole skill with tags, related skills and linked files by folder and extension", () =>
    Effect.gen(function*() {
      const r = yield* call("skill_view", { name: "deploy-app" })
      expect(r).toMatchObject({
        success: true,
        name: "deploy-app",
        description: "Deploy the app.",
        tags: ["ops", "deploy"],
        related_skills: ["rollback"],
        path: "devops/deploy-app/SKILL.md",
        skill_dir: join(skillsDir, "devops", "deploy-app"),
        readiness_status: "available",
        setup_needed: false
      })
      expect(String(r["content"])).toContain("Step 1: do the thing.")
      expect(r["linked_files"]).toEqual({
        references: ["references/api.md"],
        templates: ["templates/nested/page.md", "templates/config.yaml"],
        assets: ["assets/deep/data.csv", "assets/logo.bin"],
        scripts: ["scripts/check.sh"]
      })
      expect(String(r["usage_hint"])).toContain("skill_view(name, file_path)")
      expect(r["metadata"]).toEqual({ hermes: { tags: ["ops", "deploy"], related_skills: ["rollback"] } })
    }))

  it.effect("skill_view: by category path, by frontmatter name, by `plugin:skill` falling through to the folder", () =>
    Effect.gen(function*() {
      expect((yield* call("skill_view", { name: "devops/deploy-app" }))["name"]).toBe("deploy-app")
      const byFrontmatter = yield* call("skill_view", { name: "real-skill-name" })
      expect(byFrontmatter).toMatchObject({ success: true, name: "real-skill-name", skill_dir: join(skillsDir, "dir-name-differs") })
      expect((yield* call("skill_view", { name: "devops:deploy-app" }))["name"]).toBe("deploy-app")
      expect(yield* call("skill_view", { name: "bad ns:x" })).toEqual({
        success: false,
        error: "Invalid namespace 'bad ns' in 'bad ns:x'. Namespaces must match [a-zA-Z0-9_-]+."
      })
      expect((yield* call("skill_view", { name: "flat-one" }))).toMatchObject({ success: true, name: "flat-one", skill_dir: null })
    }))

  it.effect("skill_view: a name in the local and an external root is ambiguous, answered with both paths", () =>
    Effect.gen(function*() {
      const r = yield* call("skill_view", { name: "shared-name" })
      expect(r["success"]).toBe(false)
      expect(String(r["error"])).toBe(
        "Ambiguous skill name 'shared-name': 2 skills match across your local skills dir and external_dirs. Refusing to guess — load one explicitly by its categorized path."
      )
      expect(r["matches"]).toEqual([join(skillsDir, "shared-name", "SKILL.md"), join(external, "shared-name", "SKILL.md")])
      expect(String(r["hint"])).toContain("category/skill-name")
    }))

  it.effect("skill_view: a missing name is answered with skills that exist", () =>
    Effect.gen(function*() {
      const r = yield* call("skill_view", { name: "nonexistent" })
      expect(r).toMatchObject({ success: false, error: "Skill 'nonexistent' not found.", hint: "Use skills_list to see all available skills" })
      expect(r["available_skills"]).toContain("alpha")
      expect((r["available_skills"] as Array<string>).length).toBeLessThanOrEqual(20)
    }))

  it.effect("skill_view: support-folder SKILL.md files are not skills; traversal and absolute names refused", () =>
    Effect.gen(function*() {
      expect((yield* call("skill_view", { name: "old-package" }))["error"]).toBe("Skill 'old-package' not found.")
      expect(yield* call("skill_view", { name: "../etc" })).toEqual({
        success: false,
        error: "Skill name cannot contain '..' path traversal components.",
        hint: "Use a skill name or relative path within the skills directory."
      })
      expect((yield* call("skill_view", { name: "/etc/passwd" }))["error"]).toBe("Skill name must be a relative path within the skills directory.")
    }))

  it.effect("skill_view: platform mismatch is unsupported; disabled skills are refused", () =>
    Effect.gen(function*() {
      expect(yield* call("skill_view", { name: "windows-only" })).toEqual({
        success: false,
        error: "Skill 'windows-only' is not supported on this platform.",
        readiness_status: "unsupported"
      })
      expect(String((yield* call("skill_view", { name: "hidden-skill" }))["error"])).toMatch(/^Skill 'hidden-skill' is disabled\./)
    }))

  it.effect("skill_view: readiness lists missing variables (process env and the home's .env count), commands and files", () =>
    Effect.gen(function*() {
      const r = yield* call("skill_view", { name: "gated" })
      expect(r).toMatchObject({
        success: true,
        setup_needed: true,
        readiness_status: "setup_needed",
        missing_required_environment_variables: ["HERMES_TEST_MISSING_VAR"],
        required_commands: ["definitely-missing-cmd", "sh"],
        missing_required_commands: ["definitely-missing-cmd"],
        missing_credential_files: ["creds/token.json"],
        setup_help: "Get it from the dashboard."
      })
      expect(r["required_environment_variables"]).toEqual([
        { name: "HERMES_TEST_SET_VAR", prompt: "Enter value for HERMES_TEST_SET_VAR" },
        { name: "HERMES_TEST_MISSING_VAR", prompt: "Enter value for HERMES_TEST_MISSING_VAR", help: "Get it from the dashboard." },
        { name: "HERMES_TEST_FROM_DOTENV", prompt: "Enter value for HERMES_TEST_FROM_DOTENV" }
      ])
      expect(r["setup_note"]).toBe(
        "Setup needed before using this skill: missing env $HERMES_TEST_MISSING_VAR, command definitely-missing-cmd, file creds/token.json. Get it from the dashboard."
      )
      // Once the file exists and the variable is set, the skill is ready.
      mkdirSync(join(root, "creds"), { recursive: true })
      writeFileSync(join(root, "creds", "token.json"), "{}")
      process.env["HERMES_TEST_MISSING_VAR"] = "now set"
      try {
        const ready = yield* call("skill_view", { name: "gated" })
        expect(ready["missing_required_environment_variables"]).toEqual([])
        expect(ready["missing_credential_files"]).toEqual([])
        expect(ready["readiness_status"]).toBe("setup_needed") // the command is still missing
      } finally {
        delete process.env["HERMES_TEST_MISSING_VAR"]
      }
    }))

  it.effect("skill_view file_path: a linked file, a binary placeholder, a missing file with what is available", () =>
    Effect.gen(function*() {
      expect(yield* call("skill_view", { name: "deploy-app", file_path: "references/api.md" })).toEqual({
        success: true,
        name: "deploy-app",
        file: "references/api.md",
        content: "# API\n",
        file_type: ".md"
      })
      const bin = yield* call("skill_view", { name: "deploy-app", file_path: "assets/logo.bin" })
      expect(bin).toMatchObject({ success: true, is_binary: true })
      expect(String(bin["content"])).toMatch(/^\[Binary file: logo\.bin, size: \d+ bytes\]$/)
      const missing = yield* call("skill_view", { name: "deploy-app", file_path: "references/nope.md" })
      expect(missing).toMatchObject({ success: false, error: "File 'references/nope.md' not found in skill 'deploy-app'." })
      expect((missing["available_files"] as Record<string, Array<string>>)["references"]).toEqual(["references/api.md", "references/notes.txt"])
    }))

  it.effect("skill_view file_path: `..`, absolute paths and symlinks out of the skill are refused", () =>
    Effect.gen(function*() {
      expect(yield* call("skill_view", { name: "deploy-app", file_path: "../alpha/SKILL.md" })).toEqual({
        success: false,
        error: "Path traversal ('..') is not allowed.",
        hint: "Use a relative path within the skill directory"
      })
      const link = yield* call("skill_view", { name: "leaky", file_path: "references/leak.md" })
      expect(link["success"]).toBe(false)
      expect(String(link["error"])).toMatch(/^Path escapes allowed directory/)
      expect(JSON.stringify(link)).not.toContain("not for skills")
      const abs = yield* call("skill_view", { name: "leaky", file_path: join(outside, "secret.txt") })
      expect(String(abs["error"])).toMatch(/^Path escapes allowed directory/)
      // skill_view of the skill itself does not list the escaping link.
      expect((yield* call("skill_view", { name: "leaky" }))["linked_files"]).toBeNull()
    }))

  // ------------------------------------------------------------------ skill_manage
  it.effect("create: writes SKILL.md under the category; the new skill lists and loads at once", () =>
    Effect.gen(function*() {
      const content = skillMd("fresh-skill", "Brand new.")
      const r = yield* manage({ action: "create", name: "fresh-skill", content, category: "tools" })
      expect(r).toEqual({
        success: true,
        message: "Skill 'fresh-skill' created.",
        path: "tools/fresh-skill",
        skill_md: join(skillsDir, "tools", "fresh-skill", "SKILL.md"),
        category: "tools",
        hint: "To add reference files, templates, or scripts, use skill_manage(action='write_file', name='fresh-skill', file_path='references/example.md', file_content='...')"
      })
      expect(readFileSync(join(skillsDir, "tools", "fresh-skill", "SKILL.md"), "utf8")).toBe(content)
      const listed = (yield* call("skills_list", { category: "tools" }))["skills"] as Array<Json>
      expect(listed.map((s) => s["name"])).toContain("fresh-skill")
    }))

  it.effect("create: refusals (name, category, frontmatter, missing content, duplicate anywhere, size)", () =>
    Effect.gen(function*() {
      expect(yield* manage({ action: "create", name: "Bad Name", content: skillMd("x", "y") })).toEqual({
        success: false,
        error: "Invalid skill name 'Bad Name'. Use lowercase letters, numbers, hyphens, dots, and underscores. Must start with a letter or digit."
      })
      expect((yield* manage({ action: "create", name: "ok-name", content: skillMd("x", "y"), category: "../escape" }))["error"]).toBe(
        "Invalid category '../escape'. Use lowercase letters, numbers, hyphens, dots, and underscores. Categories must be a single directory name."
      )
      expect((yield* manage({ action: "create", name: "ok-name", content: "no frontmatter" }))["error"]).toBe(
        "SKILL.md must start with YAML frontmatter (---). See existing skills for format."
      )
      expect((yield* manage({ action: "create", name: "ok-name" }))["error"]).toBe(
        "content is required for 'create'. Provide the full SKILL.md text (frontmatter + body)."
      )
      expect((yield* manage({ action: "create", name: "alpha", content: skillMd("alpha", "again") }))["error"]).toBe(
        `A skill named 'alpha' already exists at ${join(skillsDir, "alpha")}.`
      )
      expect((yield* manage({ action: "create", name: "ext-only", content: skillMd("ext-only", "again") }))["error"]).toContain("already exists")
      const huge = skillMd("huge", "big", "", "x".repeat(100_001))
      expect(String((yield* manage({ action: "create", name: "huge", content: huge }))["error"])).toMatch(/^SKILL\.md content is 100,0\d\d characters \(limit: 100,000\)/)
      expect(existsSync(join(skillsDir, "ok-name"))).toBe(false)
      expect(existsSync(join(skillsDir, "huge"))).toBe(false)
    }))

  it.effect("edit: full rewrite with validation; external skills are read-only", () =>
    Effect.gen(function*() {
      yield* manage({ action: "create", name: "to-edit", content: skillMd("to-edit", "v1") })
      const v2 = skillMd("to-edit", "v2", "", "# Two\n\nNew steps.\n")
      expect(yield* manage({ action: "edit", name: "to-edit", content: v2 })).toEqual({
        success: true,
        message: "Skill 'to-edit' updated (full rewrite).",
        path: join(skillsDir, "to-edit")
      })
      expect(readFileSync(join(skillsDir, "to-edit", "SKILL.md"), "utf8")).toBe(v2)
      expect((yield* manage({ action: "edit", name: "to-edit", content: "---\nname: x\n---\n" }))["error"]).toBe(
        "Frontmatter must include 'description' field."
      )
      expect((yield* manage({ action: "edit", name: "nope", content: v2 }))["error"]).toBe("Skill 'nope' not found. Use skills_list() to see available skills.")
      const ext = yield* manage({ action: "edit", name: "ext-only", content: skillMd("ext-only", "changed") })
      expect(String(ext["error"])).toContain("lives in skills.external_dirs")
      expect(readFileSync(join(external, "tools", "ext-only", "SKILL.md"), "utf8")).toContain("Only in the external dir.")
    }))

  it.effect("patch: the patch tool's matcher (whitespace-tolerant), counts, and its refusals", () =>
    Effect.gen(function*() {
      yield* manage({ action: "create", name: "to-patch", content: skillMd("to-patch", "Patch me.", "", "# T\n\nrun   the   tests\nold old\n") })
      expect(yield* manage({ action: "patch", name: "to-patch", old_string: "run the tests", new_string: "run the full suite" })).toEqual({
        success: true,
        message: "Patched SKILL.md in skill 'to-patch' (1 replacement).",
        _change: { old: "run the tests", new: "run the full suite" }
      })
      expect(readFileSync(join(skillsDir, "to-patch", "SKILL.md"), "utf8")).toContain("run the full suite")
      const twice = yield* manage({ action: "patch", name: "to-patch", old_string: "old", new_string: "new" })
      expect(String(twice["error"])).toMatch(/^Found 2 matches for old_string/)
      expect((yield* manage({ action: "patch", name: "to-patch", old_string: "old", new_string: "new", replace_all: true }))["message"]).toBe(
        "Patched SKILL.md in skill 'to-patch' (2 replacements)."
      )
      const miss = yield* manage({ action: "patch", name: "to-patch", old_string: "not in the file at all", new_string: "x" })
      expect(String(miss["error"])).toMatch(/^Could not find a match for old_string/)
      expect(String(miss["file_preview"])).toContain("name: to-patch")
      // The change preview stops at 200 characters (code points), as Hermes' does.
      const long = `# T\n\n${"é".repeat(250)}\n`
      yield* manage({ action: "edit", name: "to-patch", content: skillMd("to-patch", "Patch me.", "", long) })
      const previewed = yield* manage({ action: "patch", name: "to-patch", old_string: "é".repeat(250), new_string: "short" })
      expect(previewed["_change"]).toEqual({ old: `${"é".repeat(200)}…`, new: "short" })
      const breaks = yield* manage({ action: "patch", name: "to-patch", old_string: "description: Patch me.\n", new_string: "" })
      expect(breaks["error"]).toBe("Patch would break SKILL.md structure: Frontmatter must include 'description' field.")
      expect((yield* manage({ action: "patch", name: "to-patch", new_string: "x" }))["error"]).toBe(
        "old_string is required for 'patch'. Provide the text to find."
      )
      expect((yield* manage({ action: "patch", name: "to-patch", old_string: "x" }))["error"]).toBe(
        "new_string is required for 'patch'. Use empty string to delete matched text."
      )
    }))

  it.effect("write_file / patch a supporting file / remove_file, with the folder rules", () =>
    Effect.gen(function*() {
      yield* manage({ action: "create", name: "with-files", content: skillMd("with-files", "Files.") })
      const w = yield* manage({ action: "write_file", name: "with-files", file_path: "references/notes.md", file_content: "alpha beta\n" })
      expect(w).toEqual({ success: true, message: "File 'references/notes.md' written to skill 'with-files'.", path: join(skillsDir, "with-files", "references", "notes.md") })
      expect((yield* manage({ action: "patch", name: "with-files", file_path: "references/notes.md", old_string: "beta", new_string: "gamma" }))["message"]).toBe(
        "Patched references/notes.md in skill 'with-files' (1 replacement)."
      )
      expect(readFileSync(join(skillsDir, "with-files", "references", "notes.md"), "utf8")).toBe("alpha gamma\n")
      expect((yield* manage({ action: "write_file", name: "with-files", file_path: "notes.md", file_content: "x" }))["error"]).toBe(
        "File must be under one of: assets, references, scripts, templates. Got: 'notes.md'"
      )
      expect((yield* manage({ action: "write_file", name: "with-files", file_path: "references/../../x.md", file_content: "x" }))["error"]).toBe(
        "Path traversal ('..') is not allowed."
      )
      const big = yield* manage({ action: "write_file", name: "with-files", file_path: "assets/big.txt", file_content: "x".repeat(1_048_577) })
      expect(big["error"]).toBe("File content is 1,048,577 bytes (limit: 1,048,576 bytes / 1 MiB). Consider splitting into smaller files.")
      expect((yield* manage({ action: "write_file", name: "nope", file_path: "references/a.md", file_content: "x" }))["error"]).toBe(
        "Skill 'nope' not found. Use skills_list() to see available skills. Create it first with action='create'."
      )
      expect(yield* manage({ action: "remove_file", name: "with-files", file_path: "references/notes.md" })).toEqual({
        success: true,
        message: "File 'references/notes.md' removed from skill 'with-files'."
      })
      expect(existsSync(join(skillsDir, "with-files", "references"))).toBe(false) // emptied folder removed
      yield* manage({ action: "write_file", name: "with-files", file_path: "scripts/run.sh", file_content: "echo hi\n" })
      expect(yield* manage({ action: "remove_file", name: "with-files", file_path: "references/gone.md" })).toEqual({
        success: false,
        error: "File 'references/gone.md' not found in skill 'with-files'.",
        available_files: ["scripts/run.sh"]
      })
    }))

  it.effect("writes through a symlinked folder that leaves the skill are refused", () =>
    Effect.gen(function*() {
      yield* manage({ action: "create", name: "linked-out", content: skillMd("linked-out", "Symlinked folder.") })
      symlinkSync(outside, join(skillsDir, "linked-out", "assets"))
      const r = yield* manage({ action: "write_file", name: "linked-out", file_path: "assets/planted.txt", file_content: "x" })
      expect(String(r["error"])).toMatch(/^Path escapes allowed directory/)
      expect(existsSync(join(outside, "planted.txt"))).toBe(false)
      const rm = yield* manage({ action: "remove_file", name: "linked-out", file_path: "assets/secret.txt" })
      expect(String(rm["error"])).toMatch(/^Path escapes allowed directory/)
      expect(existsSync(join(outside, "secret.txt"))).toBe(true)
    }))

  it.effect("delete: absorbed_into must exist and differ; the emptied category folder goes too; links are not followed", () =>
    Effect.gen(function*() {
      yield* manage({ action: "create", name: "to-delete", content: skillMd("to-delete", "Bye."), category: "lonely" })
      expect((yield* manage({ action: "delete", name: "to-delete", absorbed_into: "to-delete" }))["error"]).toBe(
        "absorbed_into='to-delete' cannot equal the skill being deleted."
      )
      expect((yield* manage({ action: "delete", name: "to-delete", absorbed_into: "ghost" }))["error"]).toBe(
        "absorbed_into='ghost' does not exist. Create or patch the umbrella skill first, then retry the delete."
      )
      expect(yield* manage({ action: "delete", name: "to-delete", absorbed_into: "alpha" })).toEqual({
        success: true,
        message: "Skill 'to-delete' deleted. Content absorbed into 'alpha'."
      })
      expect(existsSync(join(skillsDir, "lonely"))).toBe(false)
      // A skill folder that is itself a link is refused (rm -r would follow it).
      writeSkill(join(outside, "linked-skill"), { "SKILL.md": skillMd("linked-skill", "Lives elsewhere.") })
      symlinkSync(join(outside, "linked-skill"), join(skillsDir, "linked-skill"))
      const r = yield* manage({ action: "delete", name: "linked-skill" })
      expect(String(r["error"])).toContain("the skill directory is a symlink/junction")
      expect(existsSync(join(outside, "linked-skill", "SKILL.md"))).toBe(true)
    }))

  it.effect("the created skill's file is a regular file with ordinary permissions", () =>
    Effect.gen(function*() {
      yield* manage({ action: "create", name: "perm-check", content: skillMd("perm-check", "Mode.") })
      const mode = statSync(join(skillsDir, "perm-check", "SKILL.md")).mode & 0o777
      expect(mode & 0o022).toBe(0)
      const home = yield* Effect.map(Config, (c) => c.home.skillsDir)
      expect(home).toBe(skillsDir)
    }))
})
