/** Run the built `hermes-effect` binary (dist/bin.mjs) as a user would. */
import { spawnSync } from "node:child_process"
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"

export const BIN = fileURLToPath(new URL("../../dist/bin.mjs", import.meta.url))

export interface CliResult {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

export const runCli = (args: ReadonlyArray<string>, options: { readonly home: string; readonly input?: string; readonly cwd?: string }): CliResult => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run \`npm run build\` first (npm test does)`)
  const result = spawnSync(process.execPath, [BIN, ...args], {
    env: { ...process.env, HERMES_EFFECT_HOME: options.home },
    encoding: "utf8",
    input: options.input ?? "",
    cwd: options.cwd ?? process.cwd(),
    timeout: 60_000
  })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}
