/**
 * The synchronous front of a call: what the model sent, parsed (refusing
 * values nested past the JSON depth limit), coerced the way Hermes does, and
 * decoded with the tool's schema. Failures are InvalidArguments values.
 */
import { Either, ParseResult } from "effect"
import { JsonTooDeep, MAX_JSON_DEPTH, nestsDeeperThan, tooDeepDetail } from "../../lib/jsonDepth.js"
import { InvalidArguments } from "../../services/ToolError.js"
import type { RegisteredTool } from "../../services/ToolRegistry.js"
import { coerceArgs } from "./coerceArgs.js"

/** Parse what the model sent into an arguments object, or say why not. */
export const parseArguments = (tool: string, raw: unknown): Either.Either<Record<string, unknown>, InvalidArguments> => {
  let value = raw
  if (value === undefined || value === null) return Either.right({})
  if (typeof value === "string") {
    if (value.trim().length === 0) return Either.right({})
    try {
      value = JSON.parse(value)
    } catch (e) {
      return Either.left(
        new InvalidArguments({ tool, path: "", detail: `arguments are not valid JSON (${e instanceof Error ? e.message : String(e)})` })
      )
    }
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return Either.left(new InvalidArguments({ tool, path: "", detail: "arguments must be a JSON object" }))
  }
  // Parsing never overflows, but decoding, error messages and hooks recurse: refuse deep values here.
  if (nestsDeeperThan(value, MAX_JSON_DEPTH)) {
    return Either.left(new InvalidArguments({ tool, path: "", detail: `arguments are ${tooDeepDetail(MAX_JSON_DEPTH)}` }))
  }
  return Either.right(value as Record<string, unknown>)
}

const EXPECTED = /^Expected ([\s\S]+), actual ([\s\S]+)$/

/**
 * The first failing argument, with the alternatives of a union merged into one
 * line (`Expected "a" | "b", actual "c"`) so the model sees every valid choice.
 */
const describeParseError = (tool: string, error: ParseResult.ParseError): InvalidArguments => {
  const issues = ParseResult.ArrayFormatter.formatErrorSync(error)
  const first = issues[0]
  if (first === undefined) return new InvalidArguments({ tool, path: "", detail: error.message })
  const path = first.path.map(String).join(".")
  if (first._tag === "Missing") return new InvalidArguments({ tool, path, detail: "is required" })
  const samePath = issues.filter((i) => i.path.map(String).join(".") === path)
  const expected: Array<string> = []
  let actual: string | undefined
  for (const issue of samePath) {
    const m = EXPECTED.exec(issue.message)
    if (m === null) return new InvalidArguments({ tool, path, detail: first.message })
    // An optional field also "expects undefined": noise for the model.
    if (m[1] !== "undefined" && !expected.includes(m[1]!)) expected.push(m[1]!)
    actual = m[2]
  }
  const detail = expected.length === 0 || actual === undefined ? first.message : `Expected ${expected.join(" | ")}, actual ${actual}`
  return new InvalidArguments({ tool, path, detail })
}

export const defectText = (defect: unknown): string =>
  defect instanceof Error ? `${defect.name}: ${defect.message}` : typeof defect === "string" ? defect : String(defect)

/** The tool's decoded arguments from what the model sent. */
export const decodeArguments = (tool: RegisteredTool, raw: unknown): Either.Either<unknown, InvalidArguments> => {
  const parsed = parseArguments(tool.name, raw)
  if (Either.isLeft(parsed)) return parsed
  try {
    const decoded = tool.decode(coerceArgs(tool.jsonSchema, parsed.right))
    return Either.isLeft(decoded) ? Either.left(describeParseError(tool.name, decoded.left)) : Either.right(decoded.right)
  } catch (e) {
    // A JSON string inside the arguments that nests too deep, or any other throw while decoding: an answer, not a crash.
    if (e instanceof JsonTooDeep) return Either.left(new InvalidArguments({ tool: tool.name, path: "", detail: `a JSON string in the arguments is ${e.message}` }))
    return Either.left(new InvalidArguments({ tool: tool.name, path: "", detail: `arguments could not be decoded (${defectText(e)})` }))
  }
}
