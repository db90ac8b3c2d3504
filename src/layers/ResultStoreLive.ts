/**
 * Oversized results are written into the task's own environment, so the
 * model can read them back with its file tools on any backend: under the
 * home's workspace on the local backend (`<home>/workspace/<task>/hermes-results/`),
 * and under the environment's private /tmp elsewhere (`/tmp/hermes-results/`).
 */
import { createHash, randomUUID } from "node:crypto"
import { join } from "node:path"
import { Effect, Layer } from "effect"
import { Config } from "../services/Config.js"
import { Environments } from "../services/Environments.js"
import { ResultPersistError, ResultStore } from "../services/ResultStore.js"
import { safeResultStem } from "./executor/persistedOutput.js"

const digest = (s: string) => createHash("sha256").update(s).digest("hex")

export const ResultStoreLive = Layer.effect(
  ResultStore,
  Effect.gen(function*() {
    const { home } = yield* Config
    const environments = yield* Environments
    return ResultStore.of({
      persist: Effect.fn("ResultStore.persist")(function*(request) {
        const name = `${safeResultStem(request.toolCallId ?? `${request.tool}-${randomUUID()}`, digest)}.txt`
        const target = environments.backend.kind === "local"
          ? join(home.workspaceDir, safeResultStem(request.taskId, digest), "hermes-results", name)
          : `/tmp/hermes-results/${name}`
        const failed = (detail: string) => new ResultPersistError({ path: target, detail })
        const env = yield* Effect.mapError(environments.get(request.taskId), (e) => failed(e.message))
        yield* Effect.mapError(env.writeFile(target, request.content), (e) => failed(e.message))
        return yield* env.resolvePath(target)
      })
    })
  })
)
