/** `hermes-effect acp` slash commands: announced per session, answered without a model call. */
import { mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { methods } from "@agentclientprotocol/sdk/unstable"
import { afterEach, describe, expect, it } from "vitest"
import { tempHome } from "../support/runtime.js"
import { initialize, scriptedHome, startAcp, updatesOf } from "./client.js"
import type { AcpChild } from "./client.js"

const open: Array<AcpChild> = []
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.stop()))
})

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10))
}

describe("acp slash commands", () => {
  it("are announced, answered without the model, and change the session's model, mode and title", async () => {
    const home = scriptedHome(tempHome("hermes-acp-slash-"), [
      { when: { first_user_contains: "/frobnicate" }, content: "the model saw it" },
      { when: { last_role: "user" }, content: "plain answer" }
    ])
    writeFileSync(join(home, "config.yaml"), `${readFileSync(join(home, "config.yaml"), "utf8")}  choices: [alt-model]\n`)
    const acp = startAcp(home)
    open.push(acp)
    await initialize(acp)
    const cwd = realpathSync(mkdtempSync(join(tmpdir(), "hermes-acp-cwd-")))
    const { sessionId } = await acp.connection.agent.request(methods.agent.session.new, { cwd, mcpServers: [] })
    await until(() => updatesOf(acp, sessionId).some((u) => u.sessionUpdate === "available_commands_update"))
    const announced = updatesOf(acp, sessionId).find((u) => u.sessionUpdate === "available_commands_update")
    expect(announced?.sessionUpdate === "available_commands_update" && announced.availableCommands.map((c) => c.name)).toEqual(
      expect.arrayContaining(["help", "model", "mode", "tools", "context", "title", "version"])
    )

    const say = async (text: string) => {
      const before = updatesOf(acp, sessionId).length
      const answer = await acp.connection.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] })
      expect(answer.stopReason).toBe("end_turn")
      return updatesOf(acp, sessionId).slice(before)
    }
    const textOf = (updates: ReadonlyArray<{ sessionUpdate: string }>) =>
      updates.flatMap((u) => (u.sessionUpdate === "agent_message_chunk" && "content" in u && (u.content as { type: string }).type === "text" ? [(u.content as { text: string }).text] : [])).join("")

    expect(textOf(await say("/version"))).toMatch(/^hermes-effect \d+\.\d+\.\d+/)
    expect(textOf(await say("/context"))).toContain("Messages: 0")
    expect(textOf(await say("/tools"))).toContain("terminal —")

    const switched = await say("/model alt-model")
    expect(textOf(switched)).toContain("Model switched to: alt-model")
    expect(switched.find((u) => u.sessionUpdate === "config_option_update")).toMatchObject({ configOptions: [{ currentValue: "alt-model" }] })
    expect(textOf(await say("/model gpt-evil"))).toContain("not offered")

    const moded = await say("/mode dont_ask")
    expect(moded.find((u) => u.sessionUpdate === "current_mode_update")).toMatchObject({ currentModeId: "dont_ask" })
    expect(textOf(await say("/mode yolo"))).toContain("Unknown mode")

    // An unknown /word is the model's; a real turn is stored, then the title shows in the list.
    expect(textOf(await say("/frobnicate this"))).toBe("the model saw it")
    expect(textOf(await say("/title Release notes"))).toContain("Release notes")
    const listed = await acp.connection.agent.request(methods.agent.session.list, {})
    expect(listed.sessions.find((s) => s.sessionId === sessionId)?.title).toBe("Release notes")
    expect(textOf(await say("/context"))).toContain("Messages: 3")
  })
})
