/**
 * The errors a tool call can end in. Each one crosses the dispatch boundary,
 * where `foldToolError` turns it into the `{"error": "..."}` string the model
 * sees: that fold is the only place a failure becomes text.
 */
import { Schema } from "effect"

/** What a handler may fail with: any tagged error carrying a message for the model. */
export interface ToolFailure {
  readonly _tag: string
  readonly message: string
}

export class UnknownTool extends Schema.TaggedError<UnknownTool>()("UnknownTool", {
  tool: Schema.String,
  available: Schema.Array(Schema.String)
}) {
  override get message(): string {
    const names = this.available.length === 0 ? "(none)" : this.available.join(", ")
    return this.tool.length === 0
      ? `Tool call rejected: the tool name was empty. Available tools: ${names}`
      : `Tool '${this.tool}' does not exist. Available tools: ${names}`
  }
}

export class ToolUnavailable extends Schema.TaggedError<ToolUnavailable>()("ToolUnavailable", {
  tool: Schema.String,
  reason: Schema.String
}) {
  override get message(): string {
    return `Tool '${this.tool}' is not available right now: ${this.reason}`
  }
}

export class InvalidArguments extends Schema.TaggedError<InvalidArguments>()("InvalidArguments", {
  tool: Schema.String,
  /** Dotted path of the offending argument ("" for the whole object). */
  path: Schema.String,
  detail: Schema.String
}) {
  override get message(): string {
    const where = this.path.length === 0 ? "arguments" : `argument '${this.path}'`
    return `Invalid ${where} for tool '${this.tool}': ${this.detail}; tool was not executed.`
  }
}

/** A handler failed in a way it anticipated (a typed error from the tool or a service it uses). */
export class ToolFailed extends Schema.TaggedError<ToolFailed>()("ToolFailed", {
  tool: Schema.String,
  /** Tag of the handler's own error, e.g. "FileNotFound". */
  reason: Schema.String,
  detail: Schema.String
}) {
  override get message(): string {
    return this.detail
  }
}

/** A handler died (a bug or a thrown exception): reported, never propagated. */
export class ToolDefect extends Schema.TaggedError<ToolDefect>()("ToolDefect", {
  tool: Schema.String,
  detail: Schema.String
}) {
  override get message(): string {
    return `Tool execution failed: ${this.detail}`
  }
}

export class ToolTimeout extends Schema.TaggedError<ToolTimeout>()("ToolTimeout", {
  tool: Schema.String,
  seconds: Schema.Number
}) {
  override get message(): string {
    return `Error executing tool '${this.tool}': timed out after ${this.seconds}s`
  }
}

export class ToolInterrupted extends Schema.TaggedError<ToolInterrupted>()("ToolInterrupted", {
  tool: Schema.String
}) {
  override get message(): string {
    return `Tool '${this.tool}' was interrupted before it finished; its result is incomplete or missing.`
  }
}

/** A pre-call hook (plugin policy) or the approval seam refused the call. */
export class ToolBlocked extends Schema.TaggedError<ToolBlocked>()("ToolBlocked", {
  tool: Schema.String,
  by: Schema.String,
  reason: Schema.String
}) {
  override get message(): string {
    return this.reason
  }
}

export class ToolResultInvalid extends Schema.TaggedError<ToolResultInvalid>()("ToolResultInvalid", {
  tool: Schema.String,
  resultType: Schema.String
}) {
  override get message(): string {
    return `Tool handler returned unsupported result type: ${this.resultType}`
  }
}

export type ToolError =
  | UnknownTool
  | ToolUnavailable
  | InvalidArguments
  | ToolFailed
  | ToolDefect
  | ToolTimeout
  | ToolInterrupted
  | ToolBlocked
  | ToolResultInvalid

export const ToolErrorSchema = Schema.Union(
  UnknownTool,
  ToolUnavailable,
  InvalidArguments,
  ToolFailed,
  ToolDefect,
  ToolTimeout,
  ToolInterrupted,
  ToolBlocked,
  ToolResultInvalid
)
