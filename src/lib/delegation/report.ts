/**
 * What a finished background delegation tells the parent: one user message,
 * headed like Hermes' (`[ASYNC DELEGATION COMPLETE — <id>]` or `[ASYNC
 * DELEGATION BATCH COMPLETE — <id>]`, then the lines Hermes' tooling reads:
 * `Original goal:`, `Status: … API calls: … Duration: …s`, `--- RESULT ---`,
 * `--- ✓ TASK i/N: … ---`), restating the task, since the parent may have
 * moved on since it dispatched it.
 */

/** One child's outcome, as the delegate_task result lists it. */
export interface ChildOutcome {
  readonly task_index: number
  readonly status: string
  readonly summary: string | null
  readonly error?: string | undefined
  readonly api_calls: number
  readonly duration_seconds: number
  readonly exit_reason: string
}

export interface DelegationRecord {
  readonly id: string
  readonly goals: ReadonlyArray<string>
  readonly context: string | undefined
  readonly toolsets: ReadonlyArray<string> | undefined
  readonly roles: ReadonlyArray<string>
  readonly model: string | undefined
  readonly dispatchedAt: number
}

const stamp = (ms: number) => new Date(ms).toISOString().replace("T", " ").slice(0, 19) + " UTC"

const age = (ms: number) => {
  const s = Math.max(0, Math.round(ms / 1000))
  return s < 60 ? `${s}s` : s < 3600 ? `${Math.floor(s / 60)}m ${s % 60}s` : `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`
}

const body = (o: ChildOutcome) => {
  if (o.summary !== null && o.summary.length > 0) return o.summary
  return o.error ?? "(no output)"
}

export const delegationReport = (record: DelegationRecord, outcomes: ReadonlyArray<ChildOutcome>, completedAt: number): string => {
  const lines: Array<string> = []
  const batch = record.goals.length > 1
  if (batch) {
    lines.push(
      `[ASYNC DELEGATION BATCH COMPLETE — ${record.id}]`,
      `A background fan-out of ${record.goals.length} subagent(s) you dispatched earlier has finished. The tasks are repeated ` +
        "below, as you may have moved on since: use what they found, or delegate again if things have changed.",
      ""
    )
  } else {
    lines.push(
      `[ASYNC DELEGATION COMPLETE — ${record.id}]`,
      "A background subagent you dispatched earlier has finished. The task is repeated below, as you may have moved on " +
        "since: use what it found, or delegate again if things have changed.",
      ""
    )
  }
  lines.push(`Dispatched: ${stamp(record.dispatchedAt)} (${age(completedAt - record.dispatchedAt)} ago)`)
  if (!batch) lines.push(`Original goal: ${record.goals[0] ?? ""}`)
  if (record.context !== undefined && record.context.trim().length > 0) lines.push(`Context you provided: ${record.context.trim()}`)
  if (record.toolsets !== undefined) lines.push(`Toolsets: ${record.toolsets.join(", ")}`)
  if (!batch) {
    const o = outcomes[0]
    lines.push(`Role: ${record.roles[0] ?? "leaf"}   Model: ${record.model ?? "default"}`)
    if (o !== undefined) {
      lines.push(`Status: ${o.status}   API calls: ${o.api_calls}   Duration: ${o.duration_seconds}s`, "--- RESULT ---", body(o))
    }
    return lines.join("\n")
  }
  lines.push(`Model: ${record.model ?? "default"}`)
  const total = record.goals.length
  for (const o of [...outcomes].sort((a, b) => a.task_index - b.task_index)) {
    const mark = o.status === "completed" ? "✓" : "✗"
    const goal = record.goals[o.task_index] ?? ""
    lines.push(
      "",
      `--- ${mark} TASK ${o.task_index + 1}/${total}: ${goal} (status=${o.status}, role=${record.roles[o.task_index] ?? "leaf"}, ` +
        `API calls: ${o.api_calls}, ${o.duration_seconds}s) ---`,
      body(o)
    )
  }
  return lines.join("\n")
}
