/**
 * The judge over an in-memory filesystem: surroundings holding only the given
 * files (absolute paths; directories are the files' parents; the command starts
 * in /w), and the detectors the approval layer uses. For tests of what the
 * judge reads (compiled modules, library modules shadowed, …).
 */
import { Effect, Option } from "effect"
import { codePathLiterals, detectCode } from "../../src/layers/approval/detect/code/detectCode.js"
import { localImportCandidates, searchPathCandidates } from "../../src/layers/approval/detect/code/localImports.js"
import type { DetectionEnv } from "../../src/layers/approval/detect/detect.js"
import { inspectCommand } from "../../src/layers/approval/detect/detect.js"
import type { Detectors, Verdict } from "../../src/layers/approval/policy/judge.js"
import { judgeRequest } from "../../src/layers/approval/policy/judge.js"
import type { InstalledPythonMemo } from "../../src/layers/approval/policy/installedPython.js"
import type { CommandSurroundings } from "../../src/services/Approval.js"

export const JUDGE_ENV: DetectionEnv = { home: "/home/agent", hermesHome: "/home/agent/.hermes-effect", env: {} }

export const JUDGE_DETECTORS: Detectors = {
  inspect: inspectCommand,
  detectCode,
  codePaths: codePathLiterals,
  localImports: localImportCandidates,
  searchPathModules: searchPathCandidates,
  trustedPathDirs: ["/usr/bin", "/bin"]
}

export type Files = Readonly<Record<string, string | Uint8Array>>

/** Surroundings holding only `files`; `listable: false` leaves listDir out (backends that cannot list). */
export const world = (files: Files, variables: Readonly<Record<string, string>> = {}, listable = true): CommandSurroundings => {
  const dirs = new Set(Object.keys(files).flatMap((p) => p.split("/").slice(1, -1).map((_, k, parts) => `/${parts.slice(0, k + 1).join("/")}`)))
  const entries = (dir: string) =>
    [...new Set([...Object.keys(files), ...dirs].filter((p) => p.startsWith(`${dir}/`)).map((p) => p.slice(dir.length + 1).split("/")[0] ?? ""))]
      .map((name) => ({ name, type: dirs.has(`${dir}/${name}`) ? ("directory" as const) : ("file" as const) }))
  const bytes = (f: string | Uint8Array) => (typeof f === "string" ? Buffer.from(f) : f)
  return {
    cwd: Effect.succeed("/w"),
    variables: Effect.succeed(variables),
    readText: (path) => {
      const f = files[path]
      return Effect.succeed(f === undefined ? Option.none() : Option.some(typeof f === "string" ? f : Buffer.from(f).toString("utf8")))
    },
    readHead: (path, length) => {
      const f = files[path]
      return Effect.succeed(f === undefined ? Option.none() : Option.some(bytes(f).slice(0, length)))
    },
    realPath: (path) => Effect.succeed(path),
    listDir: listable ? (dir) => Effect.succeed(entries(dir)) : undefined,
    fileKind: (path) => Effect.succeed(files[path] !== undefined ? "file" : dirs.has(path) ? "directory" : "missing"),
    sharesHostFiles: true
  }
}

/** The judge's verdict on a foreground command of task `t` on the local backend; `memo` kept across calls as the approval layer keeps it. */
export const judgeIn = (command: string, surroundings: CommandSurroundings, memo?: InstalledPythonMemo): Effect.Effect<Verdict> =>
  judgeRequest({ command, context: { taskId: "t" }, backend: { kind: "local", isolated: false }, path: "foreground", surroundings }, JUDGE_ENV, JUDGE_DETECTORS, memo)
