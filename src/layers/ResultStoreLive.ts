/**
 * Oversized results are written under the task's workspace in the home:
 * `<home>/workspace/<task>/hermes-results/<call id>.txt`.
 */
import { createHash, randomUUID } from "node:crypto"
import { join } from "node:path"
import { FileSystem } from "@effect/platform"
import { Effect, Layer } from "effect"
import { Config } from "../services/Config.js"
import { ResultPersistError, ResultStore } from "../services/ResultStore.js"
import { safeResultStem } from "./registry/persistedOutput.js"

const digest = (s: string) => createHash("sha256").update(s).digest("hex")

export const ResultStoreLive = Layer.effect(
  ResultStore,
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const { home } = yield* Config
    return ResultStore.of({
      persist: Effect.fn("ResultStore.persist")(function*(request) {
        const dir = join(home.workspaceDir, safeResultStem(request.taskId, digest), "hermes-results")
        const path = join(dir, `${safeResultStem(request.toolCallId ?? `${request.tool}-${randomUUID()}`, digest)}.txt`)
        yield* fs.makeDirectory(dir, { recursive: true }).pipe(
          Effect.zipRight(fs.writeFileString(path, request.content)),
          Effect.mapError((e) => new ResultPersistError({ path, detail: e.message }))
        )
        return path
      })
    })
  })
)
