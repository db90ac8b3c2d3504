/**
 * Is a skill ready to use here? It may declare what it needs:
 *
 *   required_environment_variables: [GITHUB_TOKEN, {name: X, prompt, help, required_for, optional}]
 *   setup: {help, collect_secrets: [{env_var, prompt, provider_url}]}
 *   prerequisites: {env_vars: [...], commands: [gh, jq]}
 *   required_credential_files: [~/.config/gcloud/key.json, {path: ...}]
 *
 * Variables count when set (non-empty) in `<home>/.env` or the process
 * environment; commands when an executable of that name is on PATH (looked
 * up directly, no shell); files when they exist (relative paths against the
 * home). Anything missing makes the skill `setup_needed`.
 */
import { homedir } from "node:os"
import * as path from "node:path"
import * as FileSystem from "@effect/platform/FileSystem"
import { Effect } from "effect"
import { onPath } from "../../lib/executables.js"
import type { RequiredEnvVar, SkillReadiness } from "../../services/Skills.js"
import type { Frontmatter } from "./frontmatter.js"

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/
const COMMAND_NAME = /^[A-Za-z0-9._+-]+$/

const record = (value: unknown): Record<string, unknown> | undefined =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined

const dictList = (value: unknown): ReadonlyArray<unknown> => (record(value) !== undefined ? [value] : Array.isArray(value) ? value : [])

const cleanStr = (value: unknown): string | undefined => (typeof value === "string" && value.trim().length > 0 ? value.trim() : undefined)

const truthyStr = (value: unknown): string | undefined => {
  if (value === undefined || value === null || value === "" || value === false || value === 0) return undefined
  return String(value)
}

/** Hermes' merge of the three spellings, deduplicated by name (first wins), invalid names dropped. */
export const requiredEnvironmentVariables = (frontmatter: Frontmatter): ReadonlyArray<RequiredEnvVar> => {
  const setup = record(frontmatter["setup"]) ?? {}
  const setupHelp = cleanStr(setup["help"])
  const prereqs = record(frontmatter["prerequisites"])
  const legacyRaw = prereqs?.["env_vars"] ?? []
  const legacy = typeof legacyRaw === "string" ? [legacyRaw] : Array.isArray(legacyRaw) ? legacyRaw : []
  const entries: Array<Record<string, unknown>> = []
  for (const item of dictList(frontmatter["required_environment_variables"])) {
    if (typeof item === "string") entries.push({ name: item })
    else if (record(item) !== undefined) entries.push(item as Record<string, unknown>)
  }
  for (const item of dictList(setup["collect_secrets"])) {
    const r = record(item)
    if (r === undefined) continue
    const url = String(r["provider_url"] ?? r["url"] ?? "").trim()
    entries.push({ name: r["env_var"], prompt: r["prompt"], url: url.length > 0 ? url : undefined })
  }
  for (const v of legacy) if (String(v).trim().length > 0) entries.push({ name: String(v) })

  const out = new Map<string, RequiredEnvVar>()
  for (const entry of entries) {
    const name = String(truthyStr(entry["name"]) ?? truthyStr(entry["env_var"]) ?? "").trim()
    if (name.length === 0 || out.has(name) || !ENV_NAME.test(name)) continue
    const help = cleanStr(truthyStr(entry["help"]) ?? truthyStr(entry["provider_url"]) ?? truthyStr(entry["url"]) ?? setupHelp)
    const requiredFor = cleanStr(entry["required_for"])
    out.set(name, {
      name,
      prompt: String(truthyStr(entry["prompt"]) ?? `Enter value for ${name}`).trim(),
      ...(help === undefined ? {} : { help }),
      ...(requiredFor === undefined ? {} : { requiredFor }),
      ...(entry["optional"] === true ? { optional: true } : {})
    })
  }
  return [...out.values()]
}

export const requiredCommands = (frontmatter: Frontmatter): ReadonlyArray<string> => {
  const raw = record(frontmatter["prerequisites"])?.["commands"] ?? frontmatter["required_commands"] ?? []
  const list = typeof raw === "string" ? [raw] : Array.isArray(raw) ? raw : []
  return [...new Set(list.map((c) => String(c).trim()).filter((c) => COMMAND_NAME.test(c)))]
}

const credentialFiles = (frontmatter: Frontmatter): ReadonlyArray<string> => {
  const raw = frontmatter["required_credential_files"]
  if (!Array.isArray(raw)) return []
  return raw.flatMap((item) => {
    const p = typeof item === "string" ? item : record(item)?.["path"]
    return typeof p === "string" && p.trim().length > 0 ? [p.trim()] : []
  })
}

/** `KEY=value` lines of a dotenv file (`export`, quotes and comments understood). */
export const parseDotenv = (text: string): ReadonlyMap<string, string> => {
  const out = new Map<string, string>()
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim()
    if (line.length === 0 || line.startsWith("#")) continue
    const m = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line)
    if (m === null) continue
    let value = (m[2] as string).trim()
    if (value.length >= 2 && (value[0] === "\"" || value[0] === "'") && value.endsWith(value[0] as string)) value = value.slice(1, -1)
    else value = value.replace(/\s+#.*$/, "")
    out.set(m[1] as string, value)
  }
  return out
}

// Node's "utf8": a byte-order mark is kept as text, as before (TextDecoder would drop it).
const decoder = new TextDecoder("utf-8", { ignoreBOM: true })

/** `<home>/.env`; unreadable or missing reads as empty. */
const readDotenv = (file: string): Effect.Effect<ReadonlyMap<string, string>, never, FileSystem.FileSystem> =>
  Effect.flatMap(FileSystem.FileSystem, (fs) =>
    fs.readFile(file).pipe(
      Effect.map((bytes) => parseDotenv(decoder.decode(bytes))),
      Effect.orElseSucceed((): ReadonlyMap<string, string> => new Map())
    ))


export interface ReadinessEnv {
  readonly homeRoot: string
  readonly env?: Readonly<Record<string, string | undefined>>
  readonly hasCommand?: (name: string) => boolean
}

export const readiness = (frontmatter: Frontmatter, where: ReadinessEnv): Effect.Effect<SkillReadiness, never, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const env = where.env ?? process.env
    const dotenv = yield* readDotenv(path.join(where.homeRoot, ".env"))
    const isSet = (name: string) => {
      const fromFile = dotenv.get(name)
      return fromFile !== undefined ? fromFile.length > 0 : (env[name] ?? "").length > 0
    }
    const variables = requiredEnvironmentVariables(frontmatter)
    const missingEnvironmentVariables = variables.filter((v) => v.optional !== true && !isSet(v.name)).map((v) => v.name)
    const commands = requiredCommands(frontmatter)
    const hasCommand = where.hasCommand ?? ((name: string) => onPath(name, env["PATH"]))
    const missingCommands = commands.filter((c) => !hasCommand(c))
    const missingCredentialFiles = yield* Effect.filter(credentialFiles(frontmatter), (file) => {
      const expanded = file === "~" ? homedir() : file.startsWith("~/") ? path.join(homedir(), file.slice(2)) : file
      const absolute = path.isAbsolute(expanded) ? expanded : path.join(where.homeRoot, expanded)
      // Missing when stat fails for any reason, as before.
      return fs.stat(absolute).pipe(Effect.as(false), Effect.orElseSucceed(() => true))
  })
  const setupNeeded = missingEnvironmentVariables.length + missingCommands.length + missingCredentialFiles.length > 0
  const setupHelp = variables.find((v) => v.help !== undefined)?.help
  const missing = [
    ...missingEnvironmentVariables.map((n) => `env $${n}`),
    ...missingCommands.map((c) => `command ${c}`),
    ...missingCredentialFiles.map((f) => `file ${f}`)
  ]
  const note = `Setup needed before using this skill: missing ${missing.join(", ")}.`
  return {
    requiredEnvironmentVariables: variables,
    requiredCommands: commands,
    missingEnvironmentVariables,
    missingCommands,
    missingCredentialFiles,
    setupNeeded,
    status: setupNeeded ? "setup_needed" : "available",
    ...(setupHelp === undefined ? {} : { setupHelp }),
    ...(setupNeeded ? { setupNote: setupHelp === undefined ? note : `${note} ${setupHelp}` } : {})
  }
  })
