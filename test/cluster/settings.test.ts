/**
 * The cluster commands' settings without a Postgres: flags, else `cluster:`
 * in config.yaml, else a usage error; `--cluster` on a tool-call batch is refused.
 */
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { runCli, runCliAsync } from "../support/cli.js"
import { tempHome } from "../support/runtime.js"

describe("cluster settings", () => {
  it("runner and cluster status without --cluster or cluster.url: exit 2 naming both", () => {
    const home = tempHome("hermes-effect-cluster-cli-")
    for (const args of [["runner"], ["cluster", "status"]]) {
      const r = runCli(args, { home })
      expect(r.code).toBe(2)
      expect(r.stderr).toContain("no cluster given: pass --cluster <postgres-url> or set cluster.url in config.yaml")
    }
  })

  it("cluster status takes the URL from cluster.url (an unreachable server is a clear failure, not a hang)", async () => {
    const home = tempHome("hermes-effect-cluster-cli-")
    writeFileSync(join(home, "config.yaml"), "cluster:\n  url: postgres://nobody@127.0.0.1:1/none\n")
    const r = await runCliAsync(["cluster", "status"], { home })
    expect(r.code).toBe(1)
    expect(r.stderr).not.toContain("no cluster given")
    expect(r.stderr.toLowerCase()).toMatch(/econnrefused|connect/)
  }, 60_000)

  it("--cluster on a file of tool-call lines is refused before anything runs", () => {
    const home = tempHome("hermes-effect-cluster-cli-")
    const file = join(home, "calls.jsonl")
    writeFileSync(file, `${JSON.stringify({ tool: "todo", args: {} })}\n`)
    const r = runCli(["batch", file, "--cluster", "postgres://x@127.0.0.1:1/y"], { home })
    expect(r.code).toBe(2)
    expect(r.stderr).toContain("--cluster runs prompt batches")
  })
})
