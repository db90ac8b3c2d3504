/**
 * Skills: on-demand knowledge documents in the agentskills.io layout, so
 * skills written for Hermes (and Claude/OpenAI skill repos) work unchanged.
 *
 *   <home>/skills/[<category>/]<name>/SKILL.md   + references/ templates/ scripts/ assets/
 *   skills.external_dirs                          extra roots, read-only here
 *
 * Progressive disclosure: `list` is names, descriptions and categories only
 * (cached); `view` is one whole skill with its linked files listed, or one
 * supporting file. `create`…`removeFile` are skill_manage's actions with
 * Hermes' validation. `install` and `audit` run the guard (threat rules,
 * structure checks, trust policy) before anything reaches the skills dir.
 *
 * Refusals the model or a user should act on are typed errors with a
 * `message` (and the extra facts Hermes returns: candidates, available files).
 */
import { Context, Schema } from "effect"
import type { Effect } from "effect"

// ---------------------------------------------------------------------------
// Domain types

/** Where skills are found: the home's skills dir (writable) and `skills.external_dirs` (read-only). */
export interface SkillRoot {
  readonly path: string
  readonly kind: "local" | "external"
}

export interface SkillSummary {
  readonly name: string
  readonly description: string
  /** The first directory under the root when the skill sits in one (`<root>/<category>/<name>/SKILL.md`). */
  readonly category: string | null
}

export interface SkillListing {
  /** Sorted by (category, name). */
  readonly skills: ReadonlyArray<SkillSummary>
  readonly categories: ReadonlyArray<string>
  /** Skills found before the category filter (0 means the dirs hold no skill at all). */
  readonly total: number
}

export interface RequiredEnvVar {
  readonly name: string
  readonly prompt: string
  readonly help?: string
  readonly requiredFor?: string
  readonly optional?: boolean
}

export type ReadinessStatus = "available" | "setup_needed"

/** What a skill needs before it works here: variables, commands on PATH, credential files. */
export interface SkillReadiness {
  readonly requiredEnvironmentVariables: ReadonlyArray<RequiredEnvVar>
  readonly requiredCommands: ReadonlyArray<string>
  readonly missingEnvironmentVariables: ReadonlyArray<string>
  readonly missingCommands: ReadonlyArray<string>
  readonly missingCredentialFiles: ReadonlyArray<string>
  readonly setupNeeded: boolean
  readonly status: ReadinessStatus
  readonly setupHelp?: string
  readonly setupNote?: string
}

/** Supporting files by folder (references, templates, assets, scripts); empty folders left out. */
export type LinkedFiles = Readonly<Record<string, ReadonlyArray<string>>>

/** One skill, whole: what skill_view returns without `file_path`. */
export interface SkillDocument {
  readonly name: string
  readonly description: unknown
  readonly tags: ReadonlyArray<string>
  readonly relatedSkills: ReadonlyArray<string>
  /** SKILL.md as written (frontmatter included). */
  readonly content: string
  /** Relative to the local skills dir (or to the skill's parent for external skills). */
  readonly path: string
  readonly skillDir: string | null
  readonly root: SkillRoot
  readonly linkedFiles: LinkedFiles
  readonly readiness: SkillReadiness
  readonly compatibility?: unknown
  readonly metadata?: Readonly<Record<string, unknown>>
}

/** One supporting file of a skill. */
export interface SkillFile {
  readonly name: string
  readonly file: string
  readonly content: string
  /** The extension with its dot (".md"), "" when none. */
  readonly fileType: string
  readonly binary: boolean
}

export type SkillView =
  | ({ readonly _tag: "Document" } & SkillDocument)
  | ({ readonly _tag: "File" } & SkillFile)

/** skill_manage's outcome: Hermes' message plus where it happened. */
export interface SkillChange {
  readonly message: string
  /** The skill dir (create: relative to the local skills dir) or the file written. */
  readonly path?: string
  readonly skillMd?: string
  readonly category?: string
  readonly replacements?: number
}

export interface CreateSkill {
  readonly name: string
  readonly content: string
  readonly category?: string | undefined
}

export interface PatchSkill {
  readonly name: string
  readonly oldString: string
  readonly newString: string
  /** Default SKILL.md. */
  readonly filePath?: string | undefined
  readonly replaceAll?: boolean | undefined
}

// ---------------------------------------------------------------------------
// Guard

export type Severity = "critical" | "high" | "medium" | "low"

export type ThreatCategory =
  | "exfiltration"
  | "injection"
  | "obfuscation"
  | "persistence"
  | "destructive"
  | "network"
  | "supply_chain"
  | "credential_exposure"
  | "privilege_escalation"
  | "traversal"
  | "mining"
  | "execution"
  | "structural"

export interface Finding {
  readonly ruleId: string
  readonly severity: Severity
  readonly category: ThreatCategory
  /** Relative to the skill dir; "(directory)" for whole-skill findings. */
  readonly file: string
  /** 1-based; 0 for structure findings. */
  readonly line: number
  readonly match: string
  readonly description: string
}

/** critical → dangerous, high → caution, anything else → safe. */
export type Verdict = "safe" | "caution" | "dangerous"

/** Who the skill comes from: shipped with us, a trusted repo, anyone else, or the model itself. */
export type TrustLevel = "builtin" | "trusted" | "community" | "agent-created"

export type GuardAction = "allow" | "ask" | "block"

export interface ScanResult {
  readonly skill: string
  readonly source: string
  readonly trust: TrustLevel
  readonly verdict: Verdict
  readonly findings: ReadonlyArray<Finding>
  readonly summary: string
}

export interface GuardDecision {
  /** What the policy says for this trust level and verdict. */
  readonly policy: GuardAction
  /** After `force`: true = go ahead, "ask" = needs a person, false = refused. */
  readonly allowed: boolean | "ask"
  readonly reason: string
}

export interface InstallOptions {
  /** Override a block, except a dangerous verdict from a community or trusted source. */
  readonly force?: boolean | undefined
  /** Source id for the trust policy (`anthropics/skills/pdf`, `official`, …); default: the path. */
  readonly source?: string | undefined
  readonly category?: string | undefined
}

export interface InstallReport {
  readonly name: string
  readonly path: string
  readonly scan: ScanResult
  readonly decision: GuardDecision
}

export interface AuditEntry {
  readonly name: string
  readonly path: string
  /** bundled (unchanged), installed, local, external. */
  readonly origin: "bundled" | "installed" | "local" | "external"
  readonly scan: ScanResult
  readonly decision: GuardDecision
}

export interface SeedReport {
  readonly copied: ReadonlyArray<string>
  readonly updated: ReadonlyArray<string>
  /** The user changed these: the new bundled version was not written over them. */
  readonly userModified: ReadonlyArray<string>
  /** The user deleted these after seeding: not brought back. */
  readonly userDeleted: ReadonlyArray<string>
  readonly unchanged: ReadonlyArray<string>
}

// ---------------------------------------------------------------------------
// Errors

export class SkillNotFound extends Schema.TaggedError<SkillNotFound>()("SkillNotFound", {
  name: Schema.String,
  message: Schema.String,
  /** A few names that do exist (skill_view's candidates). */
  available: Schema.optional(Schema.Array(Schema.String))
}) {}

export class SkillAmbiguous extends Schema.TaggedError<SkillAmbiguous>()("SkillAmbiguous", {
  name: Schema.String,
  message: Schema.String,
  /** The SKILL.md of every match. */
  matches: Schema.Array(Schema.String)
}) {}

export class SkillFileNotFound extends Schema.TaggedError<SkillFileNotFound>()("SkillFileNotFound", {
  name: Schema.String,
  file: Schema.String,
  message: Schema.String,
  /** skill_view: files by folder; skill_manage remove_file: a flat list; null when the skill has none. */
  available: Schema.NullOr(Schema.Union(Schema.Array(Schema.String), Schema.Record({ key: Schema.String, value: Schema.Array(Schema.String) })))
}) {}

/** The skill declares platforms this machine is not. */
export class SkillUnsupported extends Schema.TaggedError<SkillUnsupported>()("SkillUnsupported", {
  name: Schema.String,
  message: Schema.String
}) {}

/** A request refused by validation (name, category, frontmatter, size, path, read-only root, …). */
export class SkillInvalid extends Schema.TaggedError<SkillInvalid>()("SkillInvalid", {
  message: Schema.String,
  /** Extra facts for the model (e.g. `file_preview` after a patch that matched nothing). */
  details: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown }))
}) {}

/** The guard refused the content (install, or a write by the model with `skills.guard_agent_created`). */
export class SkillBlocked extends Schema.TaggedError<SkillBlocked>()("SkillBlocked", {
  message: Schema.String,
  report: Schema.String
}) {}

export class SkillsIoError extends Schema.TaggedError<SkillsIoError>()("SkillsIoError", {
  message: Schema.String
}) {}

export type SkillLookupError = SkillNotFound | SkillAmbiguous | SkillInvalid | SkillsIoError
export type SkillViewError = SkillLookupError | SkillFileNotFound | SkillUnsupported
export type SkillWriteError = SkillNotFound | SkillInvalid | SkillBlocked | SkillsIoError

// ---------------------------------------------------------------------------
// Service

export interface SkillsService {
  /** The local root first, then the external roots that exist. */
  readonly roots: Effect.Effect<ReadonlyArray<SkillRoot>>
  readonly list: (options?: { readonly category?: string | undefined }) => Effect.Effect<SkillListing, SkillsIoError>
  /** `name` is a skill name, a `category/name` path or `plugin:name`; `filePath` picks a supporting file. */
  readonly view: (name: string, filePath?: string | undefined) => Effect.Effect<SkillView, SkillViewError>

  readonly create: (request: CreateSkill) => Effect.Effect<SkillChange, SkillWriteError>
  /** Replace SKILL.md whole. */
  readonly edit: (name: string, content: string) => Effect.Effect<SkillChange, SkillWriteError>
  /** Targeted replace with the patch tool's matcher; a patched SKILL.md must keep valid frontmatter. */
  readonly patch: (request: PatchSkill) => Effect.Effect<SkillChange, SkillWriteError>
  /** `absorbedInto`: the skill this one was merged into (must exist). */
  readonly delete: (name: string, absorbedInto?: string | undefined) => Effect.Effect<SkillChange, SkillWriteError>
  readonly writeFile: (name: string, filePath: string, content: string) => Effect.Effect<SkillChange, SkillWriteError>
  readonly removeFile: (name: string, filePath: string) => Effect.Effect<SkillChange, SkillWriteError | SkillFileNotFound>

  /** Seed the bundled skills (done once on first use anyway); never writes over a skill the user changed. */
  readonly seed: Effect.Effect<SeedReport, SkillsIoError>
  /** Scan a skill folder or `.tar.gz` and install it into the local root when the trust policy allows. */
  readonly install: (path: string, options?: InstallOptions) => Effect.Effect<InstallReport, SkillWriteError>
  /** Scan installed skills (all, or one by name). */
  readonly audit: (name?: string | undefined) => Effect.Effect<ReadonlyArray<AuditEntry>, SkillLookupError>
  /** Remove a skill from the local root (a bundled one stays removed). */
  readonly uninstall: (name: string) => Effect.Effect<SkillChange, SkillWriteError>
}

export class Skills extends Context.Tag("hermes-effect/Skills")<Skills, SkillsService>() {}
