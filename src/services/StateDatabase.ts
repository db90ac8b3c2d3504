/**
 * The state database (`$HERMES_EFFECT_HOME/state.db`): one SQLite file shared by
 * sessions, todo lists, the approval audit and process checkpoints. Its layers
 * (src/layers/sql/StateDatabase.ts) provide @effect/sql's `SqlClient` and
 * `SqliteClient`; this module holds what crosses that boundary.
 */
import { Schema } from "effect"

/**
 * The database cannot be used as it is. Nothing was changed on disk when this
 * is raised: a damaged or foreign file is never recreated behind the user's back.
 */
export class StateDatabaseError extends Schema.TaggedError<StateDatabaseError>()("StateDatabaseError", {
  file: Schema.String,
  reason: Schema.Literal("corrupt", "newer-schema", "foreign", "unreadable", "migration-failed"),
  message: Schema.String
}) {}
