/** The file tools' pure pieces: fuzzy matching, V4A parsing, gitignore rules, diffs, paging. */
import { describe, expect, it } from "@effect/vitest"
import { fuzzyReplace, isAlreadyApplied, noMatchHint } from "../../src/lib/fuzzyMatch.js"
import { LinePager, truncateToCharBudget } from "../../src/tools/files/linePager.js"
import { Overrides, RuleSet } from "../../src/tools/files/search/gitignore.js"
import { parseRipgrepOutput, ripgrepScript } from "../../src/tools/files/search/ripgrep.js"
import type { SearchRequest } from "../../src/tools/files/search/engine.js"
import { syntaxProblem } from "../../src/tools/files/syntaxGate.js"
import { unifiedDiff } from "../../src/tools/files/unifiedDiff.js"
import { headerPaths, parseV4a } from "../../src/tools/files/v4aParser.js"
import { looksLikeReadFileOutput } from "../../src/tools/files/writeText.js"
import { redactFileText, redactToolOutput } from "../../src/lib/text.js"

describe("fuzzy find-and-replace", () => {
  const cases: ReadonlyArray<readonly [string, string, string, string, string, string]> = [
    // [strategy, file, old, new, expected file]
    ["exact", "a\nfoo bar\nb\n", "foo bar", "baz", "a\nbaz\nb\n", ""],
    ["line_trimmed", "def f():\n    x = 1   \n", "x = 1\n", "x = 2\n", "def f():\n    x = 2\n", "re-indented to the file"],
    ["whitespace_normalized", "call(a,   b)\n", "call(a, b)", "call(a, c)", "call(a, c)\n", ""],
    // Whatever indentation_flexible and trimmed_boundary accept, line_trimmed (tried earlier) accepts too.
    ["line_trimmed", "if x:\n        y()\n        z()\n", "  y()\n    z()", "  y()\n  w()", "if x:\n        y()\n        w()\n", "new lines take the file's indentation"],
    ["escape_normalized", "first\nsecond\n", "first\\nsecond", "one\ntwo", "one\ntwo\n", ""],
    ["line_trimmed", "  start\nmiddle\n  end\n", "start\nmiddle\nend  ", "start\nMIDDLE\nend", "  start\n  MIDDLE\n  end\n", "the base indent moves to the file's"],
    ["unicode_normalized", "say \u201chello\u201d \u2014 twice\n", "say \"hello\" -- twice", "say \"hello\" -- once", "say \u201chello\u201d \u2014 once\n", "the file's quotes and dash survive"],
    ["block_anchor", "function f() {\n  const a = compute(1)\n  const b = a + 1\n  return b\n}\n", "function f() {\n  const a = compute(2)\n  const b = a + 1\n  return b\n}", "function f() {\n  return 3\n}", "function f() {\n  return 3\n}\n", ""],
    ["context_aware", "alpha beta gamma\ndelta epsilon\n", "alpha beta gamme\ndelta epsilom", "x\ny", "x\ny\n", ""]
  ]
  for (const [strategy, file, oldString, newString, expected] of cases) {
    it(`${strategy}: ${JSON.stringify(oldString)}`, () => {
      const out = fuzzyReplace(file, oldString, newString)
      expect(out.error).toBeUndefined()
      expect(out.strategy).toBe(strategy)
      expect(out.content).toBe(expected)
    })
  }

  it("refuses empty, blank and identical strings, ambiguity and approximate replace_all", () => {
    expect(fuzzyReplace("x", "", "y").error).toBe("old_string cannot be empty")
    expect(fuzzyReplace("x", "  \n", "y").error).toContain("only whitespace")
    expect(fuzzyReplace("x", "x", "x").error).toBe("old_string and new_string are identical")
    expect(fuzzyReplace("aa\naa\n", "aa", "b").error).toMatch(/^Found 2 matches for old_string/)
    expect(fuzzyReplace("aaaa", "aa", "b", true)).toMatchObject({ content: "bb", count: 2 })
  })

  it("guards against escape drift and stray indentation after a tolerant match", () => {
    const drift = fuzzyReplace("print('it is')  \n", "print(\\'it is\\')", "print(\\'it was\\')")
    expect(drift.count).toBe(0)
    const indent = fuzzyReplace("a = 1\r\nb = 2\r\n", "a = 1\nb = 2", "a = 1\n        b = 3")
    expect(indent.error).toMatch(/^Suspicious indentation in new_string/)
  })

  it("turns \\t typed as text into a tab where the file has tabs", () => {
    expect(fuzzyReplace("\tx = 1\n", "x = 1", "x = 2").content).toBe("\tx = 2\n")
    expect(fuzzyReplace("if a:\n\tb()\n", "if a:\n  b()", "if a:\n\\tc()").content).toBe("if a:\n\tc()\n")
  })

  it("already-applied edits and did-you-mean hints", () => {
    expect(isAlreadyApplied("const value = 42\n", "const value = 41", "const value = 42")).toBe(true)
    expect(isAlreadyApplied("const value = 41\nconst value = 42\n", "const value = 41", "const value = 42")).toBe(false)
    const content = "def handler(event):\n    return event\n"
    const hint = noMatchHint("Could not find a match for old_string in the file", "def  handlr(evt):", content)
    expect(hint).toContain("Did you mean one of these sections?\n   1| def handler(event):")
    expect(noMatchHint("Found 2 matches", "x", content)).toBe("")
  })
})

describe("V4A parser", () => {
  it("parses every operation, hints, implicit context and CRLF", () => {
    const parsed = parseV4a(
      "*** Begin Patch\r\n*** Update File: a.py\r\n@@ def f @@\r\n ctx\r\n-old\r\n+new\r\nbare context\r\n*** Add File: b.txt\r\n+one\r\n+two\r\n***Delete File: c.txt\r\n*** Move File: d.txt -> e/d.txt\r\n*** End Patch\r\n"
    )
    expect(parsed).toEqual({
      _tag: "Parsed",
      operations: [
        {
          kind: "update",
          path: "a.py",
          hunks: [{ hint: "def f", lines: [{ prefix: " ", text: "ctx" }, { prefix: "-", text: "old" }, { prefix: "+", text: "new" }, { prefix: " ", text: "bare context" }] }]
        },
        { kind: "add", path: "b.txt", hunks: [{ hint: undefined, lines: [{ prefix: "+", text: "one" }, { prefix: "+", text: "two" }] }] },
        { kind: "delete", path: "c.txt", hunks: [] },
        { kind: "move", path: "d.txt", to: "e/d.txt", hunks: [] }
      ]
    })
  })

  it("reports updates without hunks, moves without a destination and 'Move to:'", () => {
    expect(parseV4a("*** Begin Patch\n*** Update File: a\n*** End Patch")).toEqual({ _tag: "Invalid", error: "Parse error: UPDATE 'a': no hunks found" })
    const moveTo = parseV4a("*** Begin Patch\n*** Update File: a\n*** Move to: b\n-x\n+y\n*** End Patch")
    expect(moveTo._tag === "Invalid" && moveTo.error).toContain("'*** Move to: b' is not supported")
  })

  it("content lines that mention the markers do not end the patch", () => {
    const parsed = parseV4a("*** Begin Patch\n*** Add File: doc.md\n+*** End Patch\n+done\n*** End Patch")
    expect(parsed._tag === "Parsed" && parsed.operations[0]?.hunks[0]?.lines.map((l) => l.text)).toEqual(["*** End Patch", "done"])
  })

  it("header paths are found before parsing, both ends of a move included", () => {
    expect(headerPaths("***Update File: ../x\n*** Move File: a -> /etc/b\n")).toEqual(["../x", "a", "/etc/b"])
  })
})

describe("gitignore rules and --glob overrides", () => {
  const rules = RuleSet.parse("# comment\n*.log\n!keep.log\nbuild/\n/root-only.txt\ndocs/**/draft*\n\\#literal\n")
  const cases: ReadonlyArray<readonly [string, boolean, "ignore" | "whitelist" | undefined]> = [
    ["app.log", false, "ignore"],
    ["deep/x/app.log", false, "ignore"],
    ["keep.log", false, "whitelist"],
    ["build", true, "ignore"],
    ["build", false, undefined],
    ["src/build", true, "ignore"],
    ["root-only.txt", false, "ignore"],
    ["sub/root-only.txt", false, undefined],
    ["docs/a/b/draft-1.md", false, "ignore"],
    ["docs/draft.md", false, "ignore"],
    ["#literal", false, "ignore"],
    ["main.ts", false, undefined]
  ]
  for (const [path, isDir, expected] of cases) {
    it(`${path}${isDir ? "/" : ""} → ${expected}`, () => expect(rules.decide(path, isDir)).toBe(expected))
  }

  it("overrides include matches, exclude other files, never prune directories", () => {
    const o = new Overrides(["*.ts", "!*.test.ts"])
    expect(o.decide("src/a.ts", false)).toBe("include")
    expect(o.decide("src/a.test.ts", false)).toBe("exclude")
    expect(o.decide("README.md", false)).toBe("exclude")
    expect(o.decide("src", true)).toBeUndefined()
    expect(new Overrides(["[ab]?.[!c]x"]).decide("a1.zx", false)).toBe("include")
  })
})

describe("ripgrep pipeline", () => {
  const request: SearchRequest = { pattern: "it's", target: "content", root: "-odd dir", outputMode: "content", context: 0, fetch: 3 }

  it("quotes every argument and keeps a dash-led root from being an option", () => {
    const script = ripgrepScript(request)
    expect(script).toContain("-e 'it'\\''s' -- './-odd dir' 2>&1 | head -n 3")
  })

  it("reads NUL-separated matches and context lines, and reports errors", () => {
    const out = "./a:b.txt\u00002:it's here\n--\n./c.txt\u000010-context line\n\n__HERMES_RG_STATUS__ 0\n"
    expect(parseRipgrepOutput(request, out)).toEqual({
      _tag: "Matches",
      matches: [{ path: "./a:b.txt", line: 2, content: "it's here" }, { path: "./c.txt", line: 10, content: "context line" }]
    })
    expect(parseRipgrepOutput(request, "regex parse error:\n    a(\n\n__HERMES_RG_STATUS__ 2\n")).toEqual({
      _tag: "Failed",
      error: "Search failed: regex parse error:\n    a("
    })
    expect(parseRipgrepOutput(request, "__HERMES_NO_RG__\n")).toEqual({ _tag: "Unavailable" })
  })
})

describe("paging and diffs", () => {
  it("the line pager gives the same page for any chunking", () => {
    const text = Buffer.from("alpha\nbeta\n\ngamma é\ndelta")
    const whole = new LinePager(2, 4)
    whole.push(text)
    const bytewise = new LinePager(2, 4)
    for (let i = 0; i < text.length; i++) bytewise.push(text.subarray(i, i + 1))
    expect(bytewise.finish()).toEqual(whole.finish())
    const page = new LinePager(2, 4)
    page.push(text)
    expect(page.finish()).toEqual({ lines: ["beta", "", "gamma é"], totalLines: 5 })
  })

  it("the character budget keeps whole lines, or cuts a single oversized first line", () => {
    expect(truncateToCharBudget(["1|aaaa", "2|bbbb", "3|cccc"], 13)).toEqual({ kept: ["1|aaaa", "2|bbbb"], cut: true })
    expect(truncateToCharBudget(["1|" + "x".repeat(50)], 10)).toEqual({ kept: ["1|xxxxxxxx"], cut: true })
    expect(truncateToCharBudget(["1|a"], 10)).toEqual({ kept: ["1|a"], cut: false })
  })

  it("unified diffs: hunks with context, additions, deletions, a missing final newline", () => {
    const before = Array.from({ length: 20 }, (_, i) => `l${i + 1}`).join("\n") + "\n"
    const after = before.replace("l2\n", "L2\n").replace("l19\n", "")
    expect(unifiedDiff(before, after, "f")).toBe(
      "--- a/f\n+++ b/f\n@@ -1,5 +1,5 @@\n l1\n-l2\n+L2\n l3\n l4\n l5\n@@ -16,5 +16,4 @@\n l16\n l17\n l18\n-l19\n l20\n"
    )
    expect(unifiedDiff("a\n", "a\nb", "g")).toBe("--- a/g\n+++ b/g\n@@ -1 +1,2 @@\n a\n+b\n\\ No newline at end of file\n")
    expect(unifiedDiff("x\n", undefined, "h")).toBe("--- a/h\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n")
    expect(unifiedDiff("same\n", "same\n", "s")).toBe("")
  })

  it("the syntax gate and the read_file-echo detector", () => {
    expect(syntaxProblem("a.json", "{\"a\": 1}")).toBeUndefined()
    expect(syntaxProblem("a.json", "{a: 1}")?.kind).toBe("JSON")
    expect(syntaxProblem("a.yml", "a: b: c")?.kind).toBe("YAML")
    expect(syntaxProblem("a.toml", "x = \"unterminated")?.kind).toBe("TOML")
    expect(syntaxProblem("a.txt", "{{{")).toBeUndefined()
    expect(looksLikeReadFileOutput("10|a\n11|b\n12|c")).toBe(true)
    expect(looksLikeReadFileOutput("1|a\nplain\n3|b\nplain")).toBe(false)
  })
})

describe("secret masking for file content", () => {
  it("file content and terminal output mask the same shapes (one policy)", () => {
    const samples = [
      "key sk-ant-abcdefghijklmnopqrstuvwxyz0123",
      "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
      "github_pat_abcdefghijklmnopqrstuvwxyz0123456789",
      "xoxb-1234567890-abcdef",
      "AKIAABCDEFGHIJKLMNOP",
      "AIza" + "a".repeat(35),
      "hf_abcdefghijklmnopqrstuvwxyz0123456",
      "glpat-abcdefghijklmnopqrstu",
      "npm_" + "a".repeat(36),
      "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abcdefghijklmnop",
      "AUTHORIZATION: Bearer abc.def",
      "postgres://user:hunter2@db/x",
      "-----BEGIN OPENSSH PRIVATE KEY-----\nabc\n-----END OPENSSH PRIVATE KEY-----"
    ]
    for (const sample of samples) {
      expect(redactToolOutput(sample)).not.toBe(sample)
      expect(redactFileText(sample)).not.toBe(sample)
    }
    expect(redactFileText("plain code without secrets")).toBe("plain code without secrets")
  })
})
