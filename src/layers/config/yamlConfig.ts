/**
 * Pure YAML <-> config steps shared by ConfigLive (file on disk) and ConfigTest (in memory),
 * so both validate and edit in exactly the same way.
 */
import { Either, Schema } from "effect"
import { LineCounter, parseDocument } from "yaml"
import type { Document } from "yaml"
import { ConfigError, HermesConfigSchema } from "../../services/Config.js"
import type { ConfigPath, HermesConfig } from "../../services/Config.js"
import { formatKeyPath, schemaError, syntaxError } from "./yamlErrors.js"
import type { Located } from "./yamlErrors.js"

export interface ParsedConfig extends Located {
  readonly config: HermesConfig
}

export type ConfigEdit =
  | { readonly _tag: "Set"; readonly path: ConfigPath; readonly value: unknown }
  | { readonly _tag: "Remove"; readonly path: ConfigPath }

/** `Unchanged`: a remove of an absent key; nothing to write. */
export type EditResult =
  | { readonly _tag: "Unchanged" }
  | { readonly _tag: "Changed"; readonly text: string; readonly config: HermesConfig }

const decode = Schema.decodeUnknownEither(HermesConfigSchema)

const describe = (cause: unknown): string => (cause instanceof Error ? cause.message : String(cause))

const toConfig = (file: string, located: Located): Either.Either<HermesConfig, ConfigError> => {
  let js: unknown
  try {
    // toJS resolves aliases and may throw (unknown alias, alias bombs).
    js = located.doc.toJS()
  } catch (cause) {
    return Either.left(new ConfigError({ file, message: describe(cause) }))
  }
  // An empty or comment-only file has no contents: that is the empty config.
  return Either.mapLeft(decode(js ?? {}), (error) => schemaError(file, error, located))
}

/** Parse and decode config text; syntax and schema errors carry file, line and key. */
export const parseConfigText = (file: string, text: string): Either.Either<ParsedConfig, ConfigError> => {
  const lineCounter = new LineCounter()
  // prettyErrors off: the message stays one line; the line number comes from the LineCounter.
  const doc = parseDocument(text, { lineCounter, prettyErrors: false })
  const located: Located = { doc, lineCounter }
  const first = doc.errors[0]
  if (first !== undefined) return Either.left(syntaxError(file, located, first))
  return Either.map(toConfig(file, located), (config) => ({ ...located, config }))
}

/**
 * Apply one edit to `doc` (mutated) through the Document API, so comments and layout survive,
 * then validate the text that would be written. A result that does not decode is refused.
 */
export const applyEdit = (file: string, doc: Document, edit: ConfigEdit): Either.Either<EditResult, ConfigError> => {
  const key = formatKeyPath(edit.path)
  const refuse = (message: string) =>
    Either.left(new ConfigError(key === undefined ? { file, message } : { file, message, key }))
  // An empty path would replace or drop the whole document, comments included.
  if (edit.path.length === 0) return refuse("an empty key path cannot be set or removed")
  try {
    if (edit._tag === "Remove") {
      // deleteIn throws when an intermediate key is missing; absent is a no-op.
      if (!doc.hasIn(edit.path)) return Either.right({ _tag: "Unchanged" })
      doc.deleteIn(edit.path)
    } else {
      doc.setIn(edit.path, edit.value)
    }
  } catch (cause) {
    // e.g. "Expected YAML collection at a" when a parent is a scalar, or an unrepresentable value.
    return refuse(describe(cause))
  }
  const text = doc.toString()
  // Validate what will be on disk (a bigint or Date reads back differently than it was set).
  const reread = parseConfigText(file, text)
  if (Either.isLeft(reread)) {
    // The line would point into text that is never written; report file, key and message only.
    const { file: f, key: k, message } = reread.left
    return Either.left(new ConfigError(k === undefined ? { file: f, message } : { file: f, message, key: k }))
  }
  return Either.right({ _tag: "Changed", text, config: reread.right.config })
}
