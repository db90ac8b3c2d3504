/**
 * The fast path of `hermes-effect acp` (src/programs/acp/fast.ts): `initialize`
 * answered before the runtime loads must say what the full server says, and
 * whatever it cannot answer for certain still works through the full server.
 */
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { methods } from "@agentclientprotocol/sdk/unstable"
import { Either } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { parseConfigText } from "../../src/layers/config/yamlConfig.js"
import { modelSettings } from "../../src/layers/model/settings.js"
import { quickModelProvider } from "../../src/lib/quickModelProvider.js"
import { tempHome } from "../support/runtime.js"
import { initialize, startAcp } from "./client.js"
import type { AcpChild } from "./client.js"

const open: Array<AcpChild> = []
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.stop()))
})

/** The provider the full program derives (Model.provider; "none" → undefined). */
const fullProvider = (text: string) => {
  const parsed = parseConfigText("config.yaml", text)
  if (Either.isLeft(parsed)) throw parsed.left
  const settings = modelSettings(parsed.right.config)
  return settings.kind === "none" ? undefined : settings.kind === "scripted" ? "scripted" : settings.options.provider
}

const fullVision = (text: string) => {
  const parsed = parseConfigText("config.yaml", text)
  if (Either.isLeft(parsed)) throw parsed.left
  return parsed.right.config.model?.vision === true
}

const CONFIGS = [
  "",
  "# nothing\nterminal:\n  backend: local\n",
  "model: gpt-4o\n",
  "model: 'gpt-4o'  # quoted\n",
  "model:\n  provider: scripted\n  script: /tmp/s.jsonl\n",
  "model:\n  provider: scripted\n",
  "model:\n  provider: OpenRouter\n  name: x/y\n  headers:\n    X-Title: hermes\n  max_tokens: 100\n",
  "model:\n  provider: acme\n  name: m\n",
  "model:\n  provider: acme\n  name: m\n  base_url: \"http://localhost:1/v1\"\n",
  "model:\n  base_url: http://localhost:1/v1\n  default: m\nagent:\n  max_turns: 3\n",
  "model:\n  provider: none\n  name: m\n",
  "model:\n    name: m   # four spaces\n",
  "model:\n  name: \"\"\n",
  "model:\n  provider: scripted\n  script: /tmp/s.jsonl\n  vision: true\n",
  "model:\n  name: gpt-4o\n  vision: False  # YAML 1.2 boolean\n"
]

describe("acp fast path", () => {
  it("reads the provider from config.yaml text as the full program does, or says it is unsure", () => {
    for (const text of CONFIGS) {
      const quick = quickModelProvider(text)
      expect(quick.kind, text).not.toBe("unsure")
      expect(quick.kind === "provider" ? quick.provider : undefined, text).toBe(fullProvider(text))
      if (quick.kind === "provider") expect(quick.vision, text).toBe(fullVision(text))
    }
    expect(quickModelProvider(undefined)).toEqual({ kind: "none" })
    for (const text of ["model: {provider: scripted, script: s}\n", "model:\n  provider: >\n    scripted\n", "model: &m gpt\n", "\"model\": gpt\n", "model:\n", "model:\n  name: m\n  vision: yes\n"]) {
      expect(quickModelProvider(text).kind, text).toBe("unsure")
    }
  })

  it("a config it cannot read plainly is answered by the full server", async () => {
    const home = tempHome("hermes-acp-fast-")
    mkdirSync(home, { recursive: true })
    const script = join(home, "script.jsonl")
    writeFileSync(script, `${JSON.stringify({ content: "hi" })}\n`)
    writeFileSync(join(home, "config.yaml"), `model: {provider: scripted, script: ${JSON.stringify(script)}}\n`)
    const acp = startAcp(home)
    open.push(acp)
    expect((await initialize(acp)).authMethods?.map((m) => m.id)).toEqual(["scripted"])
    const cwd = realpathSync(mkdtempSync(join(tmpdir(), "hermes-acp-cwd-")))
    const { sessionId } = await acp.connection.agent.request(methods.agent.session.new, { cwd, mcpServers: [] })
    expect((await acp.connection.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "hey" }] })).stopReason).toBe("end_turn")
  })

  it("a request before initialize is refused as before, and initialize still works after it", async () => {
    const acp = startAcp(tempHome("hermes-acp-fast-"))
    open.push(acp)
    await expect(acp.connection.agent.request(methods.agent.session.new, { cwd: tmpdir(), mcpServers: [] })).rejects.toBeDefined()
    expect((await initialize(acp)).protocolVersion).toBe(1)
  })
})
