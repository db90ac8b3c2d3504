/**
 * The per-turn result budget (Hermes' third layer after the tools' own caps
 * and the per-result threshold): when the results of one model turn add up to
 * more than `tools.turn_budget_chars`, the largest results not yet persisted
 * are saved to the ResultStore and replaced by their `<persisted-output>`
 * preview, largest first, until the turn fits. Results already persisted still
 * count toward the total but are never persisted twice.
 */
import { Effect } from "effect"
import type { ResultStoreService } from "../../services/ResultStore.js"
import type { CallOutcome } from "../../services/ToolExecutor.js"
import { persistedBlock, truncatedInline } from "./persistedOutput.js"

export const PERSISTED_TAG = "<persisted-output>"

/** Outcomes whose results fit the budget; the input array itself when nothing changed. */
export const enforceTurnBudget = (
  results: ResultStoreService,
  outcomes: ReadonlyArray<CallOutcome>,
  budget: number,
  taskId: string
): Effect.Effect<ReadonlyArray<CallOutcome>> =>
  Effect.suspend(() => {
    if (budget <= 0) return Effect.succeed(outcomes)
    let total = 0
    const candidates: Array<number> = []
    outcomes.forEach((o, i) => {
      total += o.result.length
      // A multimodal result carries an image the model must see whole: never spilled (as Hermes).
      if (!o.result.includes(PERSISTED_TAG) && o.parts === undefined && o.result.length > 0) candidates.push(i)
    })
    if (total <= budget || candidates.length === 0) return Effect.succeed(outcomes)
    // Largest first; equal sizes keep the model's order (the sort is stable).
    candidates.sort((a, b) => outcomes[b]!.result.length - outcomes[a]!.result.length)
    const out = [...outcomes]
    return Effect.gen(function*() {
      for (const i of candidates) {
        if (total <= budget) break
        const outcome = out[i]!
        const content = outcome.result
        const replaced = yield* results.persist({ content, tool: outcome.tool, taskId, toolCallId: outcome.toolCallId }).pipe(
          Effect.map((path) => persistedBlock(content, path)),
          Effect.catchAll((error) =>
            Effect.as(Effect.logWarning(`could not save a result of ${outcome.tool} over the turn budget: ${error.detail}`), truncatedInline(content))
          )
        )
        total += replaced.length - content.length
        out[i] = { ...outcome, result: replaced }
      }
      return out
    })
  })
