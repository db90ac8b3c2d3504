/**
 * Stop reasons of `session/prompt` (and its usage) through `node dist/bin.mjs acp`:
 * the model's finish reason `length` → `max_tokens`, `content_filter` → `refusal`,
 * `agent.max_turns` spent → `max_turn_requests`.
 */
import { appendFileSync, mkdtempSync, realpathSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { methods } from "@agentclientprotocol/sdk/unstable"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { tempHome } from "../support/runtime.js"
import { initialize, scriptedHome, startAcp, updatesOf } from "./client.js"
import type { AcpChild } from "./client.js"

const SCRIPT = [
  { when: { first_user_contains: "cut-off" }, content: "The answer is", finish_reason: "length", usage: { prompt_tokens: 12, completion_tokens: 3 } },
  { when: { first_user_contains: "refuse-it" }, content: "", finish_reason: "content_filter" },
  { when: { first_user_contains: "keep-going" }, tool_calls: [{ name: "todo", arguments: {} }] },
  { when: { first_user_contains: "keep-going", last_contains: "iterations available" }, content: "Out of turns." },
  { when: { first_user_contains: "plain" }, content: "Fine.", usage: { prompt_tokens: 5, completion_tokens: 2 } }
]

let acp: AcpChild
beforeAll(async () => {
  const home = scriptedHome(tempHome("hermes-acp-stop-"), SCRIPT)
  appendFileSync(join(home, "config.yaml"), "agent:\n  max_turns: 1\n")
  acp = startAcp(home)
  await initialize(acp)
})
afterAll(() => acp.stop())

const ask = async (text: string) => {
  const cwd = realpathSync(mkdtempSync(join(tmpdir(), "hermes-acp-cwd-")))
  const { sessionId } = await acp.connection.agent.request(methods.agent.session.new, { cwd, mcpServers: [] })
  const answer = await acp.connection.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] })
  return { answer, sessionId }
}

describe("acp stop reasons", () => {
  it("an answer cut at the token cap is max_tokens, with the usage", async () => {
    const { answer, sessionId } = await ask("cut-off please")
    expect(answer.stopReason).toBe("max_tokens")
    expect(answer.usage).toMatchObject({ inputTokens: 12, outputTokens: 3, totalTokens: 15 })
    expect(updatesOf(acp, sessionId)).toContainEqual({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "The answer is" } })
  })

  it("a content-filtered answer is refusal", async () => {
    expect((await ask("refuse-it now")).answer.stopReason).toBe("refusal")
  })

  it("agent.max_turns spent is max_turn_requests", async () => {
    const { answer, sessionId } = await ask("keep-going forever")
    expect(answer.stopReason).toBe("max_turn_requests")
    const texts = updatesOf(acp, sessionId).flatMap((u) => (u.sessionUpdate === "agent_message_chunk" && u.content.type === "text" ? [u.content.text] : []))
    expect(texts.join("")).toContain("Out of turns.")
  })

  it("a normal answer is end_turn", async () => {
    const { answer } = await ask("plain question")
    expect(answer.stopReason).toBe("end_turn")
    expect(answer.usage).toMatchObject({ inputTokens: 5, outputTokens: 2, totalTokens: 7 })
  })
})
