/** `clarify` from the built binary: headless runs have nobody to ask (run `npm run build` first; `npm test` does). */
import { describe, expect, it } from "@effect/vitest"
import { runCli } from "../support/cli.js"
import { tempHome } from "../support/runtime.js"

describe("clarify in the CLI", () => {
  const home = tempHome("hermes-effect-clarify-cli-")

  it("call answers with Hermes' unavailable error and exits 0", () => {
    const r = runCli(["call", "clarify", "{\"question\": \"Which target?\", \"choices\": [\"staging\", \"prod\"]}"], { home })
    expect(r.code).toBe(0)
    expect(r.stdout.endsWith("}\n")).toBe(true)
    expect(JSON.parse(r.stdout)).toEqual({ error: "Clarify tool is not available in this execution context." })
  })

  it("tools list shows the definition the model gets", () => {
    const r = runCli(["tools", "list", "--json", "--toolsets", "clarify"], { home })
    expect(r.code).toBe(0)
    const defs = JSON.parse(r.stdout) as Array<{ function: { name: string; parameters: { required: Array<string>; properties: Record<string, { maxItems?: number }> } } }>
    expect(defs.map((d) => d.function.name)).toEqual(["clarify"])
    expect(defs[0]!.function.parameters.required).toEqual(["question"])
    expect(defs[0]!.function.parameters.properties["choices"]?.maxItems).toBe(4)
  })
})
