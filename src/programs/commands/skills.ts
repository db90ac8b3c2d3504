/**
 * `hermes-effect skills list | view <name> | install <dir|tar.gz> | audit [name] | uninstall <name>`:
 * the skills of the home (and `skills.external_dirs`), installing through the guard.
 */
import { Args, Command, Options } from "@effect/cli"
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import { Effect, Layer, Option } from "effect"
import { Skills } from "../../services/Skills.js"
import type { AuditEntry, Finding } from "../../services/Skills.js"
import { operatorOnly } from "../operatorOnly.js"
import { configLayer } from "./lazy.js"
import { jsonOption, table, writeErr, writeOut } from "./shared.js"

const withSkills = <A, E>(program: Effect.Effect<A, E, Skills>) =>
  Effect.provide(
    program,
    Layer.unwrapEffect(Effect.promise(() => import("../../layers/SkillsLive.js")).pipe(Effect.map((m) => m.SkillsLive))).pipe(
      Layer.provideMerge(configLayer),
      Layer.provide(NodeFileSystem.layer)
    )
  )

const clip = (text: string, width: number) => (text.length <= width ? text : `${text.slice(0, width - 1)}…`)

const categoryOption = Options.text("category").pipe(Options.withDescription("Only this category (install: the category folder to put it in)"), Options.optional)

const list = Command.make("list", { json: jsonOption, category: categoryOption }, (opts) =>
  withSkills(Effect.gen(function*() {
    const skills = yield* Skills
    const listing = yield* skills.list({ category: Option.getOrUndefined(opts.category) })
    if (opts.json) return yield* writeOut(JSON.stringify(listing.skills, null, 2))
    if (listing.skills.length === 0) return yield* writeOut(listing.total === 0 ? "no skills" : "no skills in that category")
    yield* writeOut(table([
      ["NAME", "CATEGORY", "DESCRIPTION"],
      ...listing.skills.map((s) => [s.name, s.category ?? "-", clip(s.description.replace(/\s+/g, " "), 90)])
    ]))
  }))
).pipe(Command.withDescription("Skills available to the model: name, category, description"))

const view = Command.make(
  "view",
  {
    json: jsonOption,
    file: Options.text("file").pipe(Options.withDescription("A supporting file of the skill, e.g. references/api.md"), Options.optional),
    name: Args.text({ name: "name" }).pipe(Args.withDescription("Skill name or category/name"))
  },
  (opts) =>
    withSkills(Effect.gen(function*() {
      const skills = yield* Skills
      const shown = yield* skills.view(opts.name, Option.getOrUndefined(opts.file)).pipe(
        Effect.tapErrorTag("SkillNotFound", (e) =>
          e.available === undefined || e.available.length === 0 ? Effect.void : writeErr(`available: ${e.available.join(", ")}`)),
        Effect.tapErrorTag("SkillAmbiguous", (e) => writeErr(`matches:\n${e.matches.map((m) => `  ${m}`).join("\n")}`))
      )
      if (opts.json) {
        const { viewJson } = yield* Effect.promise(() => import("../../tools/skills/skillView.js"))
        return yield* writeOut(JSON.stringify(viewJson(shown), null, 2))
      }
      yield* writeOut(shown.content)
      if (shown._tag === "File") return
      const notes: Array<string> = []
      for (const [folder, files] of Object.entries(shown.linkedFiles)) notes.push(`${folder}: ${files.join(", ")}`)
      if (shown.readiness.setupNote !== undefined) notes.push(shown.readiness.setupNote)
      if (notes.length > 0) yield* writeErr(`\n${shown.skillDir ?? shown.path}\n${notes.map((n) => `  ${n}`).join("\n")}`)
    }))
).pipe(Command.withDescription("Print a skill's SKILL.md (or one of its files); linked files and missing setup go to stderr"))

const install = Command.make(
  "install",
  {
    json: jsonOption,
    force: Options.boolean("force").pipe(Options.withDescription("Install despite a block (never a dangerous verdict from a community or trusted source)")),
    category: categoryOption,
    source: Options.text("source").pipe(
      Options.withDescription("Where the skill comes from, for the trust policy (e.g. anthropics/skills/pdf); default: the path"),
      Options.optional
    ),
    path: Args.text({ name: "path" }).pipe(Args.withDescription("A skill folder (holding SKILL.md) or a .tar.gz / .tgz / .tar of one"))
  },
  operatorOnly("skills install", (opts) =>
    withSkills(Effect.gen(function*() {
      const skills = yield* Skills
      const report = yield* skills.install(opts.path, {
        force: opts.force,
        category: Option.getOrUndefined(opts.category),
        source: Option.getOrUndefined(opts.source)
      }).pipe(Effect.tapErrorTag("SkillBlocked", (e) => (opts.json ? Effect.void : writeOut(e.report))))
      if (opts.json) return yield* writeOut(JSON.stringify(report, null, 2))
      const { formatReport } = yield* Effect.promise(() => import("../../layers/skills/guard/policy.js"))
      yield* writeOut(`${formatReport(report.scan, report.decision)}\ninstalled ${report.name} → ${report.path}`)
    })))
).pipe(Command.withDescription("Scan a skill with the guard and install it into the home's skills folder if the trust policy allows"))

const findingLine = (f: Finding) => `    ${f.severity.toUpperCase().padEnd(8)} ${f.category.padEnd(20)} ${(f.line > 0 ? `${f.file}:${f.line}` : f.file).padEnd(28)} ${f.description}`

const decision = (e: AuditEntry) => (e.decision.allowed === true ? "allow" : e.decision.allowed === "ask" ? "ask" : "block")

const audit = Command.make(
  "audit",
  {
    json: jsonOption,
    name: Args.text({ name: "name" }).pipe(Args.withDescription("One skill (default: all)"), Args.optional)
  },
  (opts) =>
    withSkills(Effect.gen(function*() {
      const skills = yield* Skills
      const entries = yield* skills.audit(Option.getOrUndefined(opts.name))
      if (opts.json) return yield* writeOut(JSON.stringify(entries, null, 2))
      if (entries.length === 0) return yield* writeOut("no skills")
      const lines = [table([
        ["NAME", "VERDICT", "TRUST", "ORIGIN", "POLICY", "FINDINGS"],
        ...entries.map((e) => [e.name, e.scan.verdict, e.scan.trust, e.origin, decision(e), String(e.scan.findings.length)])
      ])]
      for (const e of entries.filter((x) => x.scan.findings.length > 0)) {
        lines.push("", `${e.name} (${e.path}):`, ...e.scan.findings.map(findingLine))
      }
      yield* writeOut(lines.join("\n"))
    }))
).pipe(Command.withDescription("Scan installed skills with the guard: verdict, trust, what the policy would decide, findings"))

const uninstall = Command.make("uninstall", { name: Args.text({ name: "name" }).pipe(Args.withDescription("Skill folder name")) }, operatorOnly("skills uninstall", (opts) =>
  withSkills(Effect.gen(function*() {
    const skills = yield* Skills
    const change = yield* skills.uninstall(opts.name)
    yield* writeOut(change.message)
  }))
)).pipe(Command.withDescription("Remove a skill from the home's skills folder (a bundled one is not seeded again)"))

export const skillsCommand = Command.make("skills").pipe(
  Command.withDescription("Skill documents: list, view, install (guarded), audit, uninstall"),
  Command.withSubcommands([list, view, install, audit, uninstall])
)
