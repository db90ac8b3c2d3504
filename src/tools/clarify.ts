/**
 * `clarify` (toolset `clarify`): ask the user a question, open-ended or with
 * up to 4 choices (the person may always type an answer of their own).
 * Hermes' semantics: choices given as objects are flattened to their label,
 * empty ones dropped, extras beyond 4 dropped, none left = open-ended; the
 * result is `{"question", "choices_offered", "user_response"}`. With nobody to
 * ask (the non-interactive Prompter) the answer is Hermes' error
 * "Clarify tool is not available in this execution context.". It never runs
 * in parallel with other calls: it waits on a human.
 */
import { Schema } from "effect"
import { Prompter } from "../services/Prompter.js"
import { ToolContext } from "../services/ToolContext.js"
import { defineTool } from "../lib/tool/defineTool.js"
import { observedFn } from "../lib/effect/observedFn.js"

export const CLARIFY_MAX_CHOICES = 4

export class ClarifyInvalid extends Schema.TaggedError<ClarifyInvalid>()("ClarifyInvalid", {
  message: Schema.String
}) {}

/** Items are declared as strings to the model but decoded leniently (objects are flattened). */
const Choice = Schema.Unknown.annotations({ jsonSchema: { type: "string" } })

export const ClarifyParameters = Schema.Struct({
  question: Schema.String.annotations({
    description: "The question alone, e.g. 'Which database should the service use?'. Put the options in `choices`, not in this text."
  }),
  choices: Schema.optional(
    Schema.NullOr(Schema.Array(Choice)).annotations({
      jsonSchema: {
        type: "array",
        items: { type: "string" },
        maxItems: CLARIFY_MAX_CHOICES,
        description:
          "Up to 4 options, one per element, the one you recommend first. The user can also type their own answer. " +
          "Leave this out only for a truly open-ended question."
      }
    })
  )
})

const LABEL_KEYS = ["label", "description", "text", "title"] as const

/** A choice as the user should see it; "" when there is nothing readable in it. */
export const flattenChoice = (choice: unknown): string => {
  if (choice === null || choice === undefined) return ""
  if (typeof choice === "string") {
    const text = choice.trim()
    // A bridge may have serialised an object choice; show its label, not its JSON.
    if (text.startsWith("{") && text.endsWith("}")) {
      try {
        const parsed: unknown = JSON.parse(text)
        if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) return flattenChoice(parsed)
      } catch {
        // not JSON after all: keep the text
      }
    }
    return text
  }
  if (Array.isArray(choice)) return choice.map(flattenChoice).join(" ").trim()
  if (typeof choice === "object") {
    const record = choice as Record<string, unknown>
    for (const key of LABEL_KEYS) {
      const value = record[key]
      if (typeof value === "string" && value.trim().length > 0) return value.trim()
    }
    return ""
  }
  return String(choice).trim()
}

/** Flattened, non-empty, at most 4; undefined (open-ended) when none are left. */
export const normalizeChoices = (choices: ReadonlyArray<unknown> | null | undefined): ReadonlyArray<string> | undefined => {
  if (choices === null || choices === undefined) return undefined
  const kept = choices.map(flattenChoice).filter((c) => c.length > 0).slice(0, CLARIFY_MAX_CHOICES)
  return kept.length === 0 ? undefined : kept
}

export const clarifyTool = defineTool({
  name: "clarify",
  toolset: "clarify",
  emoji: "❓",
  parallel: "never",
  description:
    "Ask the user a question when you need a decision, a missing detail or feedback before going on. " +
    "Give up to 4 `choices` for a multiple-choice question (the user picks one or types their own answer), " +
    "or leave `choices` out for an open-ended question. Put each option in `choices`, never as a list inside the question text. " +
    "Use it when the task is ambiguous, when an approach has real trade-offs the user should weigh, or to ask how a finished task went. " +
    "Do not use it to confirm dangerous commands (the terminal tool asks for approval itself), and prefer a sensible default " +
    "of your own when the decision is minor.",
  parameters: ClarifyParameters,
  handler: observedFn("clarify")(function*(args) {
    const question = args.question.trim()
    if (question.length === 0) return yield* new ClarifyInvalid({ message: "Question text is required." })
    const choices = normalizeChoices(args.choices)
    const prompter = yield* Prompter
    const context = yield* ToolContext
    const answer = yield* prompter.ask({ question, choices, context })
    return { question, choices_offered: choices ?? null, user_response: answer.trim() }
  })
})
