/**
 * The state database as a Layer: a SQLite client (sqliteClient.ts: better-sqlite3,
 * one connection, WAL) on `<home>/state.db`, providing `SqliteClient`, the
 * generic `SqlClient` and `SqliteStatements` (prepared statements for hot paths),
 * with the connection pragmas we rely on and the schema brought up to date by
 * @effect/sql's Migrator.
 *
 * Opening never repairs or recreates anything: a damaged file, a foreign
 * database or one written by a newer build fails with `StateDatabaseError`
 * and is left exactly as it was. With `openOnFirstUse` all of this waits for
 * the first statement (openOnFirstUse.ts).
 */
import { closeSync, mkdirSync, openSync, readSync } from "node:fs"
import { dirname } from "node:path"
import * as Reactivity from "@effect/experimental/Reactivity"
import { SqlClient } from "@effect/sql"
import * as Migrator from "@effect/sql/Migrator"
import type { SqlError } from "@effect/sql/SqlError"
import type * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import { Context, Data, Effect, Layer, Schedule } from "effect"
import { Config } from "../../services/Config.js"
import { StateDatabaseError } from "../../services/StateDatabase.js"
import { APPLICATION_ID, MIGRATIONS_TABLE, SCHEMA_VERSION, migrations } from "./migrations.js"
import { openOnFirstUse } from "./openOnFirstUse.js"
import { makeSqliteClient, SqliteStatements } from "./sqliteClient.js"
import type { SqliteStatementsService } from "./sqliteClient.js"
import { SqliteClientTag } from "./sqliteClientTag.js"

export interface StateDatabaseOptions {
  /** A file path, or ":memory:" for a private in-memory database. */
  readonly filename: string
  /** Default 5000. */
  readonly busyTimeoutMs?: number | undefined
  /** Default "normal": commits survive a killed process; "full" also survives power loss. */
  readonly synchronous?: "normal" | "full" | undefined
  /**
   * Open the database when a statement first runs instead of when the layer is built (openOnFirstUse.ts); a
   * failure to open is then that statement's SqlError, carrying the StateDatabaseError. Default false.
   */
  readonly openOnFirstUse?: boolean | undefined
}

export const MEMORY_DATABASE = ":memory:"

const SQLITE_HEADER = "SQLite format 3\u0000"

/** Another process is still migrating a fresh file: look again shortly. */
class MigrationPending extends Data.TaggedError("MigrationPending")<{ readonly version: number }> {}

const sqliteCode = (error: unknown): string | undefined => {
  const cause = error !== null && typeof error === "object" && "cause" in error ? error.cause : error
  return cause !== null && typeof cause === "object" && "code" in cause && typeof cause.code === "string" ? cause.code : undefined
}

const detailOf = (error: unknown): string => {
  const cause = error !== null && typeof error === "object" && "cause" in error && error.cause !== undefined ? error.cause : error
  return cause instanceof Error ? cause.message : String(cause)
}

/** What a failed SQLite call means for the file as a whole. */
export const classifyOpenError = (file: string, error: unknown): StateDatabaseError => {
  const code = sqliteCode(error) ?? ""
  const detail = detailOf(error)
  if (code.startsWith("SQLITE_CORRUPT") || code === "SQLITE_NOTADB") {
    return new StateDatabaseError({
      file,
      reason: "corrupt",
      message: `${file} is damaged or not a SQLite database (${detail}); it was left untouched: move it aside to start a new one, or restore a backup`
    })
  }
  return new StateDatabaseError({ file, reason: "unreadable", message: `cannot open ${file}: ${detail}` })
}

/** A non-empty file that does not start with SQLite's magic is not ours to open (SQLite would only say "not a database" later). */
const checkHeader = (file: string) =>
  Effect.try({
    try: () => {
      let fd: number
      try {
        fd = openSync(file, "r")
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === "ENOENT") return
        throw e
      }
      try {
        const head = Buffer.alloc(16)
        const read = readSync(fd, head, 0, 16, 0)
        if (read > 0 && head.subarray(0, read).toString("latin1") !== SQLITE_HEADER.slice(0, read)) {
          throw Object.assign(new Error("file is not a database (bad header)"), { code: "SQLITE_NOTADB" })
        }
      } finally {
        closeSync(fd)
      }
    },
    catch: (e) => classifyOpenError(file, e)
  })

/** The schema version on disk, refusing files that are not ours. */
const inspect = (file: string, sql: SqlClient.SqlClient) =>
  Effect.gen(function*() {
    const [app] = yield* sql<{ application_id: number }>`PRAGMA application_id`
    const appId = app?.application_id ?? 0
    const tables = new Set(
      (yield* sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`).map((t) => t.name)
    )
    const foreign = (why: string) =>
      new StateDatabaseError({ file, reason: "foreign", message: `${file} is not a hermes-effect state database (${why}); it was left untouched` })
    if (appId !== 0 && appId !== APPLICATION_ID) return yield* foreign(`application id 0x${appId.toString(16)}`)
    if (!tables.has(MIGRATIONS_TABLE)) {
      return tables.size === 0 ? 0 : yield* foreign("it has tables but no hermes-effect schema record")
    }
    const [row] = yield* sql<{ version: number | null }>`SELECT max(migration_id) AS version FROM ${sql(MIGRATIONS_TABLE)}`
    const version = row?.version ?? 0
    // The Migrator creates its table before its transaction; an empty one next to nothing else is a fresh file.
    if (appId !== APPLICATION_ID && (version > 0 || tables.size > 1)) return yield* foreign("its schema record is not ours")
    return version
  }).pipe(
    // One snapshot: read piecemeal, another process's first migration could commit between the id and the tables.
    sql.withTransaction
  )

const runMigrator = Migrator.make({})

const migrate = (file: string, sql: SqlClient.SqlClient) =>
  Effect.gen(function*() {
    const before = yield* inspect(file, sql)
    if (before > SCHEMA_VERSION) {
      return yield* new StateDatabaseError({
        file,
        reason: "newer-schema",
        message: `${file} has schema version ${before}, newer than this hermes-effect knows (${SCHEMA_VERSION}); upgrade hermes-effect or use another HERMES_EFFECT_HOME. The file was left untouched`
      })
    }
    if (before === SCHEMA_VERSION) return
    // A concurrent process may win the Migrator's lock; its migration then commits and we see it on the next look.
    yield* runMigrator({ loader: Migrator.fromRecord(migrations), table: MIGRATIONS_TABLE }).pipe(
      Effect.provideService(SqlClient.SqlClient, sql),
      Effect.catchAllDefect((defect) => Effect.fail(defect)),
      Effect.mapError((e): StateDatabaseError =>
        e instanceof StateDatabaseError
          ? e
          : sqliteCode(e) !== undefined && (sqliteCode(e)!.startsWith("SQLITE_CORRUPT") || sqliteCode(e) === "SQLITE_NOTADB")
          ? classifyOpenError(file, e)
          : new StateDatabaseError({
            file,
            reason: "migration-failed",
            message: `could not bring ${file} to schema version ${SCHEMA_VERSION}: ${describeMigrationError(e)}`
          })
      )
    )
    const after = yield* inspect(file, sql)
    if (after < SCHEMA_VERSION) return yield* new MigrationPending({ version: after })
  }).pipe(
    Effect.retry({ schedule: Schedule.spaced("50 millis"), times: 100, while: (e) => e._tag === "MigrationPending" }),
    Effect.catchTag("MigrationPending", (e) =>
      Effect.fail(
        new StateDatabaseError({
          file,
          reason: "migration-failed",
          message: `${file} stayed at schema version ${e.version} while another process was migrating it to ${SCHEMA_VERSION}`
        })
      ))
  )

const describeMigrationError = (e: unknown): string => {
  if (e !== null && typeof e === "object") {
    const cause = "cause" in e ? e.cause : undefined
    const own = "message" in e && typeof e.message === "string" ? e.message : String(e)
    return cause === undefined ? own : `${own}: ${detailOf(cause)}`
  }
  return String(e)
}

const open = (options: StateDatabaseOptions) =>
  Effect.gen(function*() {
    const file = options.filename
    const inMemory = file === MEMORY_DATABASE
    if (!inMemory) {
      yield* Effect.try({
        try: () => mkdirSync(dirname(file), { recursive: true }),
        catch: (e) => classifyOpenError(file, e)
      })
      yield* checkHeader(file)
    }
    // WAL is switched on below, after the file proved to be ours: switching rewrites the header of a foreign file.
    // better-sqlite3 throws from its constructor (unopenable path): mapped here.
    const opened = yield* makeSqliteClient({ filename: file, disableWAL: true }).pipe(
      Effect.mapError((e) => classifyOpenError(file, e))
    )
    const client = opened.client
    const onSqlError = (e: SqlError | StateDatabaseError) => (e._tag === "SqlError" ? classifyOpenError(file, e) : e)
    const busyTimeoutMs = Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000))
    // PRAGMA values cannot be bound parameters, so these statements are built as text (from numbers and fixed words only).
    yield* Effect.all([
      client.unsafe(`PRAGMA busy_timeout = ${busyTimeoutMs}`),
      client.unsafe("PRAGMA foreign_keys = ON"),
      client.unsafe(`PRAGMA synchronous = ${options.synchronous === "full" ? "FULL" : "NORMAL"}`)
    ], { discard: true }).pipe(Effect.mapError(onSqlError))
    // Switching to WAL takes an exclusive lock without waiting on the busy timeout: when processes race to open a
    // fresh file, the loser gets SQLITE_BUSY at once. Wait for it here, as long as any other statement would.
    const toWal = client.unsafe("PRAGMA journal_mode = WAL").pipe(
      Effect.retry({ schedule: Schedule.spaced("20 millis"), times: Math.ceil(busyTimeoutMs / 20), while: (e) => sqliteCode(e) === "SQLITE_BUSY" })
    )
    yield* inspect(file, client).pipe(
      Effect.flatMap((version) => (inMemory ? Effect.void : toWal.pipe(Effect.when(() => version <= SCHEMA_VERSION)))),
      Effect.mapError(onSqlError)
    )
    yield* migrate(file, client).pipe(Effect.mapError(onSqlError))
    return opened
  })

const provided = ({ client, statements }: { readonly client: SqliteClient.SqliteClient; readonly statements: SqliteStatementsService }) =>
  Context.make(SqliteClientTag, client).pipe(Context.add(SqlClient.SqlClient, client), Context.add(SqliteStatements, statements))

/** The state database at `options.filename`. */
export const stateDatabaseLayer = (
  options: StateDatabaseOptions
): Layer.Layer<SqliteClient.SqliteClient | SqlClient.SqlClient | SqliteStatements, StateDatabaseError> =>
  Layer.scopedContext(
    Effect.map(options.openOnFirstUse === true ? openOnFirstUse({ filename: options.filename, disableWAL: true }, open(options)) : open(options), provided)
  ).pipe(Layer.provide(Reactivity.layer))

/** `<home>/state.db`, tuned by the `sessions:` config section. */
export const StateDatabaseLive: Layer.Layer<SqliteClient.SqliteClient | SqlClient.SqlClient | SqliteStatements, StateDatabaseError, Config> = Layer
  .unwrapEffect(
    Effect.gen(function*() {
      const config = yield* Config
      const sessions = (yield* config.current).sessions
      return stateDatabaseLayer({
        filename: config.home.database,
        busyTimeoutMs: sessions.busy_timeout_ms,
        synchronous: sessions.synchronous
      })
    })
  )

/** A private in-memory database with the same schema: for tests of the services built on it. */
export const StateDatabaseMemory: Layer.Layer<SqliteClient.SqliteClient | SqlClient.SqlClient | SqliteStatements, StateDatabaseError> = stateDatabaseLayer({
  filename: MEMORY_DATABASE
})

/**
 * The same, created (SQLite loaded, schema made) only when a statement first runs: for runtimes that must provide
 * the stores but seldom use them, such as the CLI's catalogue commands.
 */
export const StateDatabaseMemoryOnDemand: Layer.Layer<SqliteClient.SqliteClient | SqlClient.SqlClient | SqliteStatements, StateDatabaseError> =
  stateDatabaseLayer({ filename: MEMORY_DATABASE, openOnFirstUse: true })
