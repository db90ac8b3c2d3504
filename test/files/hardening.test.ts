/**
 * The file tools against planted code, devices, FIFOs, private keys and
 * secret files (issue 13, items 5-7, 11, 12), through the registry as the
 * model calls them, with the real approval flow and nobody to approve
 * (the non-interactive approver): a write to a file other programs run is
 * refused and the file is untouched; devices stay devices; a FIFO never
 * blocks; key bodies and secret values never reach the model.
 */
import { spawnSync } from "node:child_process"
import { existsSync, linkSync, lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { expect, layer as withLayer } from "@effect/vitest"
import { Effect } from "effect"
import { ConfigTest } from "../../src/layers/ConfigTest.js"
import { layer as hermesRuntime } from "../../src/layers/HermesRuntime.js"
import { TerminalBackendLocal } from "../../src/layers/terminal/local/TerminalBackendLocal.js"
import { Config } from "../../src/services/Config.js"
import { Environments } from "../../src/services/Environments.js"
import { ToolExecutor } from "../../src/services/ToolExecutor.js"
import { tempHome } from "../support/runtime.js"
import { programProblem, systemRequired } from "../support/systemPrograms.js"

// A home of our own: ~/.bashrc and ~/.ssh/config below are canaries, never the machine's.
const home = tempHome("hermes-files-home-")
process.env["HOME"] = home
const root = tempHome("hermes-files-hardening-")
const projects = tempHome("hermes-files-projects-")

const runtime = hermesRuntime({
  plugins: false,
  terminalBackend: TerminalBackendLocal,
  config: ConfigTest({ terminal: { cwd: projects } }, { root, workspaceDir: join(root, "workspace"), pluginsDir: join(root, "plugins") })
})

type Json = Record<string, unknown>
const parse = (s: string): Json => JSON.parse(s.split("\n\n[Hint:")[0] as string) as Json

let tasks = 0
const call = (tool: string, args: Json, taskId: string) =>
  Effect.map(Effect.flatMap(ToolExecutor, (r) => r.dispatch({ tool, args }, { context: { taskId } })), parse)

/** A fresh task working in a git repository of its own. */
const project = Effect.gen(function*() {
  const t = `hardening-${++tasks}`
  const dir = join(projects, t)
  mkdirSync(dir)
  expect(spawnSync("git", ["init", "-q", dir]).status).toBe(0)
  writeFileSync(join(dir, "app.py"), "print('hello')\n")
  const cd = yield* call("terminal", { command: `cd '${dir}'` }, t)
  expect(cd["exit_code"]).toBe(0)
  const env = yield* Effect.flatMap(Environments, (e) => e.get(t))
  return { t, dir, env }
})

// ripgrep is a system program: without it (and without CI's requirement) only the built-in engine is tried.
const rgMissing = systemRequired() ? undefined : programProblem("rg")
if (rgMissing !== undefined) process.stderr.write(`skipped: search_files hardening with ripgrep (${rgMissing})\n`)
const searchEngines: ReadonlyArray<"builtin" | "rg"> = rgMissing === undefined ? ["builtin", "rg"] : ["builtin"]

const errorOf = (result: Json) => String(result["error"] ?? "")
const PLANTED = "#!/bin/sh\nrm -rf \"$HOME/canary\"\n"

withLayer(runtime, { excludeTestServices: true, timeout: "60 seconds" })("file tools: hardening", (it) => {
  // ------------------------------------------------------------------ item 5: planted code needs approval
  it.effect("write_file to files other programs run is refused without approval; the files are untouched", () =>
    Effect.gen(function*() {
      const { t, dir } = yield* project
      writeFileSync(join(home, ".bashrc"), "# mine\n")
      mkdirSync(join(home, ".ssh"), { recursive: true })
      writeFileSync(join(home, ".ssh", "config"), "Host *\n")
      mkdirSync(join(home, "dotfiles"))
      writeFileSync(join(home, "dotfiles", "zshrc"), "# zsh\n")
      symlinkSync(join(home, "dotfiles", "zshrc"), join(home, ".zshrc"))
      symlinkSync(".git/config", join(dir, "innocent.cfg"))
      const gitConfig = readFileSync(join(dir, ".git", "config"), "utf8")
      const before = (path: string) => (existsSync(path) ? readFileSync(path, "utf8") : undefined)
      const targets: ReadonlyArray<readonly [string, string]> = [
        ["~/.bashrc", join(home, ".bashrc")],
        [join(home, ".profile"), join(home, ".profile")],
        ["~/.zshrc", join(home, "dotfiles", "zshrc")], // a start-up file that links into a dotfiles checkout
        [".git/config", join(dir, ".git", "config")],
        [".git/hooks/pre-commit", join(dir, ".git", "hooks", "pre-commit")],
        ["./.git/config.worktree", join(dir, ".git", "config.worktree")],
        [".git/modules/lib/hooks/post-checkout", join(dir, ".git", "modules", "lib", "hooks", "post-checkout")],
        [".envrc", join(dir, ".envrc")],
        ["sub/dir/.envrc", join(dir, "sub", "dir", ".envrc")],
        ["innocent.cfg", join(dir, ".git", "config")], // a symlink in the project to .git/config
        ["~/.gitconfig", join(home, ".gitconfig")],
        ["~/.config/git/config", join(home, ".config", "git", "config")],
        ["~/.ssh/config", join(home, ".ssh", "config")],
        // Start-up files under the user's config directories, and what sends git to a config elsewhere.
        ["~/.config/gdb/gdbinit", join(home, ".config", "gdb", "gdbinit")],
        ["~/.vim/plugin/tidy.vim", join(home, ".vim", "plugin", "tidy.vim")],
        [".git/commondir", join(dir, ".git", "commondir")],
        ["sub/.git", join(dir, "sub", ".git")],
        [join(root, "skills", "evil", "SKILL.md"), join(root, "skills", "evil", "SKILL.md")],
        [join(root, "notes.txt"), join(root, "notes.txt")]
      ]
      for (const [path, real] of targets) {
        const was = before(real)
        const result = yield* call("write_file", { path, content: PLANTED }, t)
        expect(errorOf(result), path).not.toBe("")
        expect(result["bytes_written"], path).toBeUndefined()
        expect(before(real), path).toBe(was)
      }
      expect(readFileSync(join(dir, ".git", "config"), "utf8")).toBe(gitConfig)
      expect(lstatSync(join(dir, "innocent.cfg")).isSymbolicLink()).toBe(true)
      // The refusal is the approval's: it says nobody approved, and hands over no command to run.
      const refused = errorOf(yield* call("write_file", { path: ".git/hooks/post-checkout", content: PLANTED }, t))
      expect(refused).toMatch(/^BLOCKED/)
      expect(refused).not.toMatch(/hermes-effect approvals/)

      // Ordinary project files are written as before.
      const ok = yield* call("write_file", { path: "src/main.py", content: "print('ok')\n" }, t)
      expect(ok["bytes_written"]).toBe(12)
      expect(readFileSync(join(dir, "src", "main.py"), "utf8")).toBe("print('ok')\n")
    }))

  it.effect("patch (replace and V4A: update, add, move, delete) of the same targets is refused, all or nothing", () =>
    Effect.gen(function*() {
      const { t, dir } = yield* project
      const gitConfig = readFileSync(join(dir, ".git", "config"), "utf8")
      writeFileSync(join(dir, ".envrc"), "export A=1\n")
      writeFileSync(join(home, ".bashrc"), "# mine\n")
      symlinkSync(".git/config", join(dir, "settings.ini"))

      const replace = yield* call("patch", { path: ".git/config", old_string: "[core]", new_string: "[core]\n\tfsmonitor = sh evil.sh" }, t)
      expect(errorOf(replace)).toMatch(/^BLOCKED/)
      const throughLink = yield* call("patch", { path: "settings.ini", old_string: "[core]", new_string: "[core]\n\tpager = sh evil.sh" }, t)
      expect(errorOf(throughLink)).toMatch(/^BLOCKED/)
      const bashrc = yield* call("patch", { path: "~/.bashrc", old_string: "# mine", new_string: "# mine\nsh evil.sh" }, t)
      expect(errorOf(bashrc)).toMatch(/^BLOCKED/)
      expect(readFileSync(join(dir, ".git", "config"), "utf8")).toBe(gitConfig)
      expect(readFileSync(join(home, ".bashrc"), "utf8")).toBe("# mine\n")

      const v4a = (body: string) => call("patch", { mode: "patch", patch: `*** Begin Patch\n${body}\n*** End Patch` }, t)
      const cases = [
        // an ordinary update alongside: it must not be written either
        "*** Update File: app.py\n@@\n-print('hello')\n+print('changed')\n*** Add File: .git/hooks/pre-commit\n+#!/bin/sh\n+sh evil.sh",
        "*** Update File: .envrc\n@@\n-export A=1\n+export A=1\n+sh evil.sh",
        "*** Add File: hook.sh\n+sh evil.sh\n*** Move File: hook.sh -> .git/hooks/post-merge",
        "*** Move File: app.py -> .git/hooks/pre-push",
        "*** Delete File: .envrc",
        "*** Update File: settings.ini\n@@\n-[core]\n+[core]\n+\tsshCommand = sh evil.sh",
        "*** Add File: lib/.git\n+gitdir: ../evil",
        "*** Add File: .git/worktrees/w/commondir\n+../../../evil",
        "*** Add File: ~/.config/tmux/tmux.conf\n+run-shell 'sh evil.sh'"
      ]
      for (const body of cases) expect(errorOf(yield* v4a(body)), body).toMatch(/^BLOCKED/)
      expect(readFileSync(join(dir, "app.py"), "utf8")).toBe("print('hello')\n")
      expect(readFileSync(join(dir, ".envrc"), "utf8")).toBe("export A=1\n")
      expect(readFileSync(join(dir, ".git", "config"), "utf8")).toBe(gitConfig)
      for (const hook of ["pre-commit", "post-merge", "pre-push"]) expect(existsSync(join(dir, ".git", "hooks", hook))).toBe(false)
      expect(existsSync(join(dir, "hook.sh"))).toBe(false)
      expect(existsSync(join(dir, "lib", ".git"))).toBe(false)
      expect(existsSync(join(home, ".config", "tmux", "tmux.conf"))).toBe(false)

      // Ordinary patches still apply.
      const ok = yield* v4a("*** Update File: app.py\n@@\n-print('hello')\n+print('patched')\n*** Add File: lib/util.py\n+X = 1")
      expect(ok["success"]).toBe(true)
      expect(readFileSync(join(dir, "app.py"), "utf8")).toBe("print('patched')\n")
    }))

  it.effect("with approvals.mode off the same writes go through", () =>
    Effect.gen(function*() {
      const { t, dir } = yield* project
      const config = yield* Config
      yield* config.set(["approvals", "mode"], "off")
      const written = yield* Effect.ensuring(
        Effect.gen(function*() {
          const hook = yield* call("write_file", { path: ".git/hooks/pre-commit", content: "#!/bin/sh\nexit 0\n" }, t)
          const envrc = yield* call("patch", { mode: "patch", patch: "*** Begin Patch\n*** Add File: .envrc\n+export A=1\n*** End Patch" }, t)
          return [hook, envrc] as const
        }),
        Effect.ignore(config.remove(["approvals", "mode"]))
      )
      expect(written[0]["bytes_written"]).toBe(17)
      expect(written[1]["success"]).toBe(true)
      expect(readFileSync(join(dir, ".git", "hooks", "pre-commit"), "utf8")).toBe("#!/bin/sh\nexit 0\n")
      expect(readFileSync(join(dir, ".envrc"), "utf8")).toBe("export A=1\n")
    }))

  // ------------------------------------------------------------------ item 6: devices stay devices
  it.effect("write_file and patch never replace a device or write under /dev, /proc or /sys", () =>
    Effect.gen(function*() {
      const { t, dir, env } = yield* project
      symlinkSync("/dev/null", join(dir, "log.txt"))
      symlinkSync("/dev", join(dir, "devices"))
      for (const path of ["/dev/null", "/dev/full", "log.txt", "devices/null", "/proc/self/comm", "/proc/sys/kernel/hostname", "/sys/kernel/hermes-test", "/dev/shm/../null"]) {
        const result = yield* call("write_file", { path, content: "x" }, t)
        expect(errorOf(result), path).toMatch(/device|\/dev, \/proc, \/sys|not a regular file/)
      }
      const add = yield* call("patch", { mode: "patch", patch: "*** Begin Patch\n*** Add File: /dev/hermes-added\n+x\n*** End Patch" }, t)
      expect(errorOf(add)).toMatch(/\/dev, \/proc, \/sys/)
      const update = yield* call("patch", { path: "log.txt", old_string: "a", new_string: "b" }, t)
      expect(errorOf(update)).not.toBe("")
      // The environment's own operations refuse too (other callers: the result store, atomic or not).
      for (const atomic of [true, false]) {
        expect((yield* Effect.flip(env.writeFile("log.txt", "x", { atomic }))).reason).toBe("Denied")
        expect((yield* Effect.flip(env.writeFile("/dev/full", "x", { atomic }))).reason).toBe("Denied")
      }
      expect((yield* Effect.flip(env.remove("/dev/full"))).reason).toBe("Denied")
      expect((yield* Effect.flip(env.rename("app.py", "/dev/null"))).reason).toBe("Denied")
      expect(statSync("/dev/null").isCharacterDevice()).toBe(true)
      expect(statSync("/dev/full").isCharacterDevice()).toBe(true)
      expect(lstatSync(join(dir, "log.txt")).isSymbolicLink()).toBe(true)
      expect(existsSync("/dev/hermes-added")).toBe(false)
      expect(readFileSync(join(dir, "app.py"), "utf8")).toBe("print('hello')\n")
    }))

  // ------------------------------------------------------------------ item 7: FIFOs never block
  it.effect("a FIFO is refused at once by write_file, read_file, patch and the environment", () =>
    Effect.gen(function*() {
      const { t, dir, env } = yield* project
      expect(spawnSync("mkfifo", [join(dir, "pipe")]).status).toBe(0)
      symlinkSync("pipe", join(dir, "pipe-link"))
      const started = Date.now()
      for (const path of ["pipe", "pipe-link"]) {
        expect(errorOf(yield* call("write_file", { path, content: "x" }, t)), path).toContain("not a regular file")
        expect(errorOf(yield* call("read_file", { path }, t)), path).toContain("not a regular file")
        expect(errorOf(yield* call("patch", { path, old_string: "a", new_string: "b" }, t)), path).toContain("not a regular file")
        expect(errorOf(yield* call("search_files", { pattern: "x", path }, t)), path).toContain("not a regular file")
      }
      // In a directory, the search passes the FIFO by.
      expect(errorOf(yield* call("search_files", { pattern: "hello", path: "." }, t))).toBe("")
      for (const options of [undefined, { offset: 0, length: 16 }, { offset: 0, length: 4 * 1024 * 1024 }]) {
        expect((yield* Effect.flip(env.readFile("pipe", options))).message).toContain("not a regular file")
      }
      for (const atomic of [true, false]) expect((yield* Effect.flip(env.writeFile("pipe", "x", { atomic }))).message).toContain("not a regular file")
      expect(Date.now() - started).toBeLessThan(3000)
      expect(lstatSync(join(dir, "pipe")).isFIFO()).toBe(true)
    }), { timeout: 8000 })

  // ------------------------------------------------------------------ item 11: private keys
  it.effect("private keys: read_file at any offset, search_files and sed never show a key body", () =>
    Effect.gen(function*() {
      const { t, dir } = yield* project
      const keyPath = join(dir, "id_ed25519")
      expect(spawnSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", keyPath]).status).toBe(0)
      const rsaPath = join(dir, "deploy.pem")
      expect(spawnSync("ssh-keygen", ["-q", "-t", "rsa", "-b", "2048", "-m", "PEM", "-N", "", "-f", rsaPath]).status).toBe(0)
      const bodies = [keyPath, rsaPath].flatMap((p) => readFileSync(p, "utf8").split("\n").filter((l) => l.length >= 20 && !l.startsWith("-----")))
      const leaked = (text: string) => bodies.filter((line) => text.includes(line))

      for (const [path, offset, limit] of [["id_ed25519", 2, 500], ["id_ed25519", 3, 1], ["id_ed25519", 1, 500], ["deploy.pem", 5, 3], ["deploy.pem", 26, 5]] as const) {
        // A fresh task per read (no dedup stub); its working directory is not `dir`, so the path is absolute.
        const read = yield* call("read_file", { path: join(dir, path), offset, limit }, `${t}-${path}-${offset}`)
        expect(String(read["content"]).length, `${path}@${offset}`).toBeGreaterThan(0)
        expect(leaked(String(read["content"])), `${path}@${offset}`).toEqual([])
      }
      const whole = yield* call("read_file", { path: "id_ed25519" }, t)
      expect(String(whole["content"])).toMatch(/^1\|-----BEGIN OPENSSH PRIVATE KEY-----\n2\|\[REDACTED PRIVATE KEY\]/)

      // A key pasted into a file among other lines: every line of the block, whatever the window.
      writeFileSync(join(dir, "notes.md"), `# notes\n\nssh key:\n${readFileSync(keyPath, "utf8")}\nend\n`)
      for (let offset = 1; offset <= 10; offset++) {
        const read = yield* call("read_file", { path: "notes.md", offset, limit: 2 }, `${t}-notes-${offset}`)
        expect(leaked(String(read["content"])), `notes.md@${offset}`).toEqual([])
      }

      for (const pattern of ["A", "[a-z]{3}", "^[A-Za-z0-9+/=]+$"]) {
        const search = yield* call("search_files", { pattern, path: ".", limit: 200 }, `${t}-search-${pattern}`)
        expect(leaked(JSON.stringify(search)), pattern).toEqual([])
      }
      for (const command of ["sed -n 2,3p id_ed25519", "sed -n 3p id_ed25519", "tail -n 3 deploy.pem", "grep -n '' id_ed25519 deploy.pem", "cat id_ed25519"]) {
        const out = yield* call("terminal", { command }, t)
        expect(out["exit_code"], command).toBe(0)
        expect(leaked(String(out["output"])), command).toEqual([])
      }
    }))

  it.effect("ordinary base64, hashes and minified code are read unchanged", () =>
    Effect.gen(function*() {
      const { t, dir } = yield* project
      const blob = Buffer.from(Array.from({ length: 600 }, (_, i) => (i * 131 + 7) % 256)).toString("base64")
      const files: Record<string, string> = {
        "data.json": JSON.stringify({ icon: blob, chunks: [blob.slice(0, 64), blob.slice(64, 134)] }, null, 2),
        "SHA256SUMS": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08  app.tar.gz\n",
        "bundle.min.js": "!function(e){var t={};function n(r){return t[r]||e[r].call(t,n)}n.p=\"/\"}([]);\n",
        "settings.py": "MAX_TOKENS = 100\npassword = os.environ[\"DB_PASSWORD\"]\nTOKEN_LIMIT = 4096\n"
      }
      for (const [name, text] of Object.entries(files)) {
        writeFileSync(join(dir, name), text)
        const read = yield* call("read_file", { path: name }, t)
        const shown = String(read["content"]).split("\n").map((l) => l.replace(/^\d+\|/, "")).join("\n")
        expect(shown, name).toBe(text.replace(/\n$/, ""))
      }
    }))

  // ------------------------------------------------------------------ item 12: secret files under other names
  it.effect("a hard link to a protected file is refused like the file; copies show no secret values", () =>
    Effect.gen(function*() {
      const { t, dir } = yield* project
      writeFileSync(join(root, "auth.json"), "{\"providers\": {\"x\": {\"access_token\": \"tok-0123456789abcdef\"}}}\n")
      linkSync(join(root, "auth.json"), join(dir, "auth-notes.txt"))
      writeFileSync(join(dir, ".env"), "DB_PASSWORD=correct-horse-42\n")
      linkSync(join(dir, ".env"), join(dir, "environment.txt"))
      mkdirSync(join(root, "mcp-tokens"), { recursive: true })
      writeFileSync(join(root, "mcp-tokens", "github.json"), "{\"refresh\": \"r-0123456789\"}\n")
      linkSync(join(root, "mcp-tokens", "github.json"), join(dir, "gh.json"))

      expect(errorOf(yield* call("read_file", { path: "auth-notes.txt" }, t))).toMatch(/hard link to .*auth\.json.*Hermes credential store/)
      expect(errorOf(yield* call("read_file", { path: "environment.txt" }, t))).toMatch(/hard link to .*\.env.*secret-bearing environment file/)
      expect(errorOf(yield* call("read_file", { path: "gh.json" }, t))).toMatch(/hard link to .*mcp-tokens/)
      for (const engine of searchEngines) {
        yield* Effect.flatMap(Config, (c) => c.set(["files", "search_engine"], engine))
        const search = yield* call("search_files", { pattern: "0123456789|correct-horse", path: "." }, `${t}-${engine}`)
        expect(JSON.stringify(search), engine).not.toMatch(/tok-0123456789|correct-horse|r-0123456789/)
        expect(String(search["_omitted"]), engine).toContain("omitted")
      }
      yield* Effect.flatMap(Config, (c) => c.remove(["files", "search_engine"]))

      // Copies are other files: their secret values are masked instead.
      writeFileSync(join(dir, "backup.env"), [
        "API_KEY=a8f3k2m9q1z7x4c6v5b",
        "export GITHUB_TOKEN=opaque-value-123",
        "password: s3cr3t-pw!",
        "{\"secret\": \"9d8c7b6a5f4e3d2c1b0a\"}",
        "DEBUG=true"
      ].join("\n"))
      const copy = String((yield* call("read_file", { path: "backup.env" }, t))["content"])
      expect(copy).toBe([
        "1|API_KEY=[REDACTED]",
        "2|export GITHUB_TOKEN=[REDACTED]",
        "3|password: [REDACTED]",
        "4|{\"secret\": \"[REDACTED]\"}",
        "5|DEBUG=true"
      ].join("\n"))
      const search = yield* call("search_files", { pattern: "GITHUB_TOKEN|password", path: "backup.env" }, t)
      expect(JSON.stringify(search)).not.toMatch(/opaque-value-123|s3cr3t/)
    }))
})
