/** `hermes-effect acp` offers the configured MCP servers' tools beside `hermes-acp` (built binary, scripted provider). */
import { appendFileSync, mkdtempSync, realpathSync } from "node:fs"
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
