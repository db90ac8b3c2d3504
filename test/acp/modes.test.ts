/**
 * `hermes-effect acp` session modes and edit approvals, attacked the ways an
 * edit can slip past a mode: a path outside the session folder, a link inside
 * it that leads out, credentials and repository internals, and a subagent
 * doing the write on the model's behalf.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { methods } from "@agentclientprotocol/sdk/unstable"
import type { RequestPermissionRequest, RequestPermissionResponse } from "@agentclientprotocol/sdk/unstable"
import { afterEach, describe, expect, it } from "vitest"
import { tempHome } from "../support/runtime.js"
import { initialize, scriptedHome, startAcp, updatesOf } from "./client.js"
import type { AcpChild } from "./client.js"

const open: Array<AcpChild> = []
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.stop()))
})

const tempDir = (prefix: string) => realpathSync(mkdtempSync(join(tmpdir(), prefix)))
const allow = (): RequestPermissionResponse => ({ outcome: { outcome: "selected", optionId: "allow_once" } })
const reject = (): RequestPermissionResponse => ({ outcome: { outcome: "selected", optionId: "deny" } })

/** One session whose single prompt makes the model write `path` (relative to the session folder or absolute). */
const writeScenario = async (options: {
  readonly path: (cwd: string) => string
  readonly mode?: string
  readonly answer: (request: RequestPermissionRequest) => RequestPermissionResponse
  readonly prepare?: (cwd: string) => void
  /** The model's tool calls instead of one write_file of `path`. */
  readonly calls?: ReadonlyArray<{ readonly id?: string; readonly name: string; readonly arguments: Record<string, unknown> }>
}) => {
  const cwd = tempDir("hermes-acp-mode-cwd-")
  options.prepare?.(cwd)
  const target = options.path(cwd)
  const home = scriptedHome(tempHome("hermes-acp-mode-"), [
    { when: { last_role: "user" }, tool_calls: options.calls ?? [{ name: "write_file", arguments: { path: target, content: "written\n" } }] },
    { when: { last_role: "tool" }, content: "ok" }
  ])
  // The child's temp folder is its own, so "outside the session folder" is outside the temp folder too.
  const acp = startAcp(home, options.answer, { TMPDIR: mkdtempSync(join(tmpdir(), "hermes-acp-own-tmp-")) })
  open.push(acp)
  await initialize(acp)
  const created = await acp.connection.agent.request(methods.agent.session.new, { cwd, mcpServers: [] })
  if (options.mode !== undefined) await acp.connection.agent.request(methods.agent.session.setMode, { sessionId: created.sessionId, modeId: options.mode })
  const result = await acp.connection.agent.request(methods.agent.session.prompt, { sessionId: created.sessionId, prompt: [{ type: "text", text: "write" }] })
  expect(result.stopReason).toBe("end_turn")
  const written = join(target.startsWith("/") ? "" : cwd, target)
  return { acp, cwd, created, written, sessionId: created.sessionId }
}

const toolOutput = (acp: AcpChild, sessionId: string) =>
  JSON.stringify(updatesOf(acp, sessionId).filter((u) => u.sessionUpdate === "tool_call_update" && u.status !== "in_progress"))

describe("acp session modes", () => {
  it("new sessions offer default / accept_edits / dont_ask and start in default; an unknown mode is refused", async () => {
    const { acp, created } = await writeScenario({ path: () => "a.txt", answer: allow })
    expect(created.modes?.currentModeId).toBe("default")
    expect(created.modes?.availableModes.map((m) => m.id)).toEqual(["default", "accept_edits", "dont_ask"])
    await expect(acp.connection.agent.request(methods.agent.session.setMode, { sessionId: created.sessionId, modeId: "yolo" }))
      .rejects.toMatchObject({ code: -32602 })
    await expect(acp.connection.agent.request(methods.agent.session.setMode, { sessionId: "nope", modeId: "dont_ask" }))
      .rejects.toMatchObject({ code: -32002 })
  })

  it("default: every edit asks with the diff; reject leaves no file and the model reads why", async () => {
    const { acp, written, sessionId } = await writeScenario({ path: () => "plain.txt", answer: reject })
    expect(acp.permissions).toHaveLength(1)
    const asked = acp.permissions[0]!
    expect(asked.toolCall.kind).toBe("edit")
    expect(asked.options.map((o) => o.optionId)).toEqual(["allow_once", "deny"])
    expect(asked.toolCall.content).toEqual([{ type: "diff", path: written, oldText: null, newText: "written\n" }])
    expect(existsSync(written)).toBe(false)
    expect(toolOutput(acp, sessionId)).toContain("Edit approval denied")
  })

  it("default: a yes covers the file it was asked for, not another file of the same call or a call reusing its id", async () => {
    const pathOf = (request: RequestPermissionRequest) => {
      const first = request.toolCall.content?.[0]
      return first?.type === "diff" ? first.path : ""
    }
    const allowOnly = (name: string) => (request: RequestPermissionRequest) => (pathOf(request).endsWith(`/${name}`) ? allow() : reject())
    const patch = "*** Begin Patch\n*** Add File: shown.txt\n+fine\n*** Add File: hidden.txt\n+sneaked\n*** End Patch"
    const one = await writeScenario({ path: () => "shown.txt", answer: allowOnly("shown.txt"), calls: [{ name: "patch", arguments: { mode: "patch", patch } }] })
    expect(one.acp.permissions.map(pathOf)).toEqual([join(one.cwd, "shown.txt"), join(one.cwd, "hidden.txt")])
    expect(existsSync(join(one.cwd, "hidden.txt"))).toBe(false)
    const two = await writeScenario({
      path: () => "shown.txt",
      answer: allowOnly("shown.txt"),
      calls: [
        { id: "same", name: "write_file", arguments: { path: "shown.txt", content: "fine\n" } },
        { id: "same", name: "write_file", arguments: { path: "hidden.txt", content: "sneaked\n" } }
      ]
    })
    expect(readFileSync(join(two.cwd, "shown.txt"), "utf8")).toBe("fine\n")
    expect(existsSync(join(two.cwd, "hidden.txt"))).toBe(false)
  })

  it("accept_edits: an edit in the session folder goes through without asking", async () => {
    const { acp, written } = await writeScenario({ path: () => "inside.txt", mode: "accept_edits", answer: reject })
    expect(acp.permissions).toHaveLength(0)
    expect(readFileSync(written, "utf8")).toBe("written\n")
  })

  it("accept_edits: an absolute path outside the folder asks", async () => {
    const outside = tempDir("hermes-acp-outside-")
    const { acp, written } = await writeScenario({ path: () => join(outside, "x.txt"), mode: "accept_edits", answer: reject })
    expect(acp.permissions).toHaveLength(1)
    expect(existsSync(written)).toBe(false)
  })

  it("accept_edits: a link inside the folder that leads outside asks (the real path decides)", async () => {
    const outside = tempDir("hermes-acp-outside-")
    const { acp } = await writeScenario({
      path: () => "link/x.txt",
      mode: "accept_edits",
      answer: reject,
      prepare: (cwd) => symlinkSync(outside, join(cwd, "link"))
    })
    expect(acp.permissions).toHaveLength(1)
    expect(existsSync(join(outside, "x.txt"))).toBe(false)
  })

  it("dont_ask: credentials and repository internals still ask", async () => {
    for (const path of [".env", ".env.production", ".git/config", "deploy/.ssh/authorized_keys", "keys/id_ed25519"]) {
      const { acp, written } = await writeScenario({
        path: () => path,
        mode: "dont_ask",
        answer: reject,
        prepare: (cwd) => mkdirSync(join(cwd, path, ".."), { recursive: true })
      })
      expect(acp.permissions, path).toHaveLength(1)
      expect(existsSync(written), path).toBe(false)
    }
  })

  it("dont_ask: an ordinary edit anywhere goes through", async () => {
    const outside = tempDir("hermes-acp-outside-")
    const { acp, written } = await writeScenario({ path: () => join(outside, "y.txt"), mode: "dont_ask", answer: reject })
    expect(acp.permissions).toHaveLength(0)
    expect(readFileSync(written, "utf8")).toBe("written\n")
  })

  it("a subagent's edit asks the editor session it works for (not silently allowed, not silently refused)", async () => {
    const cwd = tempDir("hermes-acp-mode-cwd-")
    const home = scriptedHome(tempHome("hermes-acp-mode-"), [
      { when: { first_user_contains: "parent-task", last_role: "user" }, tool_calls: [{ name: "delegate_task", arguments: { goal: "child-writes the file" } }] },
      { when: { first_user_contains: "child-writes", last_role: "user" }, tool_calls: [{ name: "write_file", arguments: { path: join(cwd, "child.txt"), content: "from the child\n" } }] },
      { when: { first_user_contains: "child-writes", last_role: "tool" }, content: "child done" },
      { when: { first_user_contains: "parent-task", last_role: "tool" }, content: "ok" }
    ])
    const acp = startAcp(home, allow)
    open.push(acp)
    await initialize(acp)
    const { sessionId } = await acp.connection.agent.request(methods.agent.session.new, { cwd, mcpServers: [] })
    const result = await acp.connection.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "parent-task" }] })
    expect(result.stopReason).toBe("end_turn")
    expect(acp.permissions).toHaveLength(1)
    expect(acp.permissions[0]!.sessionId).toBe(sessionId)
    expect(acp.permissions[0]!.toolCall.title).toContain("subagent")
    expect(readFileSync(join(cwd, "child.txt"), "utf8")).toBe("from the child\n")
  })
})
