/**
 * The synchronous front of a call: what the model sent, parsed (refusing
 * values nested past the JSON depth limit), coerced the way Hermes does, and
 * decoded with the tool's schema. Failures are InvalidArguments values.
 */
import { Either, ParseResult } from "effect"
import type * as AST from "effect/SchemaAST"
import { actualText, expectedText } from "./expectedText.js"
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

/** One failing spot in the parse tree: where, and what was expected there. */
interface Leaf {
  readonly path: string
  readonly missing?: true
  readonly ast?: AST.AST
  readonly actual?: unknown
  /** A message chosen by the schema itself (kept as is). */
  readonly message?: string
}

const isIssueList = (issues: ParseResult.SingleOrNonEmpty<ParseResult.ParseIssue>): issues is readonly [ParseResult.ParseIssue, ...Array<ParseResult.ParseIssue>] =>
  Array.isArray(issues)

/** A plain type mismatch, possibly under further refinements: the value is wrong as a whole. */
const failsAsAWhole = (issue: ParseResult.ParseIssue): boolean =>
  issue._tag === "Type" ? issue.message === undefined : issue._tag === "Refinement" && (issue.kind === "Predicate" || failsAsAWhole(issue.issue))

const leavesOf = (issue: ParseResult.ParseIssue, path: ReadonlyArray<PropertyKey>): ReadonlyArray<Leaf> => {
  const at = path.map(String).join(".")
  switch (issue._tag) {
    case "Missing":
      return [{ path: at, missing: true }]
    case "Type":
      return [{ path: at, ast: issue.ast, actual: issue.actual, ...(issue.message === undefined ? {} : { message: issue.message }) }]
    case "Unexpected":
    case "Forbidden":
      return [{ path: at, message: issue.message ?? `is ${issue._tag.toLowerCase()}` }]
    case "Pointer":
      return leavesOf(issue.issue, [...path, ...(Array.isArray(issue.path) ? issue.path : [issue.path])])
    case "Refinement":
      // Reported against the refinement itself, so its type and bound are named ("an integer ≥ 1"),
      // unless the failure is deeper inside (a struct's field).
      return issue.kind === "From" && !failsAsAWhole(issue.issue) ? leavesOf(issue.issue, path) : [{ path: at, ast: issue.ast, actual: issue.actual }]
    case "Transformation":
      return leavesOf(issue.issue, path)
    case "Composite":
    {
      const issues: ReadonlyArray<ParseResult.ParseIssue> = isIssueList(issue.issues) ? issue.issues : [issue.issues]
      return issues.flatMap((i) => leavesOf(i, path))
    }
  }
}

const ABSENT = new Set(["UndefinedKeyword", "VoidKeyword"])

/**
 * The first failing argument, with the alternatives of a union merged into one
 * line (`expected one of "a", "b", got "c"`) so the model sees every valid
 * choice, and the type named by its JSON schema (type and bound), never by a
 * description.
 */
const describeParseError = (tool: string, error: ParseResult.ParseError): InvalidArguments => {
  const leaves = leavesOf(error.issue, [])
  const first = leaves[0]
  if (first === undefined) return new InvalidArguments({ tool, path: "", detail: error.message })
  const path = first.path
  if (first.missing === true) return new InvalidArguments({ tool, path, detail: "is required" })
  if (first.message !== undefined) return new InvalidArguments({ tool, path, detail: first.message })
  const asts: Array<AST.AST> = []
  let actual: unknown = first.actual
  for (const leaf of leaves) {
    if (leaf.path !== path || leaf.ast === undefined || leaf.missing === true) continue
    // An optional field also "expects undefined": noise for the model.
    if (ABSENT.has(leaf.ast._tag)) continue
    asts.push(leaf.ast)
    actual = leaf.actual
  }
  const detail = `expected ${expectedText(...(asts.length === 0 ? [first.ast!] : asts))}, got ${actualText(actual)}`
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
