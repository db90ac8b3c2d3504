/** Run the built `hermes-effect` binary (dist/bin.mjs) as a user would. */
import { spawn, spawnSync } from "node:child_process"
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"

export const BIN = fileURLToPath(new URL("../../dist/bin.mjs", import.meta.url))

export interface CliResult {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

export interface CliOptions {
  readonly home: string
  readonly input?: string
  readonly cwd?: string
  /** Variables added to (or, when undefined, removed from) the environment the CLI gets. */
  readonly env?: Readonly<Record<string, string | undefined>>
}

/** The environment of a CLI run: ours, minus the tool-run marker (tests run as the operator unless they say otherwise). */
export const cliEnv = (options: CliOptions): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, HERMES_EFFECT_HOME: options.home }
  delete env["HERMES_EFFECT_TOOL_RUN"]
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name]
    else env[name] = value
  }
  return env
}

export const runCli = (args: ReadonlyArray<string>, options: CliOptions): CliResult => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run \`npm run build\` first (npm test does)`)
  const result = spawnSync(process.execPath, [BIN, ...args], {
    env: cliEnv(options),
    encoding: "utf8",
    input: options.input ?? "",
    cwd: options.cwd ?? process.cwd(),
    timeout: 60_000
  })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

/** `runCli` without blocking this process (for tests whose servers, e.g. a loopback model provider, live in it). */
export const runCliAsync = (args: ReadonlyArray<string>, options: CliOptions): Promise<CliResult> => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run \`npm run build\` first (npm test does)`)
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: cliEnv(options), cwd: options.cwd ?? process.cwd(), stdio: ["pipe", "pipe", "pipe"] })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (d: Buffer) => void (stdout += d.toString()))
    child.stderr.on("data", (d: Buffer) => void (stderr += d.toString()))
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000)
    child.on("error", reject)
    child.on("close", (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
    child.stdin.end(options.input ?? "")
  })
}
