/**
 * `hermes-effect acp` end to end: the SDK's client side drives the built binary
 * on the scripted provider (run `npm run build` first; `npm test` does).
 */
import { existsSync, mkdtempSync, readFileSync, realpathSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { methods } from "@agentclientprotocol/sdk/unstable"
import { afterEach, describe, expect, it } from "vitest"
import { liveProcesses, uniqueSleep } from "../support/processes.js"
import { tempHome } from "../support/runtime.js"
import { initialize, scriptedHome, startAcp, updatesOf } from "./client.js"
import type { AcpChild } from "./client.js"

const sleep = uniqueSleep()

const SCRIPT = [
  { when: { first_user_contains: "where-am-i" }, tool_calls: [{ name: "terminal", arguments: { command: "pwd" } }] },
  { when: { first_user_contains: "where-am-i", last_role: "tool" }, content: "That is the folder." },
  { when: { first_user_contains: "write-it" }, tool_calls: [{ name: "write_file", arguments: { path: "notes.txt", content: "new text\n" } }] },
  { when: { first_user_contains: "write-it", last_role: "tool" }, content: "Written." },
  {
    when: { first_user_contains: "two-calls" },
    tool_calls: [{ name: "terminal", arguments: { command: "echo first" } }, { name: "terminal", arguments: { command: "echo second" } }]
  },
  { when: { first_user_contains: "two-calls", last_role: "tool" }, content: "Both ran." },
  { when: { first_user_contains: "long-one" }, tool_calls: [{ name: "terminal", arguments: { command: sleep.command } }] },
  { when: { first_user_contains: "long-one", last_role: "tool" }, content: "Slept." },
  { when: { first_user_contains: "hello" }, content: "Hi there." },
  { when: { first_user_contains: "break-model" }, error: { type: "auth", message: "bad key" } },
  { when: { last_contains: "again" }, content: "Hi again." }
]

const open: Array<AcpChild> = []
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.stop()))
})

const boot = async (home: string, answer?: Parameters<typeof startAcp>[1]) => {
  const acp = startAcp(home, answer)
  open.push(acp)
  await initialize(acp)
  return acp
}

const newSession = async (acp: AcpChild, cwd: string) => (await acp.connection.agent.request(methods.agent.session.new, { cwd, mcpServers: [] })).sessionId

const prompt = (acp: AcpChild, sessionId: string, text: string) =>
  acp.connection.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] })

const tempCwd = () => realpathSync(mkdtempSync(join(tmpdir(), "hermes-acp-cwd-")))

describe("hermes-effect acp", () => {
  it("initialize advertises what works; stdout carries only JSON-RPC", async () => {
    const acp = startAcp(scriptedHome(tempHome("hermes-acp-"), SCRIPT))
    open.push(acp)
    const init = await initialize(acp)
    expect(init.protocolVersion).toBe(1)
    expect(init.agentInfo?.name).toBe("hermes-effect")
    expect(init.agentCapabilities?.loadSession).toBe(true)
    expect(init.agentCapabilities?.sessionCapabilities?.list).toEqual({})
    expect(init.agentCapabilities?.promptCapabilities?.embeddedContext).toBe(true)
  })

  it("a prompt runs in the session cwd: terminal pwd, streamed answer, tool call with its own id and final status", async () => {
    const acp = await boot(scriptedHome(tempHome("hermes-acp-"), SCRIPT))
    const cwd = tempCwd()
    const id = await newSession(acp, cwd)
    const answer = await prompt(acp, id, "where-am-i")
    expect(answer.stopReason).toBe("end_turn")
    const updates = updatesOf(acp, id)
    const start = updates.find((u) => u.sessionUpdate === "tool_call")
    expect(start).toMatchObject({ kind: "execute", title: "terminal: pwd", status: "pending" })
    const done = updates.find((u) => u.sessionUpdate === "tool_call_update" && u.status === "completed")
    expect(done).toBeDefined()
    expect(done!.sessionUpdate === "tool_call_update" && done!.toolCallId).toBe(start!.sessionUpdate === "tool_call" && start!.toolCallId)
    expect(JSON.stringify(done)).toContain(cwd)
    const text = updates.flatMap((u) => (u.sessionUpdate === "agent_message_chunk" && u.content.type === "text" ? [u.content.text] : [])).join("")
    expect(text).toBe("That is the folder.")
  })

  it("write_file sends a diff computed before the write, against the session cwd", async () => {
    // The default mode asks before every edit: allowed once here (modes.test.ts covers the rest).
    const acp = await boot(scriptedHome(tempHome("hermes-acp-"), SCRIPT), () => ({ outcome: { outcome: "selected", optionId: "allow_once" } }))
    const cwd = tempCwd()
    const id = await newSession(acp, cwd)
    expect((await prompt(acp, id, "write-it")).stopReason).toBe("end_turn")
    expect(readFileSync(join(cwd, "notes.txt"), "utf8")).toBe("new text\n")
    expect(acp.permissions.map((p) => p.toolCall.kind)).toEqual(["edit"])
    const start = updatesOf(acp, id).find((u) => u.sessionUpdate === "tool_call")
    expect(start).toMatchObject({ kind: "edit", content: [{ type: "diff", path: join(cwd, "notes.txt"), oldText: null, newText: "new text\n" }] })
  })

  it("two calls of the same tool in one turn keep their own ids", async () => {
    const acp = await boot(scriptedHome(tempHome("hermes-acp-"), SCRIPT))
    const id = await newSession(acp, tempCwd())
    await prompt(acp, id, "two-calls")
    const updates = updatesOf(acp, id)
    const starts = updates.flatMap((u) => (u.sessionUpdate === "tool_call" ? [u.toolCallId] : []))
    expect(new Set(starts).size).toBe(2)
    for (const callId of starts) {
      const done = updates.find((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === callId && u.status === "completed")
      expect(done).toBeDefined()
    }
    const texts = starts.map((callId) =>
      JSON.stringify(updates.find((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === callId && u.status === "completed"))
    )
    expect(texts[0]).toContain("first")
    expect(texts[1]).toContain("second")
  })

  it("session/cancel interrupts a long command: stop reason cancelled, no process left; a later cancel is harmless", async () => {
    const acp = await boot(scriptedHome(tempHome("hermes-acp-"), SCRIPT))
    const id = await newSession(acp, tempCwd())
    const running = prompt(acp, id, "long-one")
    const deadline = Date.now() + 10_000
    while (liveProcesses(sleep.marker).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25))
    expect(liveProcesses(sleep.marker).length).toBeGreaterThan(0)
    await acp.connection.agent.notify(methods.agent.session.cancel, { sessionId: id })
    expect((await running).stopReason).toBe("cancelled")
    expect(liveProcesses(sleep.marker)).toEqual([])
    await acp.connection.agent.notify(methods.agent.session.cancel, { sessionId: id })
    expect((await prompt(acp, id, "again")).stopReason).toBe("end_turn")
  })

  it("sessions prompt concurrently; one session's prompts run one after another", async () => {
    const acp = await boot(scriptedHome(tempHome("hermes-acp-"), SCRIPT))
    const slow = await newSession(acp, tempCwd())
    const fast = await newSession(acp, tempCwd())
    const long = prompt(acp, slow, "long-one")
    const deadline = Date.now() + 10_000
    while (liveProcesses(sleep.marker).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25))
    // The other session is not blocked by the running one.
    expect((await prompt(acp, fast, "hello")).stopReason).toBe("end_turn")
    // A second prompt to the busy session waits for the first (which the cancel ends).
    const queued = prompt(acp, slow, "again")
    await acp.connection.agent.notify(methods.agent.session.cancel, { sessionId: slow })
    expect((await long).stopReason).toBe("cancelled")
    expect((await queued).stopReason).toBe("end_turn")
    const texts = updatesOf(acp, slow).flatMap((u) => (u.sessionUpdate === "agent_message_chunk" && u.content.type === "text" ? [u.content.text] : []))
    expect(texts.join("")).toContain("Hi again.")
  })

  it("a model failure is reported in the turn, not as a crash", async () => {
    const acp = await boot(scriptedHome(tempHome("hermes-acp-"), SCRIPT))
    const id = await newSession(acp, tempCwd())
    expect((await prompt(acp, id, "break-model")).stopReason).toBe("end_turn")
    const texts = updatesOf(acp, id).flatMap((u) => (u.sessionUpdate === "agent_message_chunk" && u.content.type === "text" ? [u.content.text] : []))
    expect(texts.join("")).toMatch(/^Error: /)
    expect((await prompt(acp, id, "again")).stopReason).toBe("end_turn")
  })

  it("load after a restart replays the history; list shows the session; fork copies it; unknown ids are errors", async () => {
    const home = scriptedHome(tempHome("hermes-acp-"), SCRIPT)
    const cwd = tempCwd()
    const first = await boot(home)
    const id = await newSession(first, cwd)
    await prompt(first, id, "where-am-i")
    await first.stop()

    const second = await boot(home)
    await second.connection.agent.request(methods.agent.session.load, { sessionId: id, cwd, mcpServers: [] })
    const replayed = updatesOf(second, id).map((u) => u.sessionUpdate)
    expect(replayed).toEqual(["user_message_chunk", "tool_call", "tool_call_update", "agent_message_chunk"])
    const listed = await second.connection.agent.request(methods.agent.session.list, {})
    expect(listed.sessions.map((s) => s.sessionId)).toContain(id)
    expect(listed.sessions.find((s) => s.sessionId === id)?.cwd).toBe(cwd)

    const forked = await second.connection.agent.request(methods.agent.session.fork, { sessionId: id, cwd, mcpServers: [] })
    expect(forked.sessionId).not.toBe(id)
    await second.connection.agent.request(methods.agent.session.load, { sessionId: forked.sessionId, cwd, mcpServers: [] })
    expect(updatesOf(second, forked.sessionId).map((u) => u.sessionUpdate)).toContain("tool_call_update")

    await expect(second.connection.agent.request(methods.agent.session.load, { sessionId: "nope", cwd, mcpServers: [] })).rejects.toMatchObject({ code: -32002 })
    await expect(prompt(second, "nope", "hello")).rejects.toMatchObject({ code: -32002 })
  })

  it("malformed input gets a JSON-RPC error and the server keeps serving", async () => {
    const acp = await boot(scriptedHome(tempHome("hermes-acp-"), SCRIPT))
    await expect(acp.connection.agent.request("session/prompt", { nonsense: true })).rejects.toMatchObject({ code: -32602 })
    await expect(acp.connection.agent.request("no/such/method", {})).rejects.toMatchObject({ code: -32601 })
    const id = await newSession(acp, tempCwd())
    expect((await prompt(acp, id, "hello")).stopReason).toBe("end_turn")
    expect(existsSync(join(tempCwd()))).toBe(true)
  })
})
