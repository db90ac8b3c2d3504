/**
 * @effect/cluster over loopback sockets with its runner and message storage in
 * Postgres. In 0.60 there is no shard manager process: runners register in
 * `cluster_runners` and take shards with Postgres advisory locks, which the
 * server drops as soon as a killed runner's connection closes.
 */
import { RunnerAddress } from "@effect/cluster"
import * as NodeClusterSocket from "@effect/platform-node/NodeClusterSocket"
import { Duration, Layer, Option, Schedule } from "effect"
import { pgClientLayer } from "../sql/pg/ClusterStorePg.js"

/** Shards per group: every process of one cluster must use the same number. */
export const SHARDS = 60

/**
 * Short polls: a batch is many small jobs, and a moved shard should be picked up in seconds, not minutes.
 * The shard-lock refresh interval is also the deadline of every lock operation, all of which share one
 * connection per runner (a runner handing 40 shards to newcomers queues ~80 statements on it). At 2 s, and
 * still at 5 s, they timed out on a busy 2-core machine: the runner declared its lock storage unhealthy,
 * dropped every lock, its heartbeat went stale and shards bounced between runners. So the lock timings are
 * @effect/cluster's defaults-ish (10 s); a dead runner still loses its locks at once (its connection closes)
 * and the health check sees it gone within seconds (at the latest after `shardLockExpiration`).
 */
const timings = {
  shardsPerGroup: SHARDS,
  entityMessagePollInterval: Duration.millis(500),
  entityReplyPollInterval: Duration.millis(200),
  refreshAssignmentsInterval: Duration.seconds(1),
  runnerHealthCheckInterval: Duration.seconds(2),
  shardLockRefreshInterval: Duration.seconds(10),
  shardLockExpiration: Duration.seconds(30),
  entityMaxIdleTime: Duration.seconds(10),
  entityTerminationTimeout: Duration.seconds(5),
  simulateRemoteSerialization: false
}

const isSqlError = (e: unknown): boolean => typeof e === "object" && e !== null && "_tag" in e && e._tag === "SqlError"

/**
 * @effect/cluster creates its tables (`CREATE TABLE IF NOT EXISTS`) as the layer is built, without a lock: a
 * submitter and runners starting together can collide in Postgres' catalog (a duplicate `pg_type` row), which
 * failed the submitter of a loaded CI run. Built again, the tables are there: SQL errors while starting are retried
 * a few times (~3 s in all); any other failure, or a database that stays unreachable, still ends the process.
 */
const startup = <E>() =>
  Schedule.exponential(Duration.millis(100)).pipe(Schedule.intersect(Schedule.recurs(5)), Schedule.whileInput((e: E) => isSqlError(e)))

/** A runner: listens on host:port for other runners and takes shards. */
export const runnerSharding = (url: string, host: string, port: number) =>
  NodeClusterSocket.layer({
    storage: "sql",
    shardingConfig: { ...timings, runnerAddress: Option.some(RunnerAddress.make(host, port)) }
  }).pipe(Layer.provide(pgClientLayer(url)), (layer) => Layer.retry(layer, startup()))

/** The submitter: writes messages to storage and notifies runners, runs no entity itself. */
export const clientSharding = (url: string) =>
  NodeClusterSocket.layer({ storage: "sql", clientOnly: true, shardingConfig: timings }).pipe(
    Layer.provide(pgClientLayer(url)),
    (layer) => Layer.retry(layer, startup())
  )
