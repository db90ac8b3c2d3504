import { execFileSync } from "node:child_process"
import { describe, expect, it } from "@effect/vitest"
import { pythonJson, toJsonText } from "../../src/lib/pythonJson.js"

const hasPython = (() => {
  try {
    execFileSync("python3", ["-c", "pass"], { stdio: "ignore" })
    return true
  } catch {
    return false
  }
})()

/** What Python's `json.dumps(value, ensure_ascii=False)` prints for each value (one python3 run). */
const pythonDumps = (values: ReadonlyArray<unknown>): Array<string> =>
  JSON.parse(execFileSync("python3", [
    "-c",
    "import json,sys; print(json.dumps([json.dumps(v, ensure_ascii=False) for v in json.loads(sys.stdin.read())]))"
  ], { input: JSON.stringify(values), encoding: "utf8" })) as Array<string>

// This is the one test that looks at raw JSON text: the format is what it is about.
const samples: ReadonlyArray<unknown> = [
  { success: true, diff: "--- a/x\n+++ b/x\n", files_modified: ["/tmp/x"], lint: { status: "ok", output: "" } },
  { content: "1|héllo — 世界 \u0001 \"q\" \\ \t", total_lines: 1, file_size: 12, truncated: false, is_binary: false, is_image: false },
  [],
  {},
  [1, -2, 3.5, 0.1, null, true, false, "", [[]], [{}]],
  { nested: { a: [1, { b: "c" }], empty: [] }, emoji: "🧠", sep: "\u2028" },
  "plain string",
  42,
  null
]

describe("pythonJson", () => {
  it("uses Python's separators and keeps non-ASCII literal", () => {
    expect(pythonJson({ a: 1, b: [1, 2], c: { d: "é" } })).toBe('{"a": 1, "b": [1, 2], "c": {"d": "é"}}')
    expect(pythonJson([])).toBe("[]")
    expect(pythonJson({})).toBe("{}")
  })

  it("keeps insertion order and parses back to the same value", () => {
    const value = { z: 1, a: 2, m: [3, "x"] }
    expect(Object.keys(JSON.parse(pythonJson(value)))).toEqual(["z", "a", "m"])
    for (const sample of samples) expect(JSON.parse(pythonJson(sample))).toEqual(sample)
  })

  it("drops what JSON.stringify drops, honours toJSON, refuses cycles and BigInt", () => {
    const date = new Date(0)
    expect(pythonJson({ a: undefined, b: () => 1, c: [undefined], d: date })).toBe(`{"c": [null], "d": ${JSON.stringify(date)}}`)
    expect(pythonJson({ n: Number.NaN, i: Number.POSITIVE_INFINITY })).toBe('{"n": null, "i": null}')
    const cyclic: Record<string, unknown> = {}
    cyclic["self"] = cyclic
    expect(() => pythonJson(cyclic)).toThrow(TypeError)
    expect(() => pythonJson({ big: 1n })).toThrow(TypeError)
    const shared = { x: 1 }
    expect(JSON.parse(pythonJson([shared, shared]))).toEqual([{ x: 1 }, { x: 1 }])
  })

  it("compact is JSON.stringify", () => {
    for (const sample of samples) expect(toJsonText(sample, "compact")).toBe(JSON.stringify(sample))
    expect(toJsonText(undefined)).toBeUndefined()
  })

  it.skipIf(!hasPython)("matches Python's json.dumps(ensure_ascii=False) byte for byte", () => {
    expect(samples.map((sample) => pythonJson(sample))).toEqual(pythonDumps(samples))
  })
})
