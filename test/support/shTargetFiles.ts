/**
 * The ssh/container file operations with `sh` on this machine as the target:
 * the scripts are what the target runs; only the transport is left out.
 * Relative paths resolve against `dir`.
 */
import { spawnSync } from "node:child_process"
import { posix } from "node:path"
import { Effect } from "effect"
import { makeTargetFiles } from "../../src/layers/terminal/targetFiles.js"
import type { ClientResult } from "../../src/layers/terminal/transportProcess.js"

export const shTargetFiles = (dir: string) =>
  makeTargetFiles({
    script: (source, args, input) =>
      Effect.sync((): ClientResult => {
        // A guard that failed would leave `cat` waiting on a FIFO: the timeout turns that into a failure.
        const run = spawnSync("sh", ["-c", source, "sh", ...args], { input: input ?? "", timeout: 5000 })
        return { code: run.status ?? 124, stdout: run.stdout, stderr: run.stderr.toString().trim() }
      }),
    failure: () => undefined,
    resolve: (path) => posix.resolve(dir, path),
    rawAbsolute: (path) => (path.startsWith("/") ? path : `${dir}/${path}`)
  })
