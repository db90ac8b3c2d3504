/**
 * The Postgres schema of a cluster batch store. `sessions` and `messages` have
 * the columns of the SQLite state database (src/layers/sql/migrations.ts) so
 * the same queries read both; the session counters are copied from the
 * runner's own database instead of kept by triggers. The `hermes_batch*`
 * tables hold batches, results and runner heartbeats; @effect/cluster keeps
 * its own `cluster_*` tables beside them.
 */
export const PG_SCHEMA: ReadonlyArray<string> = [
  `CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY NOT NULL,
    source TEXT NOT NULL,
    parent_session_id TEXT REFERENCES sessions(id) ON DELETE SET NULL,
    cwd TEXT,
    model TEXT,
    title TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    message_count INTEGER NOT NULL DEFAULT 0,
    tool_call_count INTEGER NOT NULL DEFAULT 0,
    input_tokens INTEGER NOT NULL DEFAULT 0,
    output_tokens INTEGER NOT NULL DEFAULT 0
  )`,
  "CREATE INDEX IF NOT EXISTS sessions_by_created ON sessions(created_at DESC)",
  "CREATE INDEX IF NOT EXISTS sessions_by_source ON sessions(source, created_at DESC)",
  `CREATE TABLE IF NOT EXISTS messages (
    id BIGSERIAL PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    ordinal INTEGER NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('system', 'user', 'assistant', 'tool')),
    content TEXT,
    tool_calls TEXT,
    tool_call_id TEXT,
    tool_name TEXT,
    input_tokens INTEGER NOT NULL DEFAULT 0,
    output_tokens INTEGER NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    UNIQUE (session_id, ordinal)
  )`,
  `CREATE TABLE IF NOT EXISTS hermes_batches (
    batch_id TEXT PRIMARY KEY,
    source TEXT NOT NULL,
    total INTEGER NOT NULL,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
  )`,
  // One row per prompt, written once: the primary key is what makes a re-run after a kill harmless.
  `CREATE TABLE IF NOT EXISTS hermes_batch_results (
    batch_id TEXT NOT NULL REFERENCES hermes_batches(batch_id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    status TEXT NOT NULL,
    line TEXT NOT NULL,
    trajectory TEXT,
    session_id TEXT,
    runner TEXT NOT NULL,
    finished_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (batch_id, idx)
  )`,
  `CREATE TABLE IF NOT EXISTS hermes_batch_running (
    batch_id TEXT NOT NULL,
    idx INTEGER NOT NULL,
    runner TEXT NOT NULL,
    started_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (batch_id, idx)
  )`,
  `CREATE TABLE IF NOT EXISTS hermes_cluster_runners (
    address TEXT PRIMARY KEY,
    pid INTEGER NOT NULL,
    shards INTEGER NOT NULL,
    running INTEGER NOT NULL,
    done INTEGER NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
  )`
]

/** Serialises schema creation between processes starting at once (CREATE … IF NOT EXISTS races otherwise). */
export const SCHEMA_LOCK = 0x48455246
