/**
 * The path-safety rules against Hermes' `file_paths` behaviour vectors
 * (../shared/vectors/hermes-behaviour.json). Placeholders: $HOME → a two-part
 * home, $HERMES_HOME → our home (under $HERMES_ROOT/profiles/<name> in
 * profile mode), $TMP → the temp dir. Agreement must be ≥ 99%; every
 * disagreement (and every message that differs) is printed.
 */
import { existsSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { isAbsolute, join, resolve } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { makeHostFiles } from "../../src/layers/terminal/environmentFiles.js"
import { EnvironmentFileError } from "../../src/services/TerminalBackend.js"
import { expandHome } from "../../src/lib/text.js"
import { workdirProblem } from "../../src/tools/terminal/guards.js"
import {
  classifyWriteDenial,
  hasTraversalComponent,
  isBlockedDevice,
  isBlockedDevicePath,
  readBlockError,
  sensitiveWriteError,
  writeDeniedMessage,
  writeDenyList
} from "../../src/lib/pathSafety.js"
import type { SafetyPaths } from "../../src/lib/pathSafety.js"

interface Vector {
  readonly check: string
  readonly input: string
  readonly expect: boolean
  readonly message?: string
  readonly env?: { readonly mode?: string; readonly HERMES_WRITE_SAFE_ROOT?: string }
  readonly why: string
}

const VECTORS = resolve(__dirname, "../fixtures/hermes-behaviour.json")
const HOME = "/home/tester"
const ROOT = `${HOME}/.hermes-effect`
const TMP = tmpdir()

const host = makeHostFiles({
  hostPath: (p) => p,
  identity: true,
  writeDenied: () => undefined,
  fileError: (path, e) => new EnvironmentFileError({ path, reason: "Io", message: String(e) })
})
const real = (p: string) => Effect.runSync(host.realPath(p))
const readLink = (p: string) => host.readLink(p)

/** The homes of one vector: profile mode puts our home under the root's profiles/. */
const homesOf = (v: Vector) => {
  const profile = /profiles\/(\w+)/.exec(v.env?.mode ?? "")?.[1]
  return { hermesRoot: ROOT, hermesHome: profile === undefined ? ROOT : `${ROOT}/profiles/${profile}` }
}

const substitute = (text: string, v: Vector) => {
  const { hermesHome, hermesRoot } = homesOf(v)
  return text.replaceAll("$HERMES_HOME", hermesHome).replaceAll("$HERMES_ROOT", hermesRoot).replaceAll("$HOME", HOME).replaceAll("$TMP", TMP)
}

const pathsFor = (v: Vector): SafetyPaths => {
  const { hermesHome, hermesRoot } = homesOf(v)
  const roots = (v.env?.HERMES_WRITE_SAFE_ROOT === undefined ? [] : substitute(v.env.HERMES_WRITE_SAFE_ROOT, v).split(":")).filter((r) => r.length > 0)
  return { userHome: HOME, hermesHome, hermesRoot, configFile: join(hermesHome, "config.yaml"), writeRoots: roots.map(real) }
}

/** What our rules say for one vector: [decision, message]. */
const evaluate = (v: Vector): readonly [boolean, string | undefined] => {
  const input = substitute(v.input, v)
  const expanded = expandHome(input, HOME)
  const paths = pathsFor(v)
  switch (v.check) {
    case "read_block": {
      const message = readBlockError(real(expanded), paths, { shown: input, literal: resolve(expanded) })
      return [message !== undefined, message]
    }
    case "write_denied": {
      const target = real(expanded)
      const denial = classifyWriteDenial(target, [writeDenyList(paths)], paths.writeRoots)
      return [denial !== undefined, denial === undefined ? undefined : writeDeniedMessage(input, denial, paths.writeRoots)]
    }
    case "sensitive_write_target": {
      // Relative paths resolve against a task cwd; the upstream tests ran in the temp dir.
      const absolute = isAbsolute(expanded) ? expanded : join(TMP, expanded)
      const message = sensitiveWriteError(input, [real(absolute), resolve(absolute)], [paths.configFile])
      return [message !== undefined, message]
    }
    case "device_path":
      return [isBlockedDevicePath(expanded), undefined]
    case "device_path_resolved":
      return [Effect.runSync(isBlockedDevice(resolve(expanded), { readLink, realPath: (p) => host.realPath(p) })), undefined]
    case "traversal_component":
      return [hasTraversalComponent(v.input), undefined]
    case "terminal_workdir": {
      const message = workdirProblem(v.input)
      return [message !== undefined, message]
    }
    default:
      throw new Error(`unknown check ${v.check}`)
  }
}

const load = (): ReadonlyArray<Vector> | undefined =>
  existsSync(VECTORS) ? (JSON.parse(readFileSync(VECTORS, "utf8")) as { file_paths: ReadonlyArray<Vector> }).file_paths : undefined

const vectors = load()

describe.skipIf(vectors === undefined)("file_paths vectors (Hermes behaviour)", () => {
  it("agree with Hermes on at least 99% of the cases", () => {
    const all = vectors ?? []
    const disagreements: Array<string> = []
    const messageDiffs: Array<string> = []
    for (const v of all) {
      const [decision, message] = evaluate(v)
      if (decision !== v.expect) disagreements.push(`${v.check} ${v.input}: expected ${v.expect}, got ${decision} (${v.why})`)
      else if (v.expect && v.message !== undefined && message !== undefined && substitute(v.message, v) !== message) {
        messageDiffs.push(`${v.check} ${v.input}:\n    hermes: ${substitute(v.message, v)}\n    ours:   ${message}`)
      }
    }
    const agreement = (all.length - disagreements.length) / all.length
    console.log(`file_paths vectors: ${all.length - disagreements.length}/${all.length} agree (${(agreement * 100).toFixed(1)}%)`)
    if (disagreements.length > 0) console.log(`disagreements:\n  ${disagreements.join("\n  ")}`)
    if (messageDiffs.length > 0) console.log(`messages worded differently (decision agrees):\n  ${messageDiffs.join("\n  ")}`)
    expect(all.length).toBeGreaterThan(100)
    expect(agreement).toBeGreaterThanOrEqual(0.99)
  })
})
