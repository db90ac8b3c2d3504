/**
 * Hermes' batch planner: split one model turn's calls, in the model's order,
 * into segments that may run in parallel and barriers that must run alone.
 */
import type { ParallelPolicy } from "../../services/Tool.js"

export interface PlannedCall {
  readonly tool: string
  readonly args: unknown
}

export interface Segment {
  readonly parallel: boolean
  readonly indices: ReadonlyArray<number>
}

export interface PlanEnv {
  /** Policy of a registered tool; undefined for unknown tools (they run alone). */
  readonly policyOf: (tool: string) => { readonly parallel: ParallelPolicy; readonly pathArgument: string } | undefined
  /** Absolute, symlink-resolved form of a path argument. */
  readonly resolvePath: (path: string) => string
}

const argsObject = (args: unknown): Record<string, unknown> | undefined => {
  let value = args
  if (typeof value === "string") {
    try {
      value = value.trim().length === 0 ? {} : JSON.parse(value)
    } catch {
      return undefined
    }
  }
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined
}

/** One path contains the other, compared by whole components. */
export const pathsOverlap = (a: string, b: string): boolean => {
  if (a === b) return true
  const [short, long] = a.length < b.length ? [a, b] : [b, a]
  const prefix = short.endsWith("/") ? short : `${short}/`
  return long.startsWith(prefix)
}

export const planBatch = (calls: ReadonlyArray<PlannedCall>, env: PlanEnv): ReadonlyArray<Segment> => {
  const raw: Array<{ parallel: boolean; indices: Array<number> }> = []
  let run: { indices: Array<number>; paths: Array<string> } | undefined
  const closeRun = () => {
    if (run) raw.push({ parallel: true, indices: run.indices })
    run = undefined
  }
  const barrier = (i: number) => {
    closeRun()
    raw.push({ parallel: false, indices: [i] })
  }

  calls.forEach((call, i) => {
    const policy = env.policyOf(call.tool)
    const args = argsObject(call.args)
    if (!policy || !args || policy.parallel === "never" || policy.parallel === "sequential") return barrier(i)
    if (policy.parallel === "safe") {
      ;(run ??= { indices: [], paths: [] }).indices.push(i)
      return
    }
    const rawPath = args[policy.pathArgument]
    if (typeof rawPath !== "string" || rawPath.length === 0) return barrier(i)
    const path = env.resolvePath(rawPath)
    if (run && run.paths.some((p) => pathsOverlap(p, path))) closeRun()
    run ??= { indices: [], paths: [] }
    run.indices.push(i)
    run.paths.push(path)
  })
  closeRun()

  // A parallel run of one is just a sequential call; adjacent sequential segments merge.
  const out: Array<{ parallel: boolean; indices: Array<number> }> = []
  for (const seg of raw) {
    const parallel = seg.parallel && seg.indices.length >= 2
    const last = out[out.length - 1]
    if (!parallel && last && !last.parallel) last.indices.push(...seg.indices)
    else out.push({ parallel, indices: [...seg.indices] })
  }
  return out
}
