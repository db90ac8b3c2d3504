/**
 * Prompter: whoever answers the agent's clarifying questions (the `clarify`
 * tool). A person at the terminal, a program that embeds the runtime
 * (callback), or nobody (batch, subagents, CI), in which case `clarify`
 * answers with Hermes' "not available in this execution context" error.
 */
import { Context, Schema } from "effect"
import type { Effect } from "effect"
import type { ToolCallContext } from "./ToolContext.js"

export interface ClarifyQuestion {
  readonly question: string
  /** Up to 4 options; the person may also type an answer of their own. Undefined = open-ended. */
  readonly choices: ReadonlyArray<string> | undefined
  readonly context: ToolCallContext
}

/** Hermes' answer when no one can be asked; also what the model sees from `clarify` then. */
export const CLARIFY_UNAVAILABLE = "Clarify tool is not available in this execution context."

/** Hermes' answer when the person did not reply in time: the model is told to decide itself. */
export const CLARIFY_TIMEOUT_RESPONSE =
  "The user did not provide a response within the time limit. Use your best judgement to make the choice and proceed."

/** Nobody can be asked here. */
export class PromptUnavailable extends Schema.TaggedError<PromptUnavailable>()("PromptUnavailable", {}) {
  override get message(): string {
    return CLARIFY_UNAVAILABLE
  }
}

/** Asking failed (the callback threw, the terminal closed). */
export class PromptFailed extends Schema.TaggedError<PromptFailed>()("PromptFailed", {
  detail: Schema.String
}) {
  override get message(): string {
    return `Failed to get user input: ${this.detail}`
  }
}

export interface PrompterService {
  /** Whether anyone can be asked (the agent loop may leave `clarify` out when not). */
  readonly interactive: boolean
  /** The answer: one of the choices or free text. */
  readonly ask: (question: ClarifyQuestion) => Effect.Effect<string, PromptUnavailable | PromptFailed>
}

export class Prompter extends Context.Tag("hermes-effect/Prompter")<Prompter, PrompterService>() {}
