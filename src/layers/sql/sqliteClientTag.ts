/**
 * @effect/sql-sqlite-node's `SqliteClient` tag and type id, made here under
 * the same key and symbol instead of imported: that module's top level loads
 * better-sqlite3, whose native addon costs a start ~10 ms, and a command that
 * never opens the state database (listing tools, say) should not pay for it.
 * A tag is looked up by its key, so the package's own tag finds what this one
 * provides.
 */
import type * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import { Context } from "effect"

export const SqliteClientTag = Context.GenericTag<SqliteClient.SqliteClient>("@effect/sql-sqlite-node/SqliteClient")

export const SqliteClientTypeId: SqliteClient.TypeId = Symbol.for("@effect/sql-sqlite-node/SqliteClient") as SqliteClient.TypeId
