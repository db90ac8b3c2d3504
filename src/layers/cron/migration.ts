/**
 * Migration 2: scheduled jobs, their runs and the leases schedulers take on them.
 * Lists (skills, toolsets) and the schedule are JSON text; times are epoch ms.
 */
export const CRON_TABLES: ReadonlyArray<string> = [
  `CREATE TABLE cron_jobs (
    id TEXT PRIMARY KEY NOT NULL,
    name TEXT NOT NULL,
    prompt TEXT NOT NULL,
    skills TEXT NOT NULL DEFAULT '[]',
    model TEXT,
    enabled_toolsets TEXT,
    deliver TEXT NOT NULL DEFAULT 'local',
    workdir TEXT,
    schedule TEXT NOT NULL,
    tz TEXT NOT NULL,
    repeat_times INTEGER,
    repeat_completed INTEGER NOT NULL DEFAULT 0,
    enabled INTEGER NOT NULL DEFAULT 1,
    state TEXT NOT NULL DEFAULT 'scheduled',
    paused_at INTEGER,
    paused_reason TEXT,
    created_at INTEGER NOT NULL,
    next_run_at INTEGER,
    last_run_at INTEGER,
    last_status TEXT,
    last_error TEXT
  )`,
  // Finding due jobs reads only this index (enabled jobs, by next run).
  "CREATE INDEX cron_jobs_due ON cron_jobs(next_run_at) WHERE enabled = 1",
  // History outlives its job (a one-shot is removed after it ran): no foreign key.
  `CREATE TABLE cron_runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    job_id TEXT NOT NULL,
    job_name TEXT NOT NULL,
    scheduled_for INTEGER,
    started_at INTEGER NOT NULL,
    finished_at INTEGER NOT NULL,
    status TEXT NOT NULL,
    session_id TEXT,
    output_path TEXT,
    error TEXT,
    owner TEXT NOT NULL,
    manual INTEGER NOT NULL DEFAULT 0
  )`,
  "CREATE INDEX cron_runs_by_job ON cron_runs(job_id, started_at DESC)",
  // One row per job being run: whoever holds an unexpired row runs it; an expired row can be taken over.
  `CREATE TABLE cron_leases (
    job_id TEXT PRIMARY KEY NOT NULL,
    owner TEXT NOT NULL,
    expires_at INTEGER NOT NULL,
    due_at INTEGER
  )`
]
