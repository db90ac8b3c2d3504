/** The `cronjob` tool's view of a job and its run results, with Hermes' keys. */
import type { CronJob } from "../services/CronJobs.js"

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString())

/** `forever`, `once`, `3 times`, `2/3`. */
export const repeatDisplay = (job: Pick<CronJob, "repeatTimes" | "repeatCompleted">): string =>
  job.repeatTimes === null
    ? "forever"
    : job.repeatCompleted === 0
    ? job.repeatTimes === 1 ? "once" : `${job.repeatTimes} times`
    : `${job.repeatCompleted}/${job.repeatTimes}`

const preview = (prompt: string) => (prompt.length > 100 ? `${prompt.slice(0, 100)}...` : prompt)

export const formatJob = (job: CronJob) => ({
  job_id: job.id,
  name: job.name,
  skill: job.skills[0] ?? null,
  skills: job.skills,
  prompt_preview: preview(job.prompt),
  model: job.model?.model ?? null,
  provider: job.model?.provider ?? null,
  base_url: null,
  schedule: job.schedule.display,
  repeat: repeatDisplay(job),
  deliver: job.deliver,
  next_run_at: iso(job.nextRunAt),
  last_run_at: iso(job.lastRunAt),
  last_status: job.lastStatus,
  last_delivery_error: null,
  enabled: job.enabled,
  state: job.state,
  paused_at: iso(job.pausedAt),
  paused_reason: job.pausedReason,
  ...(job.enabledToolsets === null ? {} : { enabled_toolsets: job.enabledToolsets }),
  ...(job.workdir === null ? {} : { workdir: job.workdir })
})

/** Hermes' error shape for this tool: `{"error": …, "success": false}`. */
export const refusal = (error: string, extra: Readonly<Record<string, unknown>> = {}) => ({ error, success: false, ...extra })
