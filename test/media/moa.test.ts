/**
 * mixture_of_agents through the CLI against a real OpenAI-compatible server on
 * loopback: reference models are asked at once, a slow one is left out, the
 * aggregator fuses what came back.
 */
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { runCliAsync } from "../support/cli.js"
import { startOpenAiServer } from "../support/openaiServer.js"
import type { OpenAiTestServer } from "../support/openaiServer.js"
import { tempHome } from "../support/runtime.js"

const servers: Array<OpenAiTestServer> = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()))
})

const setup = async (moa: string) => {
  const server = await startOpenAiServer()
  servers.push(server)
  const home = tempHome("hermes-moa-")
  mkdirSync(home, { recursive: true })
  writeFileSync(join(home, "config.yaml"), `model:\n  provider: router\n  name: main-model\n  base_url: ${server.baseUrl}\n  max_retries: 0\n  timeout_seconds: 30\n${moa}`)
  return { server, home }
}

const call = async (home: string) => {
  const r = await runCliAsync(["call", "mixture_of_agents", JSON.stringify({ user_prompt: "Is 91 prime?" })], { home })
  return JSON.parse(r.stdout) as Record<string, unknown>
}

describe("mixture_of_agents", () => {
  it("asks the reference models at once, leaves out one that times out, and fuses the rest", async () => {
    const { server, home } = await setup("moa:\n  reference_models: [ref-a, ref-b]\n  aggregator: agg-model\n  timeout_seconds: 1\n")
    // Whichever reference asks first answers; the second hangs past its timeout; the aggregator comes last.
    server.enqueue({ kind: "completion", content: "No: 91 = 7 × 13." }, { kind: "hang" }, { kind: "completion", content: "91 is not prime (7 × 13)." })
    const result = await call(home)
    expect(result).toMatchObject({
      success: true,
      response: "91 is not prime (7 × 13).",
      models_used: { reference_models: ["ref-a", "ref-b"], aggregator_model: "agg-model" }
    })
    expect(typeof result["processing_time"]).toBe("number")
    const models = server.requests.map((r) => r.body["model"])
    expect(models.slice(0, 2).sort()).toEqual(["ref-a", "ref-b"])
    const aggregate = server.requests[2]!.body
    expect(aggregate["model"]).toBe("agg-model")
    expect(JSON.stringify(aggregate["messages"])).toContain("91 = 7 × 13")
  })

  it("fails with Hermes' message when too few reference models answered", async () => {
    const { server, home } = await setup("moa:\n  reference_models: [ref-a, ref-b]\n  min_successful: 2\n  timeout_seconds: 1\n")
    server.enqueue({ kind: "completion", content: "answer" }, { kind: "status", status: 500, body: { error: { message: "boom" } } })
    const result = await call(home)
    expect(result["success"]).toBe(false)
    expect(String(result["error"])).toContain("Only 1 of 2")
    expect(server.requests).toHaveLength(2)
  })

  it("is offered only with two or more reference models", async () => {
    const names = async (moa: string) => {
      const { home } = await setup(moa)
      const r = await runCliAsync(["tools", "list", "--json"], { home })
      return (JSON.parse(r.stdout) as ReadonlyArray<{ function: { name: string } }>).map((t) => t.function.name)
    }
    expect(await names("moa:\n  reference_models: [only-one]\n")).not.toContain("mixture_of_agents")
    expect(await names("moa:\n  reference_models: [a, b]\n")).toContain("mixture_of_agents")
  })
})
