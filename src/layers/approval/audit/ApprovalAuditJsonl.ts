/**
 * Approval decisions recorded in a JSONL file in the home (the alternative to
 * the state database's ApprovalAuditSql).
 */
import { appendFile, mkdir, readFile } from "node:fs/promises"
import { dirname, join } from "node:path"
import { Effect, Layer } from "effect"
import { ApprovalAudit } from "../../../services/ApprovalAudit.js"
import type { ApprovalRecord } from "../../../services/ApprovalAudit.js"
import { Config } from "../../../services/Config.js"

export const auditFile = (logsDir: string) => join(logsDir, "approvals.jsonl")

export const ApprovalAuditJsonl = Layer.effect(
  ApprovalAudit,
  Effect.gen(function*() {
    const { home } = yield* Config
    const file = auditFile(home.logsDir)
    const lock = yield* Effect.makeSemaphore(1)
    return ApprovalAudit.of({
      record: (entry) =>
        lock.withPermits(1)(
          Effect.tryPromise(async () => {
            await mkdir(dirname(file), { recursive: true })
            await appendFile(file, `${JSON.stringify(entry)}\n`, "utf8")
          })
        ).pipe(Effect.catchAll((e) => Effect.logWarning(`could not write the approval audit log ${file}: ${String(e.error)}`))),
      recent: (limit) =>
        Effect.tryPromise(() => readFile(file, "utf8")).pipe(
          Effect.map((text) =>
            text.split("\n").filter((l) => l.trim().length > 0).flatMap((l): Array<ApprovalRecord> => {
              try {
                return [JSON.parse(l) as ApprovalRecord]
              } catch {
                return []
              }
            }).reverse().slice(0, limit)
          ),
          Effect.orElseSucceed((): ReadonlyArray<ApprovalRecord> => [])
        )
    })
  })
)
