/**
 * The skills guard's scan: structure checks over the folder, then the text
 * of every scannable file through the line rules, the invisible-character
 * check and — for the shell commands in it — the approval detector
 * (`detectCommand`): hardline commands are critical, commands that would
 * need approval are informational, pipes from the network into a shell are
 * supply-chain threats, decoding into a shell is obfuscation.
 */
import { homedir } from "node:os"
import * as path from "node:path"
import { Effect } from "effect"
import type { Finding, ScanResult, Severity, SkillsIoError, ThreatCategory, TrustLevel } from "../../../services/Skills.js"
import { identifyBinary, looksBinary, SAMPLE_BYTES } from "../../../lib/binaryFiles.js"
import { detectCommand } from "../../approval/detect/detect.js"
import type { DetectionEnv } from "../../approval/detect/detect.js"
import * as fileOps from "../fileOps.js"
import { summaryOf, verdictOf } from "./policy.js"
import { INVISIBLE, INVISIBLE_CHARACTERS, LINE_RULES } from "./rules.js"
import { shellLines } from "./shellLines.js"
import type { Disk } from "../fileOps.js"

export const MAX_FILE_COUNT = 50
export const MAX_SINGLE_FILE_BYTES = 256 * 1024
export const MAX_TOTAL_BYTES = 5 * 1024 * 1024
/** Lines longer than this are scanned in their first part only (minified blobs). */
const MAX_LINE = 20_000

/** Compiled or packaged executables: never part of a knowledge document. */
export const BINARY_EXTENSIONS: ReadonlySet<string> = new Set([
  ".exe", ".dll", ".so", ".dylib", ".bin", ".dat", ".com", ".msi", ".dmg", ".app", ".deb", ".rpm", ".apk", ".jar", ".elf", ".o", ".a", ".pyc", ".wasm"
])

/** Files that may carry an executable bit. */
const SCRIPT_EXTENSIONS: ReadonlySet<string> = new Set([".sh", ".bash", ".zsh", ".py", ".rb", ".pl", ".js", ".mjs", ".cjs", ".ts"])

const EXECUTABLE_MAGIC = new Set(["ELF executable", "Windows PE executable", "Mach-O executable", "WebAssembly module"])

const clip = (text: string) => (text.length <= 120 ? text : `${text.slice(0, 117)}...`)

const extension = (file: string) => {
  const base = path.basename(file).toLowerCase()
  const dot = base.lastIndexOf(".")
  return dot <= 0 ? "" : base.slice(dot)
}

/** Relative Markdown link destinations are document structure, not file access: blank them for the traversal rule. */
const maskLinkDestinations = (line: string): string => line.replace(/\]\([^)\s]{0,400}\)/g, (m) => `](${" ".repeat(m.length - 3)})`)

const detectionCategory = (description: string): { readonly severity: Severity; readonly category: ThreatCategory } => {
  if (/remote content|remote script/.test(description)) return { severity: "critical", category: "supply_chain" }
  if (/decoded|obfuscation|encoded command/.test(description)) return { severity: "critical", category: "obfuscation" }
  if (/credential|SSH|shell-rc|Hermes config/.test(description)) return { severity: "high", category: "persistence" }
  if (/^sudo /.test(description)) return { severity: "high", category: "privilege_escalation" }
  return { severity: "medium", category: "execution" }
}

export interface ScanTextOptions {
  readonly detection?: DetectionEnv
}

/** Findings in one text file (`file` is its path relative to the skill). */
export const scanText = (file: string, text: string, options: ScanTextOptions = {}): ReadonlyArray<Finding> => {
  const findings: Array<Finding> = []
  const seen = new Set<string>()
  const add = (f: Finding) => {
    const key = `${f.ruleId}:${f.line}`
    if (seen.has(key)) return
    seen.add(key)
    findings.push(f)
  }
  const body = text.startsWith("\ufeff") ? text.slice(1) : text
  const lines = body.split("\n")
  const markdown = /\.(?:md|markdown)$/i.test(file)
  lines.forEach((raw, i) => {
    const line = raw.length > MAX_LINE ? raw.slice(0, MAX_LINE) : raw
    // NFKC folds full-width and compatibility look-alikes (ｉｇｎｏｒｅ → ignore) before matching.
    const folded = line.normalize("NFKC")
    for (const r of LINE_RULES) {
      const target = r.id === "deep_traversal" && markdown ? maskLinkDestinations(line) : line
      const m = r.pattern.exec(target) ?? (folded !== line ? r.pattern.exec(folded) : null)
      if (m === null) continue
      const refined = r.refine?.(target, m[0])
      if (refined === null) continue
      add({
        ruleId: r.id,
        severity: refined?.severity ?? r.severity,
        category: r.category,
        file,
        line: i + 1,
        match: clip(line.trim()),
        description: refined?.description ?? r.description
      })
    }
    const hidden = INVISIBLE.exec(line)
    if (hidden !== null) {
      const cp = hidden[0].codePointAt(0) as number
      const name = INVISIBLE_CHARACTERS[hidden[0]] ?? "tag character"
      add({
        ruleId: "invisible_unicode",
        severity: "high",
        category: "injection",
        file,
        line: i + 1,
        match: `U+${cp.toString(16).toUpperCase().padStart(4, "0")} (${name})`,
        description: `invisible character ${name}: text the reader cannot see (possible hidden instructions)`
      })
    }
  })
  for (const { line, command } of shellLines(file, lines)) {
    const d = detectCommand(command, options.detection)
    if (d.hardline) {
      add({ ruleId: "hardline_command", severity: "critical", category: "destructive", file, line, match: clip(command), description: `never-run command: ${d.hardline_description ?? "hardline"}` })
    } else if (d.dangerous && d.description !== null) {
      const { severity, category } = detectionCategory(d.description)
      add({ ruleId: "approval_required", severity, category, file, line, match: clip(command), description: `command needs approval when run: ${d.description}` })
    }
  }
  return findings
}

interface Entry {
  readonly rel: string
  readonly abs: string
}

/** Every entry under `dir` (symlinks not followed), relative paths with "/". */
const walkEntries = (dir: string): Effect.Effect<ReadonlyArray<Entry>, SkillsIoError, Disk> =>
  Effect.gen(function*() {
    const out: Array<Entry> = []
    const visit = (current: string, depth: number): Effect.Effect<void, SkillsIoError, Disk> =>
      Effect.gen(function*() {
        const entries = [...(yield* fileOps.readDir(current))].sort((a, b) => (a.name < b.name ? -1 : 1))
        for (const entry of entries) {
          const abs = path.join(current, entry.name)
          const rel = path.relative(dir, abs).split(path.sep).join("/")
          if (entry.isDirectory() && !entry.isSymbolicLink()) {
            if (depth < 32) yield* visit(abs, depth + 1)
          } else {
            out.push({ rel, abs })
          }
        }
      })
    yield* visit(dir, 0)
    return out
  })

const structure = (rel: string, ruleId: string, severity: Severity, category: ThreatCategory, match: string, description: string): Finding =>
  ({ ruleId, severity, category, file: rel, line: 0, match, description })

export interface ScanOptions {
  readonly skill?: string
  readonly source: string
  readonly trust: TrustLevel
  readonly detection?: DetectionEnv
}

/** Scan a skill folder: structure, then every text file. */
export const scanSkill = (dir: string, options: ScanOptions): Effect.Effect<ScanResult, SkillsIoError, Disk> =>
  Effect.gen(function*() {
    const findings: Array<Finding> = []
    const realDir = (yield* fileOps.realPath(dir)) ?? dir
    const detection: DetectionEnv = options.detection ?? { home: homedir() }
    let files = 0
    let total = 0
    for (const { rel, abs } of yield* walkEntries(dir)) {
      const info = yield* fileOps.lstat(abs)
      if (info === undefined) continue
      files++
      if (info.isSymbolicLink()) {
        const target = yield* Effect.orElseSucceed(fileOps.realPath(abs), () => undefined)
        if (target === undefined) {
          findings.push(structure(rel, "broken_symlink", "medium", "traversal", `symlink -> ${(yield* fileOps.readLink(abs)) ?? "?"}`, "broken or looping symlink"))
        } else if (!fileOps.isInside(target, realDir)) {
          findings.push(structure(rel, "symlink_escape", "critical", "traversal", `symlink -> ${target}`, "symlink points outside the skill folder"))
        }
        continue
      }
      if (!info.isFile()) {
        findings.push(structure(rel, "special_file", "critical", "structural", "device, socket or fifo", "special file in a skill folder"))
        continue
      }
      total += info.size
      const ext = extension(rel)
      if (info.size > MAX_SINGLE_FILE_BYTES) {
        findings.push(structure(rel, "oversized_file", "medium", "structural", `${Math.floor(info.size / 1024)}KB`, `file is ${Math.floor(info.size / 1024)}KB (limit ${MAX_SINGLE_FILE_BYTES / 1024}KB)`))
      }
      const head = yield* fileOps.readHead(abs, SAMPLE_BYTES)
      const binary = looksBinary(head)
      const kind = binary ? identifyBinary(head) : undefined
      if (BINARY_EXTENSIONS.has(ext) || (kind !== undefined && EXECUTABLE_MAGIC.has(kind))) {
        findings.push(structure(rel, "binary_file", "critical", "structural", kind ?? `binary: ${ext}`, "compiled executable or package: does not belong in a skill"))
      }
      const shebang = !binary && head.length > 2 && head[0] === 0x23 && head[1] === 0x21
      if ((info.mode & 0o111) !== 0 && !SCRIPT_EXTENSIONS.has(ext) && !shebang) {
        findings.push(structure(rel, "unexpected_executable", "medium", "structural", "executable bit set", "executable permission on a file that is not a script"))
      }
      // Every text file is read, whatever its extension: a payload in `assets/notes.dat` runs just as well.
      if (binary || info.size > 4 * MAX_SINGLE_FILE_BYTES) continue
      findings.push(...scanText(rel, yield* fileOps.readText(abs), { detection }))
    }
    if (files > MAX_FILE_COUNT) {
      findings.push(structure("(directory)", "too_many_files", "medium", "structural", `${files} files`, `skill has ${files} files (limit ${MAX_FILE_COUNT})`))
    }
    if (total > MAX_TOTAL_BYTES) {
      findings.push(structure("(directory)", "oversized_skill", "low", "structural", `${Math.floor(total / 1024)}KB total`, `skill is ${Math.floor(total / 1024)}KB in total`))
    }
    const skill = options.skill ?? path.basename(dir)
    const verdict = verdictOf(findings)
    return { skill, source: options.source, trust: options.trust, verdict, findings, summary: summaryOf(skill, verdict, findings) }
  })
