/**
 * The fail-closed syntax gate for structured files: `.json`, `.yaml`/`.yml`
 * and `.toml` content must parse or nothing is written. Files that are JSON
 * with comments by convention (tsconfig, VS Code settings, devcontainer) may
 * carry comments and trailing commas.
 */
import toml from "toml"
import { parseAllDocuments } from "yaml"
import { extensionOf } from "../../lib/binaryFiles.js"

const JSONC_NAMES = /(^|\/)(tsconfig[^/]*\.json|jsconfig[^/]*\.json|\.vscode\/[^/]+\.json|devcontainer\.json|\.devcontainer\/[^/]+\.json|\.eslintrc\.json|\.babelrc\.json)$/

/** Remove `//` and `/* *\/` comments and trailing commas, outside strings. */
const stripJsonc = (text: string): string => {
  let out = ""
  let i = 0
  while (i < text.length) {
    const c = text[i] as string
    if (c === "\"") {
      let j = i + 1
      while (j < text.length && text[j] !== "\"") j += text[j] === "\\" ? 2 : 1
      out += text.slice(i, j + 1)
      i = j + 1
    } else if (c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++
    } else if (c === "/" && text[i + 1] === "*") {
      const close = text.indexOf("*/", i + 2)
      i = close < 0 ? text.length : close + 2
    } else {
      out += c
      i++
    }
  }
  return out.replace(/,(\s*[}\]])/g, "$1")
}

const firstLine = (message: string) => (message.split("\n")[0] ?? message).trim()

/** Why `content` is not valid for the file's format, or undefined (also for formats without a gate). */
export const syntaxProblem = (path: string, content: string): { readonly kind: string; readonly detail: string } | undefined => {
  const text = content.charCodeAt(0) === 0xfeff ? content.slice(1) : content
  // An empty file is a file being created, not a syntax error.
  if (text.trim().length === 0) return undefined
  switch (extensionOf(path)) {
    case ".json": {
      try {
        JSON.parse(text)
        return undefined
      } catch (e) {
        if (JSONC_NAMES.test(path)) {
          try {
            JSON.parse(stripJsonc(text))
            return undefined
          } catch {
            // report the original error
          }
        }
        return { kind: "JSON", detail: firstLine(e instanceof Error ? e.message : String(e)) }
      }
    }
    case ".yaml":
    case ".yml": {
      const errors = parseAllDocuments(text).flatMap((doc) => ("errors" in doc ? doc.errors : []))
      const error = errors[0]
      return error === undefined ? undefined : { kind: "YAML", detail: firstLine(error.message) }
    }
    case ".toml": {
      try {
        toml.parse(text)
        return undefined
      } catch (e) {
        return { kind: "TOML", detail: firstLine(e instanceof Error ? e.message : String(e)) }
      }
    }
    default:
      return undefined
  }
}

export const syntaxRefusal = (shown: string, problem: { readonly kind: string; readonly detail: string }): string =>
  `Refusing to write '${shown}': the content is not valid ${problem.kind} (${problem.detail}). Nothing was written; fix the syntax and try again.`
