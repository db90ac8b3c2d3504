/**
 * What a model can send through `call` and `batch` never crashes the CLI:
 * deeply nested JSON is answered with an error naming the limit, the batch
 * summary counts every error answer, and a mistyped terminal backend is a
 * config error naming the allowed values.
 */
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { MAX_JSON_DEPTH } from "../../src/lib/jsonDepth.js"
import { runCli } from "../support/cli.js"
import { tempHome } from "../support/runtime.js"

const arrays = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`
const objects = (n: number) => `${"{\"a\":".repeat(n)}1${"}".repeat(n)}`
const LIMIT = new RegExp(`deeper than ${MAX_JSON_DEPTH} levels`)

const errorText = (result: string): string => {
  const parsed = JSON.parse(result) as Record<string, unknown>
  expect(Object.keys(parsed)).toEqual(["error"])
  return String(parsed["error"])
}

describe("deeply nested JSON through the CLI", () => {
  const home = tempHome("hermes-effect-deep-")

  it("call answers an error naming the limit and exits 0, as for other tool errors", () => {
    for (const depth of [3_000, 100_000]) {
      for (const nested of [arrays(depth), objects(depth)]) {
        const args = `{"todos": [], "extra": ${nested}}`
        // 100 000 levels do not fit on a command line: `-` reads the arguments from stdin.
        const r = depth > 50_000 ? runCli(["call", "todo", "-"], { home, input: args }) : runCli(["call", "todo", args], { home })
        expect(r.stderr).not.toMatch(/internal error/)
        expect(r.code).toBe(0)
        expect(errorText(r.stdout)).toMatch(LIMIT)
      }
    }
    const inside = runCli(["call", "todo", "-"], { home, input: `{"todos": ${arrays(100_000)}}` })
    expect(errorText(inside.stdout)).toMatch(LIMIT)
  })

  it("a batch answers every line around deep ones", () => {
    const file = join(home, "deep.jsonl")
    const todo = (id: string) => JSON.stringify({ id, tool: "todo", args: { todos: [] } })
    writeFileSync(file, [
      todo("first"),
      `{"id": "deep-arrays", "tool": "todo", "args": {"todos": ${arrays(3_000)}}}`,
      todo("middle"),
      `{"id": "deep-objects", "tool": "todo", "args": {"todos": [], "x": ${objects(100_000)}}}`,
      `{"id": "deep-text", "tool": "todo", "args": ${JSON.stringify(`{"todos": ${arrays(100_000)}}`)}}`,
      todo("last")
    ].join("\n"))
    const out = join(home, "deep-results.jsonl")
    const r = runCli(["batch", file, "--out", out], { home })
    expect(r.stderr).not.toMatch(/internal error/)
    expect(r.code).toBe(0)
    const rows = readFileSync(out, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { id: string; result: string })
    expect(rows.map((row) => row.id)).toEqual(["first", "deep-arrays", "middle", "deep-objects", "deep-text", "last"])
    for (const row of rows) {
      if (row.id.startsWith("deep")) expect(errorText(row.result)).toMatch(LIMIT)
      else expect(JSON.parse(row.result)).toMatchObject({ summary: { total: 0 } })
    }
    expect(r.stderr).toMatch(/batch: 6 lines, 3 ok, 3 tool errors, 0 invalid lines/)
  })
})

describe("the batch summary counts what the model saw", () => {
  it("every answer that is an error counts as a tool error, whatever produced it", () => {
    const home = tempHome("hermes-effect-summary-")
    const file = join(home, "mixed.jsonl")
    writeFileSync(file, [
      // ok: a result, and a command that ran and failed (its exit code is not a tool error)
      { id: "ok", tool: "todo", args: { todos: [] } },
      { id: "exit-1", tool: "terminal", args: { command: "false" } },
      // dispatch errors: unknown tool, invalid arguments
      { id: "unknown", tool: "no_such_tool", args: {} },
      { id: "invalid", tool: "todo", args: { merge: "maybe" } }, // todos: 5 is normalised as in Hermes; merge cannot be
      // a tool's own error answer, and an approval refusal
      { id: "missing-file", tool: "read_file", args: { path: join(home, "does-not-exist.txt") } },
      { id: "no-skill", tool: "skill_view", args: { name: "no-such-skill" } },
      { id: "blocked", tool: "terminal", args: { command: `rm -rf ${join(home, "canary")}` } }
    ].map((l) => JSON.stringify(l)).join("\n"))
    const out = join(home, "results.jsonl")
    const r = runCli(["batch", file, "--out", out], { home })
    expect(r.code).toBe(0)
    const rows = readFileSync(out, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { id: string; result: string })
    const result = (id: string) => JSON.parse(rows.find((row) => row.id === id)!.result) as Record<string, unknown>
    expect(result("exit-1")).toMatchObject({ exit_code: 1, error: null })
    for (const id of ["unknown", "invalid", "missing-file", "no-skill", "blocked"]) {
      const answer = result(id)
      expect(answer["error"] !== undefined && answer["error"] !== null, id).toBe(true)
    }
    expect(r.stderr).toMatch(/batch: 7 lines, 2 ok, 5 tool errors, 0 invalid lines/)
  })
})

describe("terminal.backend", () => {
  it("an unknown backend is a config error naming the allowed values, not an unavailable tool", () => {
    const home = tempHome("hermes-effect-backend-")
    const text = "terminal:\n  backend: dokcer\n"
    writeFileSync(join(home, "config.yaml"), text)
    for (const args of [["tools", "list"], ["call", "terminal", "{\"command\": \"echo hi\"}"]]) {
      const r = runCli(args, { home })
      expect(r.code).toBe(1)
      expect(r.stdout).toBe("")
      expect(r.stderr.trim()).toBe(
        `hermes-effect: ${join(home, "config.yaml")}:2: terminal.backend: unknown terminal backend "dokcer"; allowed: local, sandbox, ssh, container, docker, podman`
      )
    }
    expect(readFileSync(join(home, "config.yaml"), "utf8")).toBe(text)
    writeFileSync(join(home, "config.yaml"), "terminal:\n  backend: Local\n")
    const fixed = runCli(["call", "terminal", "{\"command\": \"echo hi\"}"], { home })
    expect(JSON.parse(fixed.stdout)).toMatchObject({ output: "hi", exit_code: 0 })
  })
})
