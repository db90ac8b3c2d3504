import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { runCli } from "./support/cli.js"
import { tempHome } from "./support/runtime.js"

describe("hermes-effect CLI", () => {
  const home = tempHome("hermes-effect-cli-")

  it("tools list --json prints the definitions array", () => {
    const r = runCli(["tools", "list", "--json"], { home })
    expect(r.code).toBe(0)
    const defs = JSON.parse(r.stdout) as Array<{ type: string; function: { name: string } }>
    expect(defs.map((d) => d.function.name)).toContain("todo")
    expect(defs.every((d) => d.type === "function")).toBe(true)
  })

  it("tools list filters by toolsets and disabled toolsets", () => {
    const r = runCli(["tools", "list", "--json", "--toolsets", "todo,web", "--disable", "todo"], { home })
    // todo disabled; web_extract and web_crawl need no key, web_search needs a provider.
    expect((JSON.parse(r.stdout) as Array<{ function: { name: string } }>).map((d) => d.function.name)).toEqual(["web_crawl", "web_extract"])
    const table = runCli(["tools", "list", "--toolsets", "todo,nonsense"], { home })
    expect(table.stdout).toMatch(/^TOOL\s+TOOLSET\s+AVAILABLE/)
    expect(table.stdout).toContain("unknown toolsets ignored: nonsense")
  })

  it("listing the catalogue (tools, toolsets, plugins) neither creates the state database nor needs a sound one", () => {
    const fresh = tempHome("hermes-effect-cli-catalogue-")
    for (const args of [["tools", "list", "--json"], ["toolsets", "--json"], ["plugins", "--json"]]) {
      expect(runCli(args, { home: fresh }).code).toBe(0)
    }
    expect(existsSync(join(fresh, "state.db"))).toBe(false)
    // A damaged state file fails the commands that use it, not a listing.
    writeFileSync(join(fresh, "state.db"), "not a database at all, and not ours to touch")
    const listed = runCli(["tools", "list", "--json"], { home: fresh })
    expect(listed.code).toBe(0)
    expect((JSON.parse(listed.stdout) as Array<unknown>).length).toBeGreaterThan(10)
    const call = runCli(["call", "todo", "{}"], { home: fresh })
    expect(call.code).toBe(1)
    expect(call.stderr).toContain("state.db")
    expect(readFileSync(join(fresh, "state.db"), "utf8")).toBe("not a database at all, and not ours to touch")
  })

  it("toolsets --json lists Hermes' toolsets with availability", () => {
    const r = runCli(["toolsets", "--json"], { home })
    const sets = JSON.parse(r.stdout) as Array<{ name: string; available: boolean; tools: Array<string> }>
    expect(sets.find((s) => s.name === "todo")).toMatchObject({ available: true, tools: ["todo"] })
    expect(sets.find((s) => s.name === "web")).toMatchObject({ available: true })
    expect(sets.find((s) => s.name === "hermes-cli")?.tools.length).toBe(52)
  })

  it("call prints exactly the model's string and exits 0 even for errors", () => {
    const ok = runCli(["call", "todo", "{\"todos\":[{\"id\":\"1\",\"content\":\"x\",\"status\":\"pending\"}]}"], { home })
    expect(ok.code).toBe(0)
    expect(JSON.parse(ok.stdout)).toMatchObject({ summary: { total: 1, pending: 1 } })
    const unknown = runCli(["call", "nope"], { home })
    expect(unknown.code).toBe(0)
    expect(unknown.stdout.endsWith("}\n")).toBe(true)
    expect(JSON.parse(unknown.stdout)).toEqual({ error: expect.stringMatching(/^Tool 'nope' does not exist\. Available tools: [a-z_, ]*\bterminal, [a-z_, ]*\btodo\b[a-z_, ]*$/) })
    // A malformed todo item is normalised as in Hermes; a value that cannot mean anything is still refused.
    const bad = runCli(["call", "todo", "{\"merge\": \"maybe\"}"], { home })
    expect(bad.code).toBe(0)
    expect(JSON.parse(bad.stdout).error).toBe("Invalid argument 'merge' for tool 'todo': expected a boolean, got \"maybe\"; tool was not executed.")
  })

  it("misuse exits 2 with one line and no stack trace", () => {
    const r = runCli(["call"], { home })
    expect(r.code).toBe(2)
    expect(r.stderr + r.stdout).not.toMatch(/\n\s+at /)
    const missing = runCli(["batch", "/definitely/not/here.jsonl"], { home })
    expect(missing.code).toBe(2)
    expect(missing.stderr.trim()).toMatch(/^hermes-effect: cannot read \/definitely\/not\/here\.jsonl: ENOENT/)
    expect(missing.stderr.trim().split("\n")).toHaveLength(1)
  })

  it("--help works everywhere", () => {
    for (const args of [["--help"], ["tools", "--help"], ["tools", "list", "--help"], ["call", "--help"], ["batch", "--help"]]) {
      const r = runCli(args, { home })
      expect(r.code).toBe(0)
      expect(r.stdout).toContain("USAGE")
    }
  })

  it("a malformed config.yaml is one clear line with file, line and key; the file is untouched", () => {
    const bad = tempHome("hermes-effect-badcfg-")
    const text = "# my settings\ntools:\n  max_parallel: lots\n"
    writeFileSync(join(bad, "config.yaml"), text)
    const r = runCli(["tools", "list"], { home: bad })
    expect(r.code).toBe(1)
    expect(r.stderr.trim()).toBe(`hermes-effect: ${join(bad, "config.yaml")}:3: tools.max_parallel: Expected number, actual "lots"`)
    expect(readFileSync(join(bad, "config.yaml"), "utf8")).toBe(text)
  })

  it("batch runs JSONL in order, reports bad lines by number and still runs the rest", () => {
    const file = join(home, "calls.jsonl")
    writeFileSync(file, [
      "{\"id\": \"a\", \"tool\": \"todo\", \"args\": {\"todos\": [{\"id\": \"1\", \"content\": \"one\", \"status\": \"pending\"}]}, \"task_id\": \"t1\"}",
      "{not json",
      "",
      "{\"id\": \"b\", \"tool\": \"todo\", \"args\": {}, \"task_id\": \"t2\"}",
      "{\"tool\": \"todo\", \"args\": {}, \"task_id\": \"t1\"}",
      "{\"id\": \"d\", \"tool\": \"missing_tool\"}"
    ].join("\n"))
    const out = join(home, "results.jsonl")
    const r = runCli(["batch", file, "--out", out, "--concurrency", "2"], { home })
    expect(r.code).toBe(1)
    expect(r.stderr).toContain("hermes-effect batch: line 2 is not valid JSON")
    const rows = readFileSync(out, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { id: unknown; tool: unknown; result: string })
    expect(rows.map((x) => x.id)).toEqual(["a", 2, "b", 5, "d"])
    expect(JSON.parse(rows[2]!.result)).toMatchObject({ summary: { total: 0 } })
    expect(JSON.parse(rows[3]!.result)).toMatchObject({ summary: { total: 1 } })
    expect(JSON.parse(rows[1]!.result).error).toMatch(/^line 2 is not valid JSON/)
    expect(JSON.parse(rows[4]!.result).error).toMatch(/^Tool 'missing_tool' does not exist/)
    expect(r.stderr).toMatch(/batch: 5 lines, 3 ok, 1 tool errors, 1 invalid lines/)
  })

  it("approval check prints one verdict per command, from arguments or JSON lines on stdin", () => {
    const r = runCli(["approval", "check", "--json", "rm -rf /", "ls"], { home })
    expect(r.code).toBe(0)
    expect(r.stdout.trim().split("\n").map((l) => JSON.parse(l))).toEqual([
      { command: "rm -rf /", dangerous: true, description: "delete in root path", hardline: true, hardline_description: "recursive delete of root filesystem" },
      { command: "ls", dangerous: false, description: null, hardline: false, hardline_description: null }
    ])
    const stdin = runCli(["approval", "check", "--json"], { home, input: "\"git reset --hard\"\n{\"command\": \"cat <<EOF\\nhi\\nEOF\"}\n" })
    const rows = stdin.stdout.trim().split("\n").map((l) => JSON.parse(l) as { dangerous: boolean; description: string | null })
    expect(rows.map((x) => [x.dangerous, x.description])).toEqual([[true, "git reset --hard (destroys uncommitted changes)"], [false, null]])
    const bad = runCli(["approval", "check"], { home, input: "not json\n" })
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/^hermes-effect: stdin line 1:/)
  })

  it("approvals allow / list / revoke edit command_allowlist and keep comments", () => {
    const own = tempHome("hermes-effect-approvals-")
    writeFileSync(join(own, "config.yaml"), "# keep me\napprovals:\n  mode: manual\n")
    expect(runCli(["approvals", "allow", "recursive delete"], { home: own }).stdout).toBe("allowed: recursive delete\n")
    expect(readFileSync(join(own, "config.yaml"), "utf8")).toBe("# keep me\napprovals:\n  mode: manual\ncommand_allowlist:\n  - recursive delete\n")
    const listed = JSON.parse(runCli(["approvals", "list", "--json"], { home: own }).stdout) as { command_allowlist: Array<string> }
    expect(listed.command_allowlist).toEqual(["recursive delete"])
    expect(runCli(["approvals", "revoke", "recursive delete"], { home: own }).code).toBe(0)
    expect(readFileSync(join(own, "config.yaml"), "utf8")).toBe("# keep me\napprovals:\n  mode: manual\ncommand_allowlist: []\n")
    expect(runCli(["approvals", "revoke", "recursive delete"], { home: own }).code).toBe(2)
  })

  it("the shipped quickstart runs with every line answered", () => {
    const r = runCli(["batch", "examples/quickstart.jsonl"], { home: tempHome("hermes-effect-qs-") })
    expect(r.code).toBe(0)
    const rows = r.stdout.trim().split("\n").map((l) => JSON.parse(l) as { id: string; result: string })
    const result = (id: string) => JSON.parse(rows.find((x) => x.id === id)!.result) as Record<string, unknown>
    expect(rows.length).toBe(13)
    expect(result("state-carries-over-2")["output"]).toBe("/tmp/hermes-effect-quickstart\nhello from the same environment")
    const finished = result("background-finished")["processes"] as Array<Record<string, unknown>>
    expect(finished[0]).toMatchObject({ status: "exited", exit_code: 0 })
    expect(result("dangerous-needs-approval")).toMatchObject({ exit_code: -1, status: "blocked" })
    expect(String(result("hardline-never-runs")["error"])).toMatch(/^BLOCKED \(hardline\)/)
    expect(result("typo-in-tool-name")["error"]).toMatch(/^Tool 'todos' does not exist/)
  })
})
