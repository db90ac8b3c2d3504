/** How the session store's queries fail: SQLite's error codes and the store's own error. */
import type { SqlError } from "@effect/sql/SqlError"
import type { ParseError } from "effect/ParseResult"
import { SessionStoreError } from "../../../services/SessionStore.js"

/** A query that failed in SQLite, or a row that did not decode. */
export type QueryError = SqlError | ParseError

/** better-sqlite3's extended result code (`SQLITE_CONSTRAINT_PRIMARYKEY`, …), or "". */
export const sqliteCode = (e: QueryError): string => {
  const cause = e._tag === "SqlError" ? e.cause : undefined
  return cause !== null && typeof cause === "object" && "code" in cause && typeof cause.code === "string" ? cause.code : ""
}

export const failure = (operation: string) => (e: QueryError): SessionStoreError => {
  const cause = e._tag === "SqlError" && e.cause instanceof Error ? e.cause.message : e.message
  return new SessionStoreError({ operation, message: `session store: ${operation} failed: ${cause}` })
}

/** A page size or offset from the caller, made a whole number within bounds. */
export const clamp = (value: number | undefined, fallback: number, min: number, max: number): number =>
  Math.min(max, Math.max(min, Math.floor(Number.isFinite(value) ? value! : fallback)))
