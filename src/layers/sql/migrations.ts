/**
 * The state database schema, as @effect/sql Migrator migrations (`fromRecord`).
 * Never edit a shipped migration: add the next one. A database whose latest
 * migration is newer than `SCHEMA_VERSION` is refused (src/layers/sql/StateDatabase.ts).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { CRON_TABLES } from "../cron/migration.js"

/** Marks the file as ours in the SQLite header ("HERF"), so a foreign database is never migrated. */
export const APPLICATION_ID = 0x48455246

export const MIGRATIONS_TABLE = "effect_sql_migrations"

/** better-sqlite3 prepares one statement at a time, so a migration is a list of them (fixed DDL text, hence `unsafe`). */
const statements = (list: ReadonlyArray<string>) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => Effect.forEach(list, (s) => sql.unsafe(s), { discard: true }))

const initial = statements([
  `PRAGMA application_id = ${APPLICATION_ID}`,
  `CREATE TABLE sessions (
    id TEXT PRIMARY KEY NOT NULL,
    source TEXT NOT NULL,
    parent_session_id TEXT REFERENCES sessions(id) ON DELETE SET NULL,
    cwd TEXT,
    model TEXT,
    title TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    message_count INTEGER NOT NULL DEFAULT 0,
    tool_call_count INTEGER NOT NULL DEFAULT 0,
    input_tokens INTEGER NOT NULL DEFAULT 0,
    output_tokens INTEGER NOT NULL DEFAULT 0
  )`,
  "CREATE INDEX sessions_by_created ON sessions(created_at DESC)",
  "CREATE INDEX sessions_by_source ON sessions(source, created_at DESC)",
  "CREATE INDEX sessions_by_cwd ON sessions(cwd, created_at DESC)",
  "CREATE INDEX sessions_by_parent ON sessions(parent_session_id)",
  // AUTOINCREMENT: ids are never reused, so an id below the search watermark is always indexed.
  `CREATE TABLE messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    ordinal INTEGER NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('system', 'user', 'assistant', 'tool')),
    content TEXT,
    tool_calls TEXT,
    tool_call_id TEXT,
    tool_name TEXT,
    input_tokens INTEGER NOT NULL DEFAULT 0,
    output_tokens INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    UNIQUE (session_id, ordinal)
  )`,
  // The session's counters follow its messages in the same statement, so an append is one atomic INSERT.
  `CREATE TRIGGER messages_count AFTER INSERT ON messages BEGIN
    UPDATE sessions SET
      message_count = message_count + 1,
      tool_call_count = tool_call_count + coalesce(json_array_length(new.tool_calls), 0),
      input_tokens = input_tokens + new.input_tokens,
      output_tokens = output_tokens + new.output_tokens,
      updated_at = max(updated_at, new.created_at)
    WHERE id = new.session_id;
  END`,
  "CREATE TRIGGER messages_append_only BEFORE UPDATE ON messages BEGIN SELECT RAISE(ABORT, 'messages are append-only'); END",
  // Search indexes over messages.content, each filled in batches up to its watermark (see sessions/searchIndex.ts).
  "CREATE TABLE search_index_state (id INTEGER PRIMARY KEY CHECK (id = 1), words_upto INTEGER NOT NULL, trigrams_upto INTEGER NOT NULL)",
  "INSERT INTO search_index_state (id, words_upto, trigrams_upto) VALUES (1, 0, 0)",
  "CREATE VIRTUAL TABLE messages_fts USING fts5(content, content='messages', content_rowid='id', tokenize='unicode61 remove_diacritics 2')",
  // detail=none: a candidate filter for LIKE, which SQLite re-checks on every row; a third of the full index's write cost.
  "CREATE VIRTUAL TABLE messages_trigram USING fts5(content, content='messages', content_rowid='id', tokenize='trigram', detail=none)",
  `CREATE TRIGGER messages_unindex_words AFTER DELETE ON messages
    WHEN old.id <= (SELECT words_upto FROM search_index_state WHERE id = 1)
    BEGIN
      INSERT INTO messages_fts (messages_fts, rowid, content) VALUES ('delete', old.id, old.content);
    END`,
  `CREATE TRIGGER messages_unindex_trigrams AFTER DELETE ON messages
    WHEN old.id <= (SELECT trigrams_upto FROM search_index_state WHERE id = 1)
    BEGIN
      INSERT INTO messages_trigram (messages_trigram, rowid, content) VALUES ('delete', old.id, old.content);
    END`,
  `CREATE TABLE todos (
    session_id TEXT PRIMARY KEY NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    items TEXT NOT NULL,
    updated_at INTEGER NOT NULL
  )`,
  // The approval audit outlives sessions: no foreign key.
  `CREATE TABLE approvals (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    at TEXT NOT NULL,
    session_id TEXT,
    task_id TEXT NOT NULL,
    command TEXT NOT NULL,
    path TEXT NOT NULL,
    backend TEXT NOT NULL,
    outcome TEXT NOT NULL,
    decided_by TEXT NOT NULL,
    key TEXT
  )`,
  `CREATE TABLE process_checkpoints (
    id TEXT PRIMARY KEY NOT NULL,
    session_id TEXT REFERENCES sessions(id) ON DELETE SET NULL,
    task_id TEXT NOT NULL,
    command TEXT NOT NULL,
    cwd TEXT,
    pid INTEGER,
    status TEXT NOT NULL,
    exit_code INTEGER,
    started_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    output_tail TEXT NOT NULL DEFAULT ''
  )`,
  "CREATE INDEX process_checkpoints_by_session ON process_checkpoints(session_id)"
])

/** Keys are `<id>_<name>` for `Migrator.fromRecord`. */
export const migrations = {
  "1_initial": initial,
  "2_cron": statements(CRON_TABLES)
} as const

export const SCHEMA_VERSION = 2
