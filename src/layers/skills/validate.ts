/**
 * skill_manage's and skill_view's input checks, with Hermes' limits and
 * messages (checked against the `skills` behaviour vectors). Each returns the
 * error message, or undefined when the input is fine.
 */
import { isFrontmatterMapping, loadYaml, pyStr } from "./frontmatter.js"
import { hasTraversal, posixParts, pyFullMatch, pyLen, pyStrip, thousands, windowsDrive } from "./pythonStrings.js"

export const MAX_NAME_LENGTH = 64
export const MAX_DESCRIPTION_LENGTH = 1024
export const MAX_SKILL_CONTENT_CHARS = 100_000
export const MAX_SKILL_FILE_BYTES = 1_048_576

/** The folders a skill's supporting files live in. */
export const SUPPORT_DIRS: ReadonlyArray<string> = ["references", "templates", "scripts", "assets"]

const NAME = pyFullMatch("[a-z0-9][a-z0-9._-]*")

export const validateName = (name: string): string | undefined => {
  if (name.length === 0) return "Skill name is required."
  if (pyLen(name) > MAX_NAME_LENGTH) return `Skill name exceeds ${MAX_NAME_LENGTH} characters.`
  if (!NAME.test(name)) {
    return `Invalid skill name '${name}'. Use lowercase letters, numbers, hyphens, dots, and underscores. Must start with a letter or digit.`
  }
  return undefined
}

/** An optional single directory name; blank means none. */
export const validateCategory = (category: unknown): string | undefined => {
  if (category === null || category === undefined) return undefined
  if (typeof category !== "string") return "Category must be a string."
  const value = pyStrip(category)
  if (value.length === 0) return undefined
  const invalid = `Invalid category '${value}'. Use lowercase letters, numbers, hyphens, dots, and underscores. Categories must be a single directory name.`
  if (value.includes("/") || value.includes("\\")) return invalid
  if (pyLen(value) > MAX_NAME_LENGTH) return `Category exceeds ${MAX_NAME_LENGTH} characters.`
  return NAME.test(value) ? undefined : invalid
}

const CLOSING = /\n---\s*\n/

/** SKILL.md must open with YAML frontmatter holding `name` and `description` (≤ 1 024), and have a body. */
export const validateFrontmatter = (content: string): string | undefined => {
  if (pyStrip(content).length === 0) return "Content cannot be empty."
  const text = content.replace(/^\ufeff+/, "")
  if (!text.startsWith("---")) return "SKILL.md must start with YAML frontmatter (---). See existing skills for format."
  const rest = text.slice(3)
  const close = CLOSING.exec(rest)
  if (close === null) return "SKILL.md frontmatter is not closed. Ensure you have a closing '---' line."
  let parsed: unknown
  try {
    parsed = loadYaml(rest.slice(0, close.index))
  } catch (e) {
    return `YAML frontmatter parse error: ${e instanceof Error ? e.message : String(e)}`
  }
  if (!isFrontmatterMapping(parsed)) return "Frontmatter must be a YAML mapping (key: value pairs)."
  if (!("name" in parsed)) return "Frontmatter must include 'name' field."
  if (!("description" in parsed)) return "Frontmatter must include 'description' field."
  if (pyLen(pyStr(parsed["description"])) > MAX_DESCRIPTION_LENGTH) return `Description exceeds ${MAX_DESCRIPTION_LENGTH} characters.`
  const body = pyStrip(rest.slice(close.index + close[0].length))
  if (body.length === 0) return "SKILL.md must have content after the frontmatter (instructions, procedures, etc.)."
  return undefined
}

/** Characters (code points) one SKILL.md or text file may hold when the model writes it. */
export const validateContentSize = (content: string | number, label = "SKILL.md"): string | undefined => {
  const length = typeof content === "number" ? content : pyLen(content)
  if (length <= MAX_SKILL_CONTENT_CHARS) return undefined
  return `${label} content is ${thousands(length)} characters (limit: ${thousands(MAX_SKILL_CONTENT_CHARS)}). ` +
    "Consider splitting into a smaller SKILL.md with supporting files in references/ or templates/."
}

/** write_file / remove_file / patch targets: SKILL.md, or a file under one of the four folders; never `..`. */
export const validateFilePath = (filePath: string): string | undefined => {
  if (filePath.length === 0) return "file_path is required."
  if (hasTraversal(filePath)) return "Path traversal ('..') is not allowed."
  const parts = posixParts(filePath)
  const last = parts[parts.length - 1]
  if (parts.length > 0 && last === "SKILL.md" && parts.length <= 2) return undefined
  const first = parts[0]
  if (first === undefined || !SUPPORT_DIRS.includes(first)) {
    return `File must be under one of: ${[...SUPPORT_DIRS].sort().join(", ")}. Got: '${filePath}'`
  }
  if (parts.length < 2) return `Provide a file path, not just a directory. Example: '${first}/myfile.md'`
  return undefined
}

/** skill_view names are joined onto each root: nothing absolute, no drive, no `..`. */
export const lookupNameError = (name: unknown): string | undefined => {
  if (typeof name !== "string") return "Skill name must be a string."
  const candidate = pyStrip(name)
  if (candidate.startsWith("/") || windowsDrive(candidate) !== "") return "Skill name must be a relative path within the skills directory."
  if (hasTraversal(candidate)) return "Skill name cannot contain '..' path traversal components."
  return undefined
}

export const LOOKUP_HINT = "Use a skill name or relative path within the skills directory."
