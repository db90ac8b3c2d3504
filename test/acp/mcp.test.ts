/** `hermes-effect acp` offers the configured MCP servers' tools beside `hermes-acp` (built binary, scripted provider). */
import { appendFileSync, existsSync, mkdtempSync, readFileSync, realpathSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { methods } from "@agentclientprotocol/sdk/unstable"
import { describe, expect, it } from "vitest"
import { tempHome } from "../support/runtime.js"
import { initialize, scriptedHome, startAcp, updatesOf } from "./client.js"

const STDIO_SERVER = fileURLToPath(new URL("../support/mcpServers/stdio-server.mjs", import.meta.url))

describe("hermes-effect acp and MCP", () => {
  it("a configured MCP server's tools are offered and run as tool calls", async () => {
    const home = scriptedHome(tempHome("hermes-acp-mcp-"), [
      { expect: { tools_include: ["mcp__alpha__add", "terminal"] }, tool_calls: [{ name: "mcp__alpha__add", arguments: { a: 2, b: 3 } }] },
      { expect: { last_role: "tool" }, content: "Added." }
    ])
    appendFileSync(join(home, "config.yaml"), `mcp_servers:\n  alpha:\n    command: ${JSON.stringify(process.execPath)}\n    args: [${JSON.stringify(STDIO_SERVER)}]\n`)
    const acp = startAcp(home)
    try {
      await initialize(acp)
      const cwd = realpathSync(mkdtempSync(join(tmpdir(), "hermes-acp-cwd-")))
      const { sessionId } = await acp.connection.agent.request(methods.agent.session.new, { cwd, mcpServers: [] })
      const answer = await acp.connection.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "add them" }] })
      expect(answer.stopReason).toBe("end_turn")
      const all = updatesOf(acp, sessionId)
      const done = all.find((u) => u.sessionUpdate === "tool_call_update" && u.status === "completed")
      expect(JSON.stringify(done ?? all)).toContain("\"5")
    } finally {
      await acp.stop()
    }
  })
})

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

describe("hermes-effect acp and the client's MCP servers", () => {
  it("a server passed in session/new serves that session only and stops with it", async () => {
    const home = scriptedHome(tempHome("hermes-acp-mcp-client-"), [
      // Each session reads the script from the top, so the turns pick themselves by what is offered.
      { when: { tools_include: ["mcp__beta__add", "terminal"], last_role: "user" }, tool_calls: [{ name: "mcp__beta__add", arguments: { a: 40, b: 2 } }] },
      { when: { last_role: "tool" }, content: "Added." },
      { when: { tools_exclude: ["mcp__beta__add"], tools_include: ["terminal"] }, content: "No beta here." }
    ])
    const pidFile = join(home, "beta.pid")
    const acp = startAcp(home)
    try {
      const init = await initialize(acp)
      expect(init.agentCapabilities?.mcpCapabilities?.http).toBe(true)
      const cwd = realpathSync(mkdtempSync(join(tmpdir(), "hermes-acp-cwd-")))
      const beta = { name: "beta", command: process.execPath, args: [STDIO_SERVER, "--pid-file", pidFile], env: [] }
      const a: { sessionId: string } = await acp.connection.agent.request(methods.agent.session.new, { cwd, mcpServers: [beta] })
      const answer: { stopReason: string } = await acp.connection.agent.request(methods.agent.session.prompt, { sessionId: a.sessionId, prompt: [{ type: "text", text: "add" }] })
      expect(answer.stopReason).toBe("end_turn")
      const done = updatesOf(acp, a.sessionId).find((u) => u.sessionUpdate === "tool_call_update" && u.status === "completed")
      expect(JSON.stringify(done)).toContain("42")

      // Another session never sees it.
      const b = await acp.connection.agent.request(methods.agent.session.new, { cwd, mcpServers: [] })
      const other = await acp.connection.agent.request(methods.agent.session.prompt, { sessionId: b.sessionId, prompt: [{ type: "text", text: "add?" }] })
      expect(other.stopReason).toBe("end_turn")
      expect(JSON.stringify(updatesOf(acp, b.sessionId))).toContain("No beta here.")

      const pid = Number(readFileSync(pidFile, "utf8"))
      expect(alive(pid)).toBe(true)
      await acp.connection.agent.request(methods.agent.session.close, { sessionId: a.sessionId })
      const deadline = Date.now() + 5000
      while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25))
      expect(alive(pid)).toBe(false)
    } finally {
      await acp.stop()
    }
  })

  it("the session's servers stop when the editor closes the connection", async () => {
    const home = scriptedHome(tempHome("hermes-acp-mcp-exit-"), [{ content: "ok" }])
    const pidFile = join(home, "gamma.pid")
    const acp = startAcp(home)
    let stopped = false
    try {
      await initialize(acp)
      const cwd = realpathSync(mkdtempSync(join(tmpdir(), "hermes-acp-cwd-")))
      const gamma = { name: "gamma", command: process.execPath, args: [STDIO_SERVER, "--pid-file", pidFile], env: [] }
      await acp.connection.agent.request(methods.agent.session.new, { cwd, mcpServers: [gamma] })
      const deadline = Date.now() + 10000
      while (!existsSync(pidFile) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25))
      const pid = Number(readFileSync(pidFile, "utf8"))
      expect(alive(pid)).toBe(true)
      await acp.stop()
      stopped = true
      const gone = Date.now() + 5000
      while (alive(pid) && Date.now() < gone) await new Promise((r) => setTimeout(r, 25))
      expect(alive(pid)).toBe(false)
    } finally {
      if (!stopped) await acp.stop()
    }
  })
})
