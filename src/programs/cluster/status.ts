/** `hermes-effect cluster status --cluster <url>`: runners, their shards, and done / running / failed prompts per batch. */
import { Effect, Layer } from "effect"
import { SHARDS } from "../../layers/cluster/shardingLayer.js"
import { ClusterStorePg, pgClientLayer } from "../../layers/sql/pg/ClusterStorePg.js"
import { ClusterStore } from "../../services/Cluster.js"
import type { ClusterStatus } from "../../services/Cluster.js"
import { table } from "../commands/shared.js"

/** A runner whose heartbeat is older than this is listed as gone (it beats every second). */
const GONE_AFTER_SECONDS = 10

export const render = (s: ClusterStatus): string => {
  const live = s.runners.filter((r) => r.age < GONE_AFTER_SECONDS)
  const lines = [`runners: ${live.length} live, ${s.runners.length - live.length} gone; ${s.shardsPerGroup} shards`]
  if (s.runners.length > 0) {
    lines.push(table([
      ["RUNNER", "PID", "STATE", "SHARDS", "RUNNING", "DONE"],
      ...s.runners.map((r) => [r.address, String(r.pid), r.age < GONE_AFTER_SECONDS ? "live" : `gone ${Math.round(r.age)}s`, String(r.shards), String(r.running), String(r.done)])
    ]))
  }
  if (s.batches.length === 0) lines.push("no batches")
  else {
    lines.push(table([
      ["BATCH", "FILE", "TOTAL", "DONE", "RUNNING", "FAILED", "PENDING"],
      ...s.batches.map((b) => [b.batchId, b.source, String(b.total), String(b.done), String(b.running), String(b.failed), String(Math.max(0, b.total - b.done - b.failed - b.running))])
    ]))
  }
  return lines.join("\n")
}

export const clusterStatus = (url: string, json: boolean) =>
  Effect.gen(function*() {
    const status = yield* (yield* ClusterStore).status(SHARDS)
    process.stdout.write(json ? `${JSON.stringify(status)}\n` : `${render(status)}\n`)
  }).pipe(Effect.provide(ClusterStorePg.pipe(Layer.provide(pgClientLayer(url)))))
