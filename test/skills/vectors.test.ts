/**
 * Skill validation against Hermes' `skills` behaviour vectors
 * (../shared/vectors/hermes-behaviour.json): names, categories, supporting
 * file paths, skill_view lookup names, SKILL.md frontmatter, content sizes.
 * Validity must agree on ≥ 99% of the cases and messages must be identical
 * where Hermes gives one; every disagreement is printed.
 */
import { existsSync, readFileSync } from "node:fs"
import { resolve } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import {
  lookupNameError,
  validateCategory,
  validateContentSize,
  validateFilePath,
  validateFrontmatter,
  validateName
} from "../../src/layers/skills/validate.js"

interface Vector {
  readonly check: string
  readonly input: unknown
  readonly expect_valid: boolean
  readonly error?: string
  readonly why: string
}

const VECTORS = resolve(__dirname, "../fixtures/hermes-behaviour.json")

const judge = (v: Vector): string | undefined => {
  switch (v.check) {
    case "skill_name":
      return validateName(String(v.input ?? ""))
    case "skill_category":
      return validateCategory(v.input)
    case "skill_file_path":
      return validateFilePath(String(v.input ?? ""))
    case "skill_lookup_name":
      return lookupNameError(v.input)
    case "skill_frontmatter":
      return validateFrontmatter(String(v.input ?? ""))
    case "skill_content_size": {
      const input = v.input as { readonly content_len: number; readonly label?: string }
      return validateContentSize(input.content_len, input.label)
    }
    default:
      throw new Error(`unknown check ${v.check}`)
  }
}

describe("skills: Hermes behaviour vectors", () => {
  const vectors = existsSync(VECTORS)
    ? ((JSON.parse(readFileSync(VECTORS, "utf8")) as { skills: ReadonlyArray<Vector> }).skills)
    : []

  it("agree with Hermes on validity (≥ 99%) and on every message", () => {
    const disagreements: Array<string> = []
    let agreed = 0
    for (const v of vectors) {
      const error = judge(v)
      const valid = error === undefined
      const sameMessage = v.error === undefined || v.error === error
      if (valid === v.expect_valid && sameMessage) agreed++
      else disagreements.push(`${v.check} ${JSON.stringify(v.input).slice(0, 80)}: expected ${v.expect_valid ? "valid" : JSON.stringify(v.error)}, got ${valid ? "valid" : JSON.stringify(error)} (${v.why})`)
    }
    if (disagreements.length > 0) console.log(`skills vectors: ${disagreements.length} disagreement(s)\n${disagreements.join("\n")}`)
    console.log(`skills vectors: ${agreed}/${vectors.length} agree`)
    expect(vectors.length).toBeGreaterThan(0)
    expect(agreed / vectors.length).toBeGreaterThanOrEqual(0.99)
  })

  it("covers every kind of check the vectors hold", () => {
    expect(new Set(vectors.map((v) => v.check))).toEqual(
      new Set(["skill_name", "skill_category", "skill_frontmatter", "skill_file_path", "skill_content_size", "skill_lookup_name"])
    )
  })
})

describe("skills: validation edge cases beyond the sample", () => {
  it("names: length, characters, Python's `$` before a final newline", () => {
    expect(validateName("")).toBe("Skill name is required.")
    expect(validateName("a".repeat(64))).toBeUndefined()
    expect(validateName("a".repeat(65))).toBe("Skill name exceeds 64 characters.")
    expect(validateName("-leading")).toContain("Invalid skill name '-leading'")
    expect(validateName("Upper")).toContain("Invalid skill name")
    expect(validateName("ok\n")).toBeUndefined()
    expect(validateName("ok\n\n")).toContain("Invalid skill name")
  })

  it("categories: stripped, one segment, blank means none", () => {
    expect(validateCategory("  devops  ")).toBeUndefined()
    expect(validateCategory("   ")).toBeUndefined()
    expect(validateCategory("a\\b")).toContain("Categories must be a single directory name")
    expect(validateCategory("x".repeat(65))).toBe("Category exceeds 64 characters.")
    expect(validateCategory(3)).toBe("Category must be a string.")
  })

  it("file paths: SKILL.md spellings, the four folders, no bare folder, no traversal", () => {
    expect(validateFilePath("SKILL.md")).toBeUndefined()
    expect(validateFilePath("my-skill/SKILL.md")).toBeUndefined()
    expect(validateFilePath("a/b/SKILL.md")).toBe("File must be under one of: assets, references, scripts, templates. Got: 'a/b/SKILL.md'")
    expect(validateFilePath("references")).toBe("Provide a file path, not just a directory. Example: 'references/myfile.md'")
    expect(validateFilePath("./references/x.md")).toBeUndefined()
    expect(validateFilePath("references/../../x")).toBe("Path traversal ('..') is not allowed.")
    expect(validateFilePath("/etc/passwd")).toBe("File must be under one of: assets, references, scripts, templates. Got: '/etc/passwd'")
  })

  it("lookup names: absolute, drive and traversal forms refused", () => {
    expect(lookupNameError("/abs/skill")).toBe("Skill name must be a relative path within the skills directory.")
    expect(lookupNameError("C:\\skills\\x")).toBe("Skill name must be a relative path within the skills directory.")
    expect(lookupNameError("\\\\server\\share\\x")).toBe("Skill name must be a relative path within the skills directory.")
    expect(lookupNameError("cat/../../x")).toBe("Skill name cannot contain '..' path traversal components.")
    expect(lookupNameError("plugin:skill")).toBeUndefined()
    expect(lookupNameError(42)).toBe("Skill name must be a string.")
  })

  it("frontmatter: mapping, required keys, description limit, body, BOM", () => {
    expect(validateFrontmatter("")).toBe("Content cannot be empty.")
    expect(validateFrontmatter("---\n- a\n- b\n---\nbody")).toBe("Frontmatter must be a YAML mapping (key: value pairs).")
    expect(validateFrontmatter("---\ndescription: d\n---\nbody")).toBe("Frontmatter must include 'name' field.")
    expect(validateFrontmatter("---\nname: n\n---\nbody")).toBe("Frontmatter must include 'description' field.")
    expect(validateFrontmatter(`---\nname: n\ndescription: ${"d".repeat(1025)}\n---\nbody`)).toBe("Description exceeds 1024 characters.")
    expect(validateFrontmatter(`---\nname: n\ndescription: ${"d".repeat(1024)}\n---\nbody`)).toBeUndefined()
    expect(validateFrontmatter("---\nname: n\ndescription: d\n---\n  \n")).toBe(
      "SKILL.md must have content after the frontmatter (instructions, procedures, etc.)."
    )
    expect(validateFrontmatter("\ufeff---\nname: n\ndescription: d\n---\nbody")).toBeUndefined()
    expect(validateFrontmatter("---\nname: [unclosed\ndescription: d\n---\nbody")).toMatch(/^YAML frontmatter parse error: /)
  })

  it("content size: 100 000 characters, Hermes' wording with thousands separators", () => {
    expect(validateContentSize(100_000)).toBeUndefined()
    expect(validateContentSize(100_001)).toBe(
      "SKILL.md content is 100,001 characters (limit: 100,000). Consider splitting into a smaller SKILL.md with supporting files in references/ or templates/."
    )
    expect(validateContentSize("é".repeat(10), "references/x.md")).toBeUndefined()
    expect(validateContentSize("😀".repeat(50_001))).toBeUndefined() // code points, not UTF-16 units
  })
})
