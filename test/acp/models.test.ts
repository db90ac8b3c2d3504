/**
 * ACP model picker and image prompts, end to end: the built `hermes-effect acp`
 * talks to a real OpenAI-compatible server on loopback, so the tests see the
 * model name and the message parts that reach the provider.
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { methods } from "@agentclientprotocol/sdk/unstable"
import type { SessionConfigOption } from "@agentclientprotocol/sdk/unstable"
import { afterEach, describe, expect, it } from "vitest"
import { startOpenAiServer } from "../support/openaiServer.js"
import type { OpenAiTestServer } from "../support/openaiServer.js"
import { tempHome } from "../support/runtime.js"
import { initialize, scriptedHome, startAcp } from "./client.js"
import type { AcpChild } from "./client.js"

const open: Array<AcpChild> = []
const servers: Array<OpenAiTestServer> = []
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.stop()))
  await Promise.all(servers.splice(0).map((s) => s.close()))
})

// A 1×1 PNG.
const PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="

const providerHome = async (vision: boolean) => {
  const server = await startOpenAiServer()
  servers.push(server)
  const home = tempHome("hermes-acp-models-")
  mkdirSync(home, { recursive: true })
  writeFileSync(join(home, "config.yaml"), [
    "model:",
    "  provider: local-llm",
    "  name: m-default",
    `  base_url: ${server.baseUrl}`,
    "  choices: [m-fast, m-big]",
    `  vision: ${vision}`,
    "  max_retries: 0",
    ""
  ].join("\n"))
  return { home, server }
}

const boot = async (home: string) => {
  const acp = startAcp(home)
  open.push(acp)
  return { acp, init: await initialize(acp) }
}

const tempCwd = () => realpathSync(mkdtempSync(join(tmpdir(), "hermes-acp-cwd-")))

const picker = (options: ReadonlyArray<SessionConfigOption> | null | undefined) => {
  const option = options?.find((o) => o.category === "model")
  if (option === undefined || option.type !== "select") throw new Error(`no model picker in ${JSON.stringify(options)}`)
  return { current: option.currentValue, values: (option.options as ReadonlyArray<{ value: string }>).map((o) => o.value) }
}

const lastUser = (server: OpenAiTestServer) => {
  const messages = server.requests[server.requests.length - 1]!.body["messages"] as ReadonlyArray<{ role: string; content: unknown }>
  return messages.filter((m) => m.role === "user").at(-1)!.content
}

describe("acp model picker", () => {
  it("offers the configured model and model.choices; a choice reaches the provider and survives a restart", async () => {
    const { home, server } = await providerHome(false)
    const first = await boot(home)
    const cwd = tempCwd()
    const created = await first.acp.connection.agent.request(methods.agent.session.new, { cwd, mcpServers: [] })
    expect(picker(created.configOptions)).toEqual({ current: "m-default", values: ["m-default", "m-fast", "m-big"] })

    const sessionId = created.sessionId
    const prompt = (acp: AcpChild, text: string) => acp.connection.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] })
    expect((await prompt(first.acp, "one")).stopReason).toBe("end_turn")
    expect(server.requests.at(-1)!.body["model"]).toBe("m-default")

    const set = await first.acp.connection.agent.request(methods.agent.session.setConfigOption, { sessionId, configId: "model", value: "m-big" })
    expect(picker(set.configOptions).current).toBe("m-big")
    expect((await prompt(first.acp, "two")).stopReason).toBe("end_turn")
    expect(server.requests.at(-1)!.body["model"]).toBe("m-big")

    // Not offered, or not an option at all: a clear error, and the choice stands.
    await expect(first.acp.connection.agent.request(methods.agent.session.setConfigOption, { sessionId, configId: "model", value: "gpt-evil" }))
      .rejects.toMatchObject({ code: -32602, message: expect.stringContaining("m-fast") })
    await expect(first.acp.connection.agent.request(methods.agent.session.setConfigOption, { sessionId, configId: "mode", value: "x" }))
      .rejects.toMatchObject({ code: -32602 })
    await expect(first.acp.connection.agent.request(methods.agent.session.setConfigOption, { sessionId: "no-such-session", configId: "model", value: "m-big" }))
      .rejects.toMatchObject({ code: -32002 })
    await first.acp.stop()

    const second = await boot(home)
    const loaded = await second.acp.connection.agent.request(methods.agent.session.load, { sessionId, cwd, mcpServers: [] })
    expect(picker(loaded.configOptions).current).toBe("m-big")
    expect((await prompt(second.acp, "three")).stopReason).toBe("end_turn")
    expect(server.requests.at(-1)!.body["model"]).toBe("m-big")

    // A fork keeps the source's model.
    const forked = await second.acp.connection.agent.request(methods.agent.session.fork, { sessionId, cwd, mcpServers: [] })
    expect(picker(forked.configOptions).current).toBe("m-big")
  })

  it("with no model configured there is no picker and no option to set", async () => {
    const home = tempHome("hermes-acp-nomodel-")
    mkdirSync(home, { recursive: true })
    const { acp } = await boot(home)
    const created = await acp.connection.agent.request(methods.agent.session.new, { cwd: tempCwd(), mcpServers: [] })
    expect(created.configOptions ?? []).toEqual([])
    await expect(acp.connection.agent.request(methods.agent.session.setConfigOption, { sessionId: created.sessionId, configId: "model", value: "x" }))
      .rejects.toMatchObject({ code: -32602 })
  })
})

describe("acp image prompts", () => {
  it("model.vision: images, image resources and linked image files reach the model as image parts; linked text files are inlined", async () => {
    const { home, server } = await providerHome(true)
    const { acp, init } = await boot(home)
    expect(init.agentCapabilities?.promptCapabilities?.image).toBe(true)
    const cwd = tempCwd()
    writeFileSync(join(cwd, "shot.png"), Buffer.from(PIXEL, "base64"))
    writeFileSync(join(cwd, "notes.md"), "remember the milk\n")
    const { sessionId } = await acp.connection.agent.request(methods.agent.session.new, { cwd, mcpServers: [] })
    const answer = await acp.connection.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [
        { type: "text", text: "what is in these?" },
        { type: "image", mimeType: "image/png", data: PIXEL },
        { type: "resource_link", name: "shot.png", uri: `file://${join(cwd, "shot.png")}` },
        { type: "resource_link", name: "notes.md", uri: `file://${join(cwd, "notes.md")}` },
        { type: "resource", resource: { uri: "file:///tmp/embedded.png", mimeType: "image/png", blob: PIXEL } }
      ]
    })
    expect(answer.stopReason).toBe("end_turn")
    const content = lastUser(server) as ReadonlyArray<{ type: string; text?: string; image_url?: { url: string } }>
    expect(Array.isArray(content)).toBe(true)
    const text = content.filter((p) => p.type === "text").map((p) => p.text).join("\n")
    expect(text).toContain("what is in these?")
    expect(text).toContain("remember the milk")
    expect(content.filter((p) => p.type === "image_url").map((p) => p.image_url?.url)).toEqual([
      `data:image/png;base64,${PIXEL}`,
      `data:image/png;base64,${PIXEL}`,
      `data:image/png;base64,${PIXEL}`
    ])
    // The next turn sends text only: images belong to the turn they came with.
    await acp.connection.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "and now?" }] })
    const later = server.requests.at(-1)!.body["messages"] as ReadonlyArray<{ role: string; content: unknown }>
    expect(later.filter((m) => m.role === "user").every((m) => typeof m.content === "string")).toBe(true)
  })

  it("without model.vision no image capability is offered, and a sent image is named, not passed on", async () => {
    const { home, server } = await providerHome(false)
    const { acp, init } = await boot(home)
    expect(init.agentCapabilities?.promptCapabilities?.image).toBe(false)
    const { sessionId } = await acp.connection.agent.request(methods.agent.session.new, { cwd: tempCwd(), mcpServers: [] })
    await acp.connection.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "look" }, { type: "image", mimeType: "image/png", data: PIXEL }]
    })
    const content = lastUser(server)
    expect(typeof content).toBe("string")
    expect(content).toContain("does not accept images")
  })

  it("the fast initialize path reads model.vision as the full program does", async () => {
    const home = scriptedHome(tempHome("hermes-acp-vision-"), [{ content: "hi" }])
    writeFileSync(join(home, "config.yaml"), `${readFileSync(join(home, "config.yaml"), "utf8")}  vision: true\n`)
    const { init } = await boot(home)
    expect(init.agentCapabilities?.promptCapabilities?.image).toBe(true)
  })
})


