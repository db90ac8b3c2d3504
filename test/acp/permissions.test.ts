/**
 * `hermes-effect acp` approvals: a command that needs approval becomes
 * `session/request_permission` on the tool card's id; the client's answer
 * decides whether it runs (built binary, scripted provider).
 */
import { existsSync, mkdirSync, mkdtempSync, realpathSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { methods } from "@agentclientprotocol/sdk/unstable"
import type { RequestPermissionRequest, RequestPermissionResponse } from "@agentclientprotocol/sdk/unstable"
import { afterEach, describe, expect, it } from "vitest"
import { tempHome } from "../support/runtime.js"
import { initialize, scriptedHome, startAcp, updatesOf } from "./client.js"
import type { AcpChild } from "./client.js"

const SCRIPT = [
  { tool_calls: [{ name: "terminal", arguments: { command: "rm -rf victim" } }] },
  { expect: { last_role: "tool" }, content: "Done." }
]

const open: Array<AcpChild> = []
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.stop()))
})

const scenario = async (answer: (request: RequestPermissionRequest) => RequestPermissionResponse) => {
  const acp = startAcp(scriptedHome(tempHome("hermes-acp-perm-"), SCRIPT), answer)
  open.push(acp)
  await initialize(acp)
  const cwd = realpathSync(mkdtempSync(join(tmpdir(), "hermes-acp-cwd-")))
  mkdirSync(join(cwd, "victim"))
  const { sessionId } = await acp.connection.agent.request(methods.agent.session.new, { cwd, mcpServers: [] })
  const result = await acp.connection.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "clean up" }] })
  return { acp, cwd, sessionId, result }
}

describe("hermes-effect acp permissions", () => {
  it("allow once: the request carries the card's id and options, and the command runs", async () => {
    const { acp, cwd, sessionId, result } = await scenario((request) => ({
      outcome: { outcome: "selected", optionId: request.options.find((o) => o.kind === "allow_once")!.optionId }
    }))
    expect(result.stopReason).toBe("end_turn")
    expect(acp.permissions).toHaveLength(1)
    const asked = acp.permissions[0]!
    const card = updatesOf(acp, sessionId).find((u) => u.sessionUpdate === "tool_call")
    expect(card?.sessionUpdate === "tool_call" && card.toolCallId).toBe(asked.toolCall.toolCallId)
    expect(asked.options.map((o) => o.optionId)).toEqual(expect.arrayContaining(["allow_once", "allow_session", "deny"]))
    expect(JSON.stringify(asked.toolCall.rawInput)).toContain("rm -rf victim")
    expect(existsSync(join(cwd, "victim"))).toBe(false)
  })

  it("reject: the command does not run and the model sees the refusal", async () => {
    const { acp, cwd, sessionId } = await scenario(() => ({ outcome: { outcome: "selected", optionId: "deny" } }))
    expect(existsSync(join(cwd, "victim"))).toBe(true)
    const done = updatesOf(acp, sessionId).find((u) => u.sessionUpdate === "tool_call_update" && (u.status === "failed" || u.status === "completed") )
    expect(JSON.stringify(done)).toContain("denied")
  })

  it("a cancelled permission request is a denial", async () => {
    const { cwd } = await scenario(() => ({ outcome: { outcome: "cancelled" } }))
    expect(existsSync(join(cwd, "victim"))).toBe(true)
  })
})
