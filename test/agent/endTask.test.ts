/**
 * A batch prompt and a cron run are one-off tasks: when the run ends, the background processes it started are
 * stopped and its terminal environment is released at once (as Hermes ends each conversation), instead of idling
 * until `terminal.lifetime_seconds`. Real processes, local backend, scripted model.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { parsePromptBatch, runPromptBatch } from "../../src/programs/batchRunner.js"
import { CronJobs, CronScheduler } from "../../src/services/CronJobs.js"
import { Environments } from "../../src/services/Environments.js"
import { Processes } from "../../src/services/Processes.js"
import type { ScriptTurnInput } from "../../src/layers/model/script.js"
import { scriptedAgent } from "./helpers.js"

/** Each session starts a long background process and runs a command, then answers. */
const TURNS: ReadonlyArray<ScriptTurnInput> = [
  {
    when: { last_role: "user" },
    tool_calls: [
      { name: "terminal", arguments: { command: "sleep 300", background: true } },
      { name: "terminal", arguments: { command: "echo hi" } }
    ]
  },
  { when: { last_role: "tool" }, content: "done", repeat: true }
]

const running = Effect.map(Effect.flatMap(Processes, (p) => p.list()), (all) => all.filter((p) => p.exitCode === null && p.status === "running"))

describe("one-off tasks end with their run", () => {
  it.scoped("a prompt batch leaves no background process and no environment behind", () =>
    Effect.gen(function*() {
      const prompts = parsePromptBatch([1, 2, 3].map((i) => JSON.stringify({ id: i, prompt: `task ${i}` })).join("\n"))
      const results = yield* runPromptBatch(prompts, { concurrency: 2 })
      expect(results.map((r) => r.status)).toEqual(["completed", "completed", "completed"])
      expect(results.every((r) => r.tool_calls === 2)).toBe(true)
      expect(yield* running).toEqual([])
      expect(yield* Effect.flatMap(Environments, (e) => e.tasks)).toEqual([])
    }).pipe(Effect.provide(scriptedAgent(TURNS).layer)), { timeout: 60_000 })

  it.scoped("a cron run leaves no background process and no environment behind", () =>
    Effect.gen(function*() {
      const job = yield* Effect.flatMap(CronJobs, (s) => s.create({ prompt: "Check the box.", schedule: "every 2h", name: "box" }))
      const outcome = yield* Effect.flatMap(CronScheduler, (s) => s.runNow(job.id))
      expect(outcome._tag).toBe("Ran")
      expect(yield* running).toEqual([])
      expect(yield* Effect.flatMap(Environments, (e) => e.tasks)).toEqual([])
    }).pipe(Effect.provide(scriptedAgent(TURNS).layer)), { timeout: 60_000 })
})
