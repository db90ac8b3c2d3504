/**
 * The `lint` field of write_file and patch results, as Hermes reports it: a
 * syntax check of the file just written, and when it fails, only the errors
 * the edit introduced (lines already failing before the edit are filtered
 * out). Shapes: `{status: "ok", output: ""}`, `{status: "error", output,
 * message?}`, `{status: "skipped", message}`.
 *
 * - `.py`: Python's own parser (`ast.parse`, what Hermes runs in-process) in
 *   this machine's python3; skipped when there is none.
 * - `.json`, `.yaml`/`.yml`, `.toml`: the parsers of the syntax gate (JSON
 *   with comments for tsconfig-like files).
 * - `.js`, `.go`, `.rs`: `node --check`, `go vet`, `rustfmt --check` in the
 *   task's environment when it has the command (approved like any command).
 * - Anything else, `.ts` included (a per-file tsc cannot see the project's
 *   tsconfig): skipped.
 */
import { spawn } from "node:child_process"
import { Effect } from "effect"
import type { ShellService } from "../../services/Shell.js"
import type { TerminalEnvironment } from "../../services/TerminalBackend.js"
import type { ToolCallContext } from "../../services/ToolContext.js"
import { extensionOf } from "../../lib/binaryFiles.js"
import { syntaxProblem } from "./syntaxGate.js"

export type Lint =
  | { readonly status: "ok"; readonly output: string }
  | { readonly status: "error"; readonly output: string; readonly message?: string }
  | { readonly status: "skipped"; readonly message: string }

const ok: Lint = { status: "ok", output: "" }
const skipped = (message: string): Lint => ({ status: "skipped", message })

/** Where a linter that runs as a command finds the task's environment. */
export interface LintTarget {
  readonly env: TerminalEnvironment
  readonly shell: ShellService
  readonly context: ToolCallContext
}

const PYTHON_CHECK = [
  "import ast, sys",
  "source = sys.stdin.buffer.read()",
  "try:",
  "    ast.parse(source)",
  "except SyntaxError as e:",
  "    where = f' (line {e.lineno}, column {e.offset})' if e.lineno else ''",
  "    print(f'{type(e).__name__}: {e.msg}{where}'); sys.exit(1)",
  "except Exception as e:",
  "    print(f'{type(e).__name__}: {e}'); sys.exit(1)"
].join("\n")

/** `source` through python3's parser; undefined when there is no python3 to ask. */
const pythonSyntax = (source: string): Effect.Effect<Lint | undefined> =>
  Effect.async<Lint | undefined>((resume) => {
    const child = spawn("python3", ["-c", PYTHON_CHECK], { stdio: ["pipe", "pipe", "pipe"] })
    let output = ""
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")))
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")))
    child.on("error", () => resume(Effect.succeed(undefined)))
    child.on("close", (code) => resume(Effect.succeed(code === 0 ? ok : { status: "error", output: output.trim() })))
    child.stdin.on("error", () => undefined)
    child.stdin.end(source)
    return Effect.sync(() => child.kill("SIGKILL"))
  })

const IN_PROCESS = new Set([".json", ".yaml", ".yml", ".toml"])

/** Command linters: the program, and its command line for a quoted path. */
const COMMANDS: Record<string, { readonly program: string; readonly line: (quoted: string) => string }> = {
  ".js": { program: "node", line: (q) => `node --check ${q}` },
  ".go": { program: "go", line: (q) => `go vet ${q}` },
  ".rs": { program: "rustfmt", line: (q) => `rustfmt --check ${q}` }
}

const MISSING = "__hermes_effect_no_linter__"
const quote = (s: string) => `'${s.replace(/'/g, "'\\''")}'`

const commandLint = (target: LintTarget, path: string, ext: string): Effect.Effect<Lint> =>
  Effect.gen(function*() {
    const linter = COMMANDS[ext]!
    const script = `if command -v ${linter.program} >/dev/null 2>&1; then ${linter.line(quote(path))} 2>&1; else echo ${MISSING}; fi`
    const approved = yield* Effect.either(target.shell.approve(target.env, target.context, script, "foreground"))
    if (approved._tag === "Left") return skipped(`${linter.program} not usable: the check was not approved`)
    const ran = yield* Effect.either(target.env.run(approved.right, { timeoutMs: 30_000, maxOutputBytes: 64 * 1024 }))
    if (ran._tag === "Left") return skipped(`${linter.program} not usable: ${ran.left.message}`)
    const output = (ran.right.output.head + ran.right.output.tail).trim()
    if (output === MISSING) return skipped(`${linter.program} not available`)
    if (ran.right.timedOut) return skipped(`${linter.program} not usable: timed out`)
    return ran.right.exitCode === 0 ? { status: "ok", output } : { status: "error", output }
  })

/** Whether a file of this kind is linted from its text (so the text before an edit can be linted too). */
const fromText = (ext: string) => ext === ".py" || IN_PROCESS.has(ext)

/** Syntax check of `content` for `path` (command linters check the file on disk). */
const lintOnce = (target: LintTarget, path: string, content: string): Effect.Effect<Lint> => {
  const ext = extensionOf(path)
  if (ext === ".py") {
    return Effect.map(pythonSyntax(content), (lint) => lint ?? skipped("No linter available for .py (missing dependency)"))
  }
  if (IN_PROCESS.has(ext)) {
    const problem = syntaxProblem(path, content)
    return Effect.succeed(problem === undefined ? ok : { status: "error", output: `${problem.kind}: ${problem.detail}` })
  }
  if (COMMANDS[ext] !== undefined) return commandLint(target, path, ext)
  return Effect.succeed(skipped(`No linter for ${ext} files`))
}

/**
 * Lint after a write. With the text from before the write (`before`), a
 * failing result keeps only lines that were not failing already; when none
 * are new, it says the file was already broken.
 */
export const lintAfterWrite = (target: LintTarget, path: string, before: string | undefined, after: string): Effect.Effect<Lint> =>
  Effect.gen(function*() {
    const post = yield* lintOnce(target, path, after)
    if (post.status !== "error" || before === undefined || !fromText(extensionOf(path))) return post
    const pre = yield* lintOnce(target, path, before)
    if (pre.status !== "error" || pre.output.length === 0) return post
    const old = new Set(pre.output.split("\n").map((l) => l.trim()).filter((l) => l.length > 0))
    const fresh = post.output.split("\n").filter((l) => l.trim().length > 0 && !old.has(l.trim()))
    if (fresh.length === 0) {
      return { status: "error", output: post.output, message: "Pre-existing lint errors — this edit didn't introduce new ones but the file is still broken." }
    }
    return { status: "error", output: `New lint errors introduced by this edit (pre-existing errors filtered out):\n${fresh.join("\n")}` }
  })

/** Whether the text before a write is worth reading for the delta. */
export const lintsFromText = (path: string): boolean => fromText(extensionOf(path))
