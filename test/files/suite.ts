/**
 * One behaviour suite for the file tools on every terminal backend: each
 * backend's test file calls `fileToolsSuite` with its layer. Everything goes
 * through the registry (Hermes' JSON, as the model sees it); fixtures are
 * made in the task's working directory, which every backend here shares with
 * the host at the same path.
 */
import { spawnSync } from "node:child_process"
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { expect, layer as withLayer } from "@effect/vitest"
import { Effect, Fiber, Layer } from "effect"
import { ConfigTest } from "../../src/layers/ConfigTest.js"
import { layer as hermesRuntime } from "../../src/layers/HermesRuntime.js"
import { Config } from "../../src/services/Config.js"
import { Environments } from "../../src/services/Environments.js"
import type { TerminalBackend } from "../../src/services/TerminalBackend.js"
import { ToolExecutor } from "../../src/services/ToolExecutor.js"
import { tempHome } from "../support/runtime.js"

export interface FileSuiteOptions {
  readonly backend: Layer.Layer<TerminalBackend, never, Config>
  readonly kind: string
  /** Extra `terminal:` config (e.g. where the ssh server is). Its files must be this machine's, at the same paths. */
  readonly terminal?: Record<string, unknown>
}

export const hasRipgrep = spawnSync("rg", ["--version"]).status === 0
const hasPython = spawnSync("python3", ["-c", "pass"]).status === 0

type Json = Record<string, unknown>

/** The JSON part of a result (search results may carry a hint after it). */
export const parse = (s: string): Json => JSON.parse(s.split("\n\n[Hint:")[0] as string) as Json

export const fileToolsSuite = (options: FileSuiteOptions) => {
  const root = tempHome(`hermes-files-${options.kind}-`)
  // Outside the runtime's home: commands and writes there need approval.
  const localCwd = tempHome(`hermes-files-${options.kind}-cwd-`)
  const runtime = hermesRuntime({
    plugins: false,
    terminalBackend: options.backend,
    config: ConfigTest({ terminal: { cwd: localCwd, ...options.terminal } }, { root, workspaceDir: join(root, "workspace"), pluginsDir: join(root, "plugins") })
  })

  let tasks = 0
  const task = () => `${options.kind}-f${++tasks}`

  const raw = (tool: string, args: Json, taskId: string) =>
    Effect.flatMap(ToolExecutor, (r) => r.dispatch({ tool, args }, { context: { taskId } }))
  const call = (tool: string, args: Json, taskId: string) => Effect.map(raw(tool, args, taskId), parse)
  /** A fresh task in a directory of its own (host path = the environment's path). */
  const fresh = Effect.gen(function*() {
    const t = task()
    const env = yield* Effect.flatMap(Environments, (e) => e.get(t))
    const dir = join(yield* env.cwd, t)
    mkdirSync(dir)
    const cd = yield* call("terminal", { command: `cd '${dir}'` }, t)
    expect(cd["exit_code"]).toBe(0)
    return { t, dir, env }
  })
  const setConfig = (path: ReadonlyArray<string>, value: unknown) => Effect.flatMap(Config, (c) => c.set(path, value))
  const clearConfig = (path: ReadonlyArray<string>) => Effect.flatMap(Config, (c) => c.remove(path))

  withLayer(runtime, { excludeTestServices: true, timeout: "120 seconds" })(`file tools: ${options.kind}`, (it) => {
    // ------------------------------------------------------------------ environment file operations
    it.effect("environment: readDir, realPath, readLink, ranged reads, rename and remove", () =>
      Effect.gen(function*() {
        const { dir, env } = yield* fresh
        mkdirSync(join(dir, "real/inner"), { recursive: true })
        writeFileSync(join(dir, "real/inner/f.txt"), "0123456789")
        symlinkSync("real", join(dir, "link"))
        symlinkSync(join(dir, "link/inner/f.txt"), join(dir, "abs-link"))
        const entries = [...(yield* env.readDir(dir))].sort((a, b) => a.name.localeCompare(b.name))
        expect(entries).toEqual([{ name: "abs-link", type: "symlink" }, { name: "link", type: "symlink" }, { name: "real", type: "directory" }])
        expect(yield* env.realPath(join(dir, "link/inner/f.txt"))).toBe(join(dir, "real/inner/f.txt"))
        expect(yield* env.realPath("abs-link")).toBe(join(dir, "real/inner/f.txt"))
        expect(yield* env.realPath("link/inner/../missing/x")).toBe(join(dir, "real/missing/x"))
        // Looked up together (one script on a remote target), each resolves as it does alone, in order.
        const together = ["link/inner/f.txt", "abs-link", "link/inner/../missing/x", "real", "a b/\nodd", "link/inner/f.txt"]
        expect(yield* Effect.forEach(together, env.realPath, { batching: true })).toEqual(
          yield* Effect.forEach(together, env.realPath)
        )
        expect(yield* Effect.forEach(together, env.realPath, { batching: true })).toEqual([
          join(dir, "real/inner/f.txt"),
          join(dir, "real/inner/f.txt"),
          join(dir, "real/missing/x"),
          join(dir, "real"),
          join(dir, "a b/\nodd"),
          join(dir, "real/inner/f.txt")
        ])
        expect(yield* env.readLink("link")).toBe("real")
        expect(yield* env.readLink("real")).toBeUndefined()
        expect(Buffer.from(yield* env.readFile("link/inner/f.txt", { offset: 3, length: 4 })).toString()).toBe("3456")
        expect(Buffer.from(yield* env.readFile("link/inner/f.txt", { offset: 8 })).toString()).toBe("89")
        yield* env.rename("real/inner/f.txt", "moved/g.txt")
        expect(readFileSync(join(dir, "moved/g.txt"), "utf8")).toBe("0123456789")
        yield* env.remove("moved/g.txt")
        expect(existsSync(join(dir, "moved/g.txt"))).toBe(false)
        expect((yield* Effect.flip(env.remove("moved"))).reason).toBe("IsDirectory")
        expect((yield* Effect.flip(env.readDir("nope"))).reason).toBe("NotFound")
      }))

    it.effect("environment: an atomic write keeps the file's mode and writes through a symlink", () =>
      Effect.gen(function*() {
        const { dir, env } = yield* fresh
        writeFileSync(join(dir, "script.sh"), "#!/bin/sh\necho old\n", { mode: 0o755 })
        symlinkSync("script.sh", join(dir, "alias.sh"))
        yield* env.writeFile("alias.sh", "#!/bin/sh\necho new\n", { atomic: true })
        expect(readFileSync(join(dir, "script.sh"), "utf8")).toBe("#!/bin/sh\necho new\n")
        expect(statSync(join(dir, "script.sh")).mode & 0o777).toBe(0o755)
        expect(lstatSync(join(dir, "alias.sh")).isSymbolicLink()).toBe(true)
        expect(readdirSync(dir).filter((n) => n.includes(".hermes-"))).toEqual([])
      }))

    // ------------------------------------------------------------------ read_file
    it.effect("read_file: pages with N|line, next_offset and a hint; clamps offset and limit", () =>
      Effect.gen(function*() {
        const { t, dir } = yield* fresh
        writeFileSync(join(dir, "lines.txt"), Array.from({ length: 2500 }, (_, i) => `line ${i + 1}`).join("\n") + "\n")
        const first = yield* call("read_file", { path: "lines.txt" }, t)
        expect(first).toMatchObject({ total_lines: 2500, truncated: true, next_offset: 501, hint: "Use offset=501 to continue reading (showing 1-500 of 2500 lines)" })
        expect(String(first["content"]).split("\n")).toHaveLength(500)
        expect(String(first["content"]).startsWith("1|line 1\n2|line 2\n")).toBe(true)
        const page = yield* call("read_file", { path: "lines.txt", offset: 2499, limit: 10 }, t)
        expect(page).toMatchObject({ content: "2499|line 2499\n2500|line 2500", truncated: false })
        const clamped = yield* call("read_file", { path: join(dir, "lines.txt"), offset: 0, limit: 99999 }, t)
        expect(String(clamped["content"]).split("\n")).toHaveLength(2000)
        expect(clamped["next_offset"]).toBe(2001)
        const beyond = yield* call("read_file", { path: "lines.txt", offset: 3000 }, t)
        expect(beyond).toMatchObject({ content: "", total_lines: 2500 })
        expect(String(beyond["hint"])).toContain("beyond the end of the file (2500 lines total)")
      }))

    it.effect("read_file: BOM stripped, long lines cut, empty and unterminated files", () =>
      Effect.gen(function*() {
        const { t, dir } = yield* fresh
        writeFileSync(join(dir, "bom.txt"), "\ufeffhello\nworld")
        expect(yield* call("read_file", { path: "bom.txt" }, t)).toEqual({
          content: "1|hello\n2|world",
          total_lines: 2,
          file_size: 14,
          truncated: false,
          is_binary: false,
          is_image: false
        })
        writeFileSync(join(dir, "long.txt"), `${"x".repeat(5000)}\nshort\n`)
        const long = yield* call("read_file", { path: "long.txt" }, t)
        expect(long["content"]).toBe(`1|${"x".repeat(2000)}... [truncated]\n2|short`)
        writeFileSync(join(dir, "empty.txt"), "")
        expect(yield* call("read_file", { path: "empty.txt" }, t)).toMatchObject({ content: "", total_lines: 0, hint: "File is empty (0 bytes).", is_binary: false })
      }))

    it.effect("read_file: the character budget ends on a whole line and the next offset continues", () =>
      Effect.gen(function*() {
        const { t, dir } = yield* fresh
        const lines = Array.from({ length: 1500 }, (_, i) => `${String(i + 1).padStart(5, "0")}${"y".repeat(95)}`)
        writeFileSync(join(dir, "wide.txt"), lines.join("\n") + "\n")
        const first = yield* call("read_file", { path: "wide.txt", limit: 2000 }, t)
        expect(first).toMatchObject({ truncated: true, truncated_by: "bytes", total_lines: 1500 })
        const content = String(first["content"])
        expect(content.length).toBeLessThanOrEqual(100_000)
        const shown = content.split("\n")
        const next = first["next_offset"] as number
        expect(next).toBe(shown.length + 1)
        expect(shown[shown.length - 1]).toBe(`${next - 1}|${lines[next - 2]}`)
        const rest = yield* call("read_file", { path: "wide.txt", offset: next, limit: 2000 }, t)
        expect(String(rest["content"]).split("\n")[0]).toBe(`${next}|${lines[next - 1]}`)
        expect(rest["truncated"]).toBe(false)
      }))

    it.effect("read_file: binary files and images are refused with a hint", () =>
      Effect.gen(function*() {
        const { t, dir } = yield* fresh
        writeFileSync(join(dir, "pic.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]))
        expect(String((yield* call("read_file", { path: "pic.png" }, t))["error"])).toBe(
          "Cannot read binary file 'pic.png' (.png). Use vision_analyze for images, or terminal to inspect binary files."
        )
        writeFileSync(join(dir, "blob.dat"), Buffer.concat([Buffer.from("\x7fELF"), Buffer.alloc(64)]))
        expect(yield* call("read_file", { path: "blob.dat" }, t)).toEqual({
          content: "",
          total_lines: 0,
          file_size: 68,
          truncated: false,
          is_binary: true,
          is_image: false,
          error: "Binary file (ELF executable, 68 bytes) — cannot display as text."
        })
      }))

    it.effect("read_file: device files are refused, also through symlinks; FIFOs are not read", () =>
      Effect.gen(function*() {
        const { t, dir } = yield* fresh
        for (const device of ["/dev/zero", "/dev/stdin", "/dev/../dev/urandom", "/proc/self/environ", "/proc/1/cmdline"]) {
          expect(String((yield* call("read_file", { path: device }, t))["error"])).toBe(
            `Cannot read '${device}': this is a device file that would block or produce infinite output.`
          )
        }
        symlinkSync("/dev/zero", join(dir, "zero-link"))
        symlinkSync("zero-link", join(dir, "hop-link"))
        symlinkSync("/dev/../dev/stdin", join(dir, "stdin-link"))
        for (const link of ["zero-link", "hop-link", "stdin-link"]) {
          expect(String((yield* call("read_file", { path: link }, t))["error"])).toContain("device file")
        }
        expect(spawnSync("mkfifo", [join(dir, "pipe")]).status).toBe(0)
        expect(String((yield* call("read_file", { path: "pipe" }, t))["error"])).toContain("not a regular file")
        expect(String((yield* call("read_file", { path: "." }, t))["error"])).toContain("not a regular file")
      }))

    it.effect("read_file: secret-bearing files are refused, examples are not; missing files get suggestions", () =>
      Effect.gen(function*() {
        const { t, dir } = yield* fresh
        writeFileSync(join(dir, ".env"), "API_KEY=secret\n")
        writeFileSync(join(dir, ".env.production"), "X=1\n")
        writeFileSync(join(dir, ".env.example"), "API_KEY=\n")
        expect(String((yield* call("read_file", { path: ".env" }, t))["error"])).toMatch(/^Access denied: .*\/\.env is a secret-bearing environment file/)
        expect(String((yield* call("read_file", { path: ".env.production" }, t))["error"])).toContain("secret-bearing")
        expect(yield* call("read_file", { path: ".env.example" }, t)).toMatchObject({ content: "1|API_KEY=" })
        writeFileSync(join(root, "auth.json"), "{\"token\": \"t\"}\n")
        expect(String((yield* call("read_file", { path: join(root, "auth.json") }, t))["error"])).toContain("is a Hermes credential store")
        writeFileSync(join(dir, "config.yaml"), "a: 1\n")
        // Hermes' not-found payload: its empty read result, the error, and suggestions spelled like the path asked for.
        const missing = yield* call("read_file", { path: "config.yml" }, t)
        expect(missing).toEqual({
          content: "",
          total_lines: 0,
          file_size: 0,
          truncated: false,
          is_binary: false,
          is_image: false,
          error: "File not found: config.yml",
          similar_files: ["./config.yaml"]
        })
        mkdirSync(join(dir, "conf"))
        writeFileSync(join(dir, "conf", "app.yaml"), "a: 1\n")
        expect((yield* call("read_file", { path: "conf/app.yml" }, t))["similar_files"]).toEqual(["conf/app.yaml"])
        expect((yield* call("read_file", { path: join(dir, "conf", "app.yml") }, t))["similar_files"]).toEqual([join(dir, "conf", "app.yaml")])
      }))

    it.effect("read_file: a notebook reads as its cells' text, paged; a broken one as the JSON it is", () =>
      Effect.gen(function*() {
        const { t, dir } = yield* fresh
        const notebook = {
          cells: [
            { cell_type: "markdown", source: ["# Title\n", "Some text\n"] },
            { cell_type: "code", source: "import os\nprint(os.getcwd())\n", outputs: [{ text: "not shown" }] },
            { cell_type: "raw", source: "raw bit" },
            { cell_type: "code", source: [] }
          ],
          nbformat: 4
        }
        writeFileSync(join(dir, "nb.ipynb"), JSON.stringify(notebook))
        const read = yield* call("read_file", { path: "nb.ipynb" }, t)
        expect(read).toMatchObject({ total_lines: 12, truncated: false, extracted_document: true })
        expect(String(read["content"]).split("\n")).toEqual([
          "1|# ── Markdown cell 1 ──",
          "2|# Title",
          "3|Some text",
          "4|",
          "5|# ── Code cell 1 ──",
          "6|import os",
          "7|print(os.getcwd())",
          "8|",
          "9|# ── Raw cell ──",
          "10|raw bit",
          "11|",
          "12|# ── Code cell 2 ──"
        ])
        const page = yield* call("read_file", { path: "nb.ipynb", offset: 5, limit: 3 }, t)
        expect(page).toMatchObject({ content: "5|# ── Code cell 1 ──\n6|import os\n7|print(os.getcwd())", truncated: true })
        expect(page["hint"]).toBe("Use offset=8 to continue reading (showing 5-7 of 12 lines)")
        writeFileSync(join(dir, "broken.ipynb"), "{\"cells\": [")
        expect(yield* call("read_file", { path: "broken.ipynb" }, t)).toMatchObject({ content: "1|{\"cells\": [", is_binary: false })
      }))

    it.effect("read_file: an unchanged region gets the stub, then a block; a change or a write reads again", () =>
      Effect.gen(function*() {
        const { t, dir } = yield* fresh
        writeFileSync(join(dir, "same.txt"), "a\nb\n")
        expect((yield* call("read_file", { path: "same.txt" }, t))["content"]).toBe("1|a\n2|b")
        expect(yield* call("read_file", { path: "same.txt" }, t)).toMatchObject({ status: "unchanged", dedup: true, content_returned: false })
        const blocked = yield* call("read_file", { path: "same.txt" }, t)
        expect(blocked).toMatchObject({ already_read: 3 })
        expect(String(blocked["error"])).toMatch(/^BLOCKED: You have called read_file on this exact region 3 times/)
        yield* call("write_file", { path: "same.txt", content: "c\n" }, t)
        expect((yield* call("read_file", { path: "same.txt" }, t))["content"]).toBe("1|c")
        // Another task has its own memory (a file both tasks see).
        const other = (yield* fresh).t
        expect((yield* call("read_file", { path: "/etc/passwd", limit: 1 }, t))["content"]).toMatch(/^1\|root:/)
        expect((yield* call("read_file", { path: "/etc/passwd", limit: 1 }, t))["status"]).toBe("unchanged")
        expect((yield* call("read_file", { path: "/etc/passwd", limit: 1 }, other))["content"]).toMatch(/^1\|root:/)
      }))

    it.effect("read_file: the same region read over and over warns at 3 and blocks at 4", () =>
      Effect.gen(function*() {
        const { t, dir } = yield* fresh
        const file = join(dir, "moving.txt")
        const read = (n: number) =>
          Effect.gen(function*() {
            writeFileSync(file, `v${n}\n`)
            utimesSync(file, 1_000_000 + n, 1_000_000 + n)
            return yield* call("read_file", { path: "moving.txt" }, t)
          })
        expect((yield* read(1))["_warning"]).toBeUndefined()
        expect((yield* read(2))["_warning"]).toBeUndefined()
        expect(String((yield* read(3))["_warning"])).toContain("read this exact file region 3 times consecutively")
        expect(String((yield* read(4))["error"])).toMatch(/^BLOCKED: You have read this exact file region 4 times in a row/)
      }))

    // ------------------------------------------------------------------ write_file
    it.effect("write_file: creates parents, keeps an existing file's BOM and CRLF, reports the resolved path", () =>
      Effect.gen(function*() {
        const { t, dir } = yield* fresh
        const created = yield* call("write_file", { path: "deep/er/new.txt", content: "hello\n" }, t)
        expect(created).toEqual({
          bytes_written: 6,
          dirs_created: true,
          lint: { status: "skipped", message: "No linter for .txt files" },
          resolved_path: join(dir, "deep/er/new.txt"),
          files_modified: [join(dir, "deep/er/new.txt")]
        })
        expect(readFileSync(join(dir, "deep/er/new.txt"), "utf8")).toBe("hello\n")
        writeFileSync(join(dir, "win.txt"), "\ufeffold\r\nlines\r\n")
        yield* call("write_file", { path: "win.txt", content: "new\nlines\n" }, t)
        expect(readFileSync(join(dir, "win.txt"), "utf8")).toBe("\ufeffnew\r\nlines\r\n")
      }))

    it.effect("write_file: content of any size goes as data, not through a command line", () =>
      Effect.gen(function*() {
        const { t, dir } = yield* fresh
        const big = "z".repeat(3 * 1024 * 1024) + "\n'\"$(rm -rf /)`x`\n"
        const out = yield* call("write_file", { path: "big.txt", content: big }, t)
        expect(out["bytes_written"]).toBe(Buffer.byteLength(big))
        expect(readFileSync(join(dir, "big.txt"), "utf8")).toBe(big)
      }), 120_000)

    it.effect("write_file: atomic under a concurrent reader (old or new content, never a mix)", () =>
      Effect.gen(function*() {
        const { t, dir } = yield* fresh
        const file = join(dir, "atomic.txt")
        const a = "A".repeat(2 * 1024 * 1024)
        const b = "B".repeat(3 * 1024 * 1024)
        writeFileSync(file, a)
        let reads = 0
        let torn = 0
        let stop = false
        const reader = yield* Effect.fork(Effect.gen(function*() {
          while (!stop) {
            const seen = readFileSync(file, "utf8")
            reads++
            if (seen !== a && seen !== b) torn++
            yield* Effect.sleep("1 millis")
          }
        }))
        for (let i = 0; i < 12; i++) {
          const out = yield* call("write_file", { path: "atomic.txt", content: i % 2 === 0 ? b : a }, t)
          expect(out["error"]).toBeUndefined()
        }
        stop = true
        yield* Fiber.join(reader)
        expect(reads).toBeGreaterThan(0)
        expect(torn).toBe(0)
      }), 120_000)

    it.effect("write_file: .json/.yaml/.toml must parse or nothing is written", () =>
      Effect.gen(function*() {
        const { t, dir } = yield* fresh
        writeFileSync(join(dir, "c.json"), "{\"ok\": true}\n")
        for (const [name, bad, good] of [
          ["c.json", "{\"ok\": tru", "{\"ok\": false}\n"],
          ["c.yaml", "a: [1, 2\nb: }", "a: [1, 2]\n---\nb: 2\n"],
          ["c.toml", "[table\nx = ", "[table]\nx = 1\n"]
        ] as const) {
          const before = existsSync(join(dir, name)) ? readFileSync(join(dir, name), "utf8") : undefined
          const refused = yield* call("write_file", { path: name, content: bad }, t)
          expect(String(refused["error"])).toMatch(new RegExp(`^Refusing to write '${name}': the content is not valid (JSON|YAML|TOML)`))
          expect(existsSync(join(dir, name)) ? readFileSync(join(dir, name), "utf8") : undefined).toBe(before)
          expect((yield* call("write_file", { path: name, content: good }, t))["error"]).toBeUndefined()
          expect(readFileSync(join(dir, name), "utf8")).toBe(good)
        }
        // JSON with comments where that is the convention.
        expect((yield* call("write_file", { path: "tsconfig.json", content: "{\n  // strict\n  \"strict\": true,\n}\n" }, t))["error"]).toBeUndefined()
      }))

    it.effect("write_file: protected system, credential and config paths are refused", () =>
      Effect.gen(function*() {
        const { t, env } = yield* fresh
        const home = yield* env.resolvePath("~")
        const refuse = (path: string) => Effect.map(call("write_file", { path, content: "x" }, t), (r) => String(r["error"]))
        expect(yield* refuse("/etc/hermes-test.conf")).toBe(
          "Refusing to write to sensitive system path: /etc/hermes-test.conf\nUse the terminal tool with sudo if you need to modify system files."
        )
        expect(yield* refuse(join(root, "config.yaml"))).toMatch(/^Refusing to write to Hermes config file/)
        expect(yield* refuse("~/.ssh/authorized_keys")).toBe(`Write denied: '${join(home, ".ssh/authorized_keys")}' is a protected system/credential file.`)
        expect(yield* refuse("~/.aws/credentials")).toContain("protected system/credential file")
        expect(yield* refuse(join(root, "state.db"))).toContain("protected system/credential file")
        expect(yield* refuse(join(root, "logs", "approvals.jsonl"))).toContain("protected system/credential file")
      }))

    it.effect("write_file: refuses read_file display text; files.write_roots confines writes", () =>
      Effect.gen(function*() {
        const { t, dir } = yield* fresh
        const echo = yield* call("write_file", { path: "echo.py", content: "1|import os\n2|print(os)\n3|\n" }, t)
        expect(String(echo["error"])).toMatch(/^Refusing to write internal read_file display text/)
        expect((yield* call("write_file", { path: "pipe.txt", content: "1|value\n" }, t))["error"]).toBeUndefined()
        mkdirSync(join(dir, "allowed"))
        yield* setConfig(["files", "write_roots"], [join(dir, "allowed")])
        const outside = yield* call("write_file", { path: "nope.txt", content: "x" }, t)
        const inside = yield* call("write_file", { path: "allowed/yes.txt", content: "x" }, t)
        yield* clearConfig(["files"])
        expect(String(outside["error"])).toContain("is outside files.write_roots")
        expect(inside["error"]).toBeUndefined()
      }))

    it.effect("write_file: warns when the file changed on disk since this task read it", () =>
      Effect.gen(function*() {
        const { t, dir } = yield* fresh
        const file = join(dir, "stale.txt")
        writeFileSync(file, "one\n")
        utimesSync(file, 1_000_000, 1_000_000)
        yield* call("read_file", { path: "stale.txt" }, t)
        writeFileSync(file, "changed\n")
        utimesSync(file, 2_000_000, 2_000_000)
        const out = yield* call("write_file", { path: "stale.txt", content: "two\n" }, t)
        expect(String(out["_warning"])).toContain("was modified since you last read it")
        const again = yield* call("write_file", { path: "stale.txt", content: "three\n" }, t)
        expect(again["_warning"]).toBeUndefined()
      }))

    // ------------------------------------------------------------------ patch (replace)
    it.effect("patch replace: exact and tolerant matches, re-indented, with a diff", () =>
      Effect.gen(function*() {
        const { t, dir } = yield* fresh
        writeFileSync(join(dir, "code.py"), "def f():\n    x = 1\n    return x\n")
        const exact = yield* call("patch", { path: "code.py", old_string: "x = 1", new_string: "x = 2" }, t)
        expect(exact).toMatchObject({ success: true, files_modified: [join(dir, "code.py")], resolved_path: join(dir, "code.py") })
        // Hermes names the file in the diff by the absolute path it edited.
        const file = join(dir, "code.py")
        expect(exact["diff"]).toBe(`--- a/${file}\n+++ b/${file}\n@@ -1,3 +1,3 @@\n def f():\n-    x = 1\n+    x = 2\n     return x\n`)
        // The model quotes with two-space indentation; the file has four.
        const fuzzy = yield* call("patch", { path: "code.py", old_string: "  x = 2\n  return x", new_string: "  y = 2\n  return y" }, t)
        expect(fuzzy["success"]).toBe(true)
        expect(readFileSync(join(dir, "code.py"), "utf8")).toBe("def f():\n    y = 2\n    return y\n")
      }))

    it.effect("patch replace: ambiguity, replace_all, did-you-mean and escalating hints", () =>
      Effect.gen(function*() {
        const { t, dir } = yield* fresh
        writeFileSync(join(dir, "dup.txt"), "alpha\nbeta\nalpha\n")
        const ambiguous = yield* call("patch", { path: "dup.txt", old_string: "alpha", new_string: "gamma" }, t)
        expect(ambiguous["success"]).toBe(false)
        expect(String(ambiguous["error"])).toBe("Found 2 matches for old_string. Provide more context to make it unique, or use replace_all=True. Matches:\n  L1: alpha\n  L3: alpha")
        expect(yield* call("patch", { path: "dup.txt", old_string: "alpha", new_string: "gamma", replace_all: true }, t)).toMatchObject({ success: true })
        expect(readFileSync(join(dir, "dup.txt"), "utf8")).toBe("gamma\nbeta\ngamma\n")
        const missing = yield* call("patch", { path: "dup.txt", old_string: "beta  extra", new_string: "x" }, t)
        expect(String(missing["error"])).toContain("Could not find a match for old_string in the file\n\nDid you mean one of these sections?")
        expect(String(missing["error"])).toContain("   2| beta")
        yield* call("patch", { path: "dup.txt", old_string: "zzz1", new_string: "x" }, t)
        const third = yield* call("patch", { path: "dup.txt", old_string: "zzz2", new_string: "x" }, t)
        expect(String(third["_hint"])).toMatch(/^This is failure #3 patching 'dup.txt'/)
        const again = yield* call("patch", { path: "dup.txt", old_string: "no such text here", new_string: "gamma\nbeta\ngamma" }, t)
        expect(again).toMatchObject({ success: true, no_change: true, files_modified: [join(dir, "dup.txt")] })
        expect(String(again["note"])).toMatch(/^File already contains the target text — the edit appears to be already applied to .*dup\.txt\. No write performed/)
        expect(yield* call("patch", { path: "nope.txt", old_string: "a", new_string: "b" }, t)).toEqual({
          success: false,
          error: `Failed to read file: ${join(dir, "nope.txt")}`
        })
      }))

    it.effect("write_file and patch: a lint of every result, reporting only the errors an edit introduced", () =>
      Effect.gen(function*() {
        const { t, dir } = yield* fresh
        expect((yield* call("write_file", { path: "ok.json", content: "{\"a\": 1}\n" }, t))["lint"]).toEqual({ status: "ok", output: "" })
        expect((yield* call("write_file", { path: "conf.yaml", content: "a: [1, 2]\n" }, t))["lint"]).toEqual({ status: "ok", output: "" })
        expect((yield* call("write_file", { path: "tsconfig.json", content: "{\n  // comments are fine here\n  \"a\": 1,\n}\n" }, t))["lint"]).toEqual({
          status: "ok",
          output: ""
        })
        expect((yield* call("write_file", { path: "noext", content: "x" }, t))["lint"]).toEqual({ status: "skipped", message: "No linter for  files" })
        if (hasPython) {
          expect((yield* call("write_file", { path: "good.py", content: "x = 1\n" }, t))["lint"]).toEqual({ status: "ok", output: "" })
          const broken = yield* call("write_file", { path: "bad.py", content: "def f(:\n    pass\n" }, t)
          expect(broken).toMatchObject({ bytes_written: 17, lint: { status: "error" } })
          expect(String((broken["lint"] as Json)["output"])).toMatch(/^SyntaxError: .* \(line 1, column \d+\)$/)
          // An edit elsewhere in a file that was already broken introduces nothing new.
          writeFileSync(join(dir, "old.py"), "def f(:\n    pass\ny = 1\n")
          const elsewhere = yield* call("patch", { path: "old.py", old_string: "y = 1", new_string: "y = 2" }, t)
          expect(elsewhere["lint"]).toMatchObject({ status: "error", message: "Pre-existing lint errors — this edit didn't introduce new ones but the file is still broken." })
          // Breaking a clean file reports the new error.
          const breaking = yield* call("patch", { path: "good.py", old_string: "x = 1", new_string: "x = (1" }, t)
          expect(breaking["lint"]).toMatchObject({ status: "error" })
          expect(String((breaking["lint"] as Json)["output"])).toMatch(/^'\(' was never closed|SyntaxError/)
          const v4a = yield* call("patch", { mode: "patch", patch: "*** Begin Patch\n*** Add File: made.py\n+z = 3\n*** Add File: made.txt\n+z\n*** End Patch" }, t)
          expect(v4a["lint"]).toEqual({ "made.py": { status: "ok", output: "" }, "made.txt": { status: "skipped", message: "No linter for .txt files" } })
        }
        if (options.kind === "local") {
          expect((yield* call("write_file", { path: "good.js", content: "const a = 1\n" }, t))["lint"]).toEqual({ status: "ok", output: "" })
          const js = yield* call("write_file", { path: "bad.js", content: "const = 1\n" }, t)
          expect(js["lint"]).toMatchObject({ status: "error" })
          expect(String((js["lint"] as Json)["output"])).toContain("SyntaxError")
        }
      }), 120_000)

    it.effect("patch replace: CRLF and BOM files keep their conventions", () =>
      Effect.gen(function*() {
        const { t, dir } = yield* fresh
        writeFileSync(join(dir, "w.txt"), "\ufeffa\r\nb\r\nc\r\n")
        expect((yield* call("patch", { path: "w.txt", old_string: "a\nb", new_string: "a\nB\nb2" }, t))["success"]).toBe(true)
        expect(readFileSync(join(dir, "w.txt"), "utf8")).toBe("\ufeffa\r\nB\r\nb2\r\nc\r\n")
      }))

    // ------------------------------------------------------------------ patch (V4A)
    it.effect("patch V4A: add, update, delete and move in one patch", () =>
      Effect.gen(function*() {
        const { t, dir } = yield* fresh
        writeFileSync(join(dir, "keep.txt"), "one\ntwo\nthree\n")
        writeFileSync(join(dir, "gone.txt"), "bye\n")
        writeFileSync(join(dir, "old.txt"), "moving\n")
        const out = yield* call("patch", {
          mode: "patch",
          patch: [
            "*** Begin Patch",
            "*** Add File: added/new.txt",
            "+fresh",
            "+file",
            "*** Update File: keep.txt",
            "@@ one @@",
            " one",
            "-two",
            "+TWO",
            " three",
            "*** Delete File: gone.txt",
            "*** Move File: old.txt -> moved/old.txt",
            "*** End Patch"
          ].join("\n")
        }, t)
        expect(out).toMatchObject({
          success: true,
          files_created: [join(dir, "added/new.txt")],
          files_deleted: [join(dir, "gone.txt")]
        })
        expect(String(out["diff"])).toContain("-two\n+TWO\n")
        expect(readFileSync(join(dir, "added/new.txt"), "utf8")).toBe("fresh\nfile\n")
        expect(readFileSync(join(dir, "keep.txt"), "utf8")).toBe("one\nTWO\nthree\n")
        expect(existsSync(join(dir, "gone.txt"))).toBe(false)
        expect(existsSync(join(dir, "old.txt"))).toBe(false)
        expect(readFileSync(join(dir, "moved/old.txt"), "utf8")).toBe("moving\n")
      }))

    it.effect("patch V4A: all or nothing — one bad hunk, an existing Add target or bad JSON leaves every file as it was", () =>
      Effect.gen(function*() {
        const { t, dir } = yield* fresh
        writeFileSync(join(dir, "a.txt"), "a1\na2\n")
        writeFileSync(join(dir, "b.txt"), "b1\nb2\n")
        const snapshot = () => [readFileSync(join(dir, "a.txt"), "utf8"), readFileSync(join(dir, "b.txt"), "utf8"), existsSync(join(dir, "c.txt"))]
        const before = snapshot()
        const badHunk = yield* call("patch", {
          mode: "patch",
          patch: "*** Begin Patch\n*** Update File: a.txt\n-a1\n+A1\n*** Add File: c.txt\n+c\n*** Update File: b.txt\n-nothing like this\n+x\n*** End Patch"
        }, t)
        expect(String(badHunk["error"])).toMatch(/^Patch validation failed \(no files were modified\):\n {2}• b\.txt: hunk 1 \(no hint\) not found/)
        expect(snapshot()).toEqual(before)
        const exists = yield* call("patch", { mode: "patch", patch: "*** Begin Patch\n*** Update File: a.txt\n-a1\n+A1\n*** Add File: b.txt\n+b\n*** End Patch" }, t)
        expect(String(exists["error"])).toContain("b.txt: file already exists — use Update File, not Add File")
        const badJson = yield* call("patch", { mode: "patch", patch: "*** Begin Patch\n*** Update File: a.txt\n-a1\n+A1\n*** Add File: c.json\n+{oops\n*** End Patch" }, t)
        expect(String(badJson["error"])).toContain("is not valid JSON")
        expect(snapshot()).toEqual(before)
        expect(existsSync(join(dir, "c.json"))).toBe(false)
      }), 120_000)

    it.effect("patch V4A: '..' in headers and protected targets are refused before anything is read", () =>
      Effect.gen(function*() {
        const { t } = yield* fresh
        const climb = yield* call("patch", { mode: "patch", patch: "*** Begin Patch\n***Add File: ../../escape.txt\n+x\n*** End Patch" }, t)
        expect(String(climb["error"])).toMatch(/^V4A patch header contains '\.\.' traversal: '\.\.\/\.\.\/escape\.txt'/)
        const moveToEtc = yield* call("patch", { mode: "patch", patch: "*** Begin Patch\n*** Move File: x.txt -> /etc/cron.d/evil\n*** End Patch" }, t)
        expect(String(moveToEtc["error"])).toMatch(/^Refusing to write to sensitive system path: \/etc\/cron\.d\/evil/)
      }))

    // ------------------------------------------------------------------ search_files
    const searchTree = (dir: string) => {
      const files: Record<string, string> = {
        "src/app.ts": "import x from 'y'\nconst needle = 1\nexport default needle\n",
        "src/util/helpers.ts": "export const needle = () => 'needle'\n",
        "src/util/notes.md": "the needle in the haystack\nnothing\nNEEDLE upper\n",
        "docs/guide.md": "no match here\n",
        "build/out.js": "needle in build output\n",
        "logs/run.log": "needle log\n",
        ".hidden/secret.ts": "needle hidden\n",
        ".env": "NEEDLE_TOKEN=abc\n",
        "bin.dat": "needle\u0000binary\n"
      }
      mkdirSync(join(dir, ".git"), { recursive: true })
      writeFileSync(join(dir, ".gitignore"), "build/\n*.log\n")
      let n = 0
      for (const [rel, text] of Object.entries(files)) {
        mkdirSync(join(dir, rel, ".."), { recursive: true })
        writeFileSync(join(dir, rel), text)
        // Distinct whole-second mtimes, newest last in this list.
        utimesSync(join(dir, rel), 1_700_000_000 + n * 10, 1_700_000_000 + n * 10)
        n++
      }
    }

    const engines = hasRipgrep ? (["builtin", "rg"] as const) : (["builtin"] as const)
    for (const engine of engines) {
      it.effect(`search_files (${engine}): content with ignore rules, hidden and binary files skipped, secrets omitted`, () =>
        Effect.gen(function*() {
          const { t, dir } = yield* fresh
          searchTree(dir)
          yield* setConfig(["files", "search_engine"], engine)
          const content = yield* call("search_files", { pattern: "needle", output_mode: "content" }, t)
          const files = yield* call("search_files", { pattern: "*.ts", target: "files" }, t)
          const counts = yield* call("search_files", { pattern: "needle", output_mode: "count" }, t)
          const only = yield* call("search_files", { pattern: "needle", output_mode: "files_only", file_glob: "*.md" }, t)
          const context = yield* call("search_files", { pattern: "nothing", context: 1, path: "src" }, t)
          const env = yield* call("search_files", { pattern: "NEEDLE_TOKEN", path: ".env" }, t)
          yield* clearConfig(["files"])
          expect(content).toEqual({
            total_count: 4,
            matches: [
              { path: "./src/app.ts", line: 2, content: "const needle = 1" },
              { path: "./src/app.ts", line: 3, content: "export default needle" },
              { path: "./src/util/helpers.ts", line: 1, content: "export const needle = () => 'needle'" },
              { path: "./src/util/notes.md", line: 1, content: "the needle in the haystack" }
            ]
          })
          expect(files).toEqual({ total_count: 2, files: ["./src/util/helpers.ts", "./src/app.ts"] })
          expect(counts).toEqual({ total_count: 4, counts: { "./src/app.ts": 2, "./src/util/helpers.ts": 1, "./src/util/notes.md": 1 } })
          expect(only).toEqual({ total_count: 1, files: ["./src/util/notes.md"] })
          expect(context).toEqual({
            total_count: 3,
            matches: [
              { path: "src/util/notes.md", line: 1, content: "the needle in the haystack" },
              { path: "src/util/notes.md", line: 2, content: "nothing" },
              { path: "src/util/notes.md", line: 3, content: "NEEDLE upper" }
            ]
          })
          expect(String(env["error"])).toContain("secret-bearing environment file")
        }))

      it.effect(`search_files (${engine}): pagination, truncation hint, overrides and regex errors`, () =>
        Effect.gen(function*() {
          const { t, dir } = yield* fresh
          for (let i = 0; i < 12; i++) writeFileSync(join(dir, `f${String(i).padStart(2, "0")}.txt`), `hit ${i}\n`)
          writeFileSync(join(dir, ".env.local"), "hit secret\n")
          yield* setConfig(["files", "search_engine"], engine)
          const first = yield* raw("search_files", { pattern: "hit", limit: 5 }, t)
          const second = yield* call("search_files", { pattern: "hit", limit: 5, offset: 10 }, t)
          const hiddenByGlob = yield* call("search_files", { pattern: "hit", file_glob: ".env*" }, t)
          const bad = yield* call("search_files", { pattern: "a(" }, t)
          yield* clearConfig(["files"])
          expect(first.endsWith("\n\n[Hint: Results truncated. Use offset=5 to see more, or narrow with a more specific pattern or file_glob.]")).toBe(true)
          expect(parse(first)).toMatchObject({ total_count: 6, truncated: true, total_count_is_lower_bound: true })
          expect(second).toEqual({ total_count: 12, matches: [{ path: "./f10.txt", line: 1, content: "hit 10" }, { path: "./f11.txt", line: 1, content: "hit 11" }] })
          // A glob may select a hidden secret file; the result is still withheld.
          expect(hiddenByGlob).toMatchObject({ total_count: 1 })
          expect(String(hiddenByGlob["_omitted"])).toMatch(/^1 result\(s\) omitted/)
          expect(String(bad["error"])).toMatch(/^Search failed: regex parse error/)
        }))
    }

    it.effect("search_files: a missing path is an error with suggestions; the same search four times is blocked", () =>
      Effect.gen(function*() {
        const { t, dir } = yield* fresh
        mkdirSync(join(dir, "source"))
        writeFileSync(join(dir, "source", "x.txt"), "x\n")
        expect(String((yield* call("search_files", { pattern: "x", path: "sourc" }, t))["error"])).toBe(
          `Path not found: sourc. Similar paths: ${join(dir, "source")}`
        )
        for (let i = 1; i <= 3; i++) {
          const r = yield* call("search_files", { pattern: "x", path: "source" }, t)
          expect(r["_warning"] === undefined).toBe(i < 3)
        }
        expect(String((yield* call("search_files", { pattern: "x", path: "source" }, t))["error"])).toMatch(/^BLOCKED: You have run this exact search 4 times/)
      }))

    it.effect("search_files: without ripgrep in the environment the builtin engine answers the same", () =>
      Effect.gen(function*() {
        const withRg = yield* fresh
        searchTree(withRg.dir)
        const expected = yield* call("search_files", { pattern: "needle|upper", context: 1 }, withRg.t)
        const expectedFiles = yield* call("search_files", { pattern: "*.md", target: "files" }, withRg.t)
        const { t, dir } = yield* fresh
        searchTree(dir)
        // No rg on this task's PATH: the ripgrep pipeline reports it missing and the builtin engine takes over.
        yield* call("terminal", { command: "export PATH=/nonexistent" }, t)
        expect(yield* call("search_files", { pattern: "needle|upper", context: 1 }, t)).toEqual(expected)
        expect(yield* call("search_files", { pattern: "*.md", target: "files" }, t)).toEqual(expectedFiles)
        expect(expectedFiles["files"]).toEqual(["./docs/guide.md", "./src/util/notes.md"])
        expect(String(expected["matches_text"])).toContain("./src/util/notes.md\n  1: the needle in the haystack\n  2: nothing\n  3: NEEDLE upper")
      }))
  })
}
