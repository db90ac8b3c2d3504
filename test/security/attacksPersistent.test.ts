/**
 * The attack classes once more on the local backend with one persistent shell
 * per task (`terminal.local_persistent: true`): the calls of a task share a
 * bash, so whatever one call leaves in it (variables, functions, aliases, the
 * hash table) is there for the next. Every case must still leave its canary.
 */
import { spawnSync } from "node:child_process"
import { mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Case } from "./cases.js"
import { acrossCalls, asBashComputes, insideExpansions, textRunAgain, climbedThroughLinks, swappedLinks, misreadArithmetic, stateAcrossCalls, computed, computedArithmetic, substituted, inputCommands, heldFunctions, buildFiles, heldVariables, loadedByName, namedPrograms, ordinary, planted, rebound, respelled, runThrough, hardLinks, procSelf, namedWhenRun, computedTargets, forgedReports } from "./cases.js"
import { configAndGitdirs } from "./round3ConfigCases.js"
import { pipAndPytest } from "./round3BuildCases.js"
import { computedByBash } from "./round5ResolverCases.js"
import { optionsAndVariables } from "./round5OptionCases.js"
import { round7 } from "./round7Cases.js"
import { round9 } from "./round9Cases.js"
import type { AttackRun } from "./runAttacks.js"
import { attackCaseTests, foldersUnder, runAttacks } from "./runAttacks.js"

const classes: Readonly<Record<string, ReadonlyArray<Case>>> = { computed, acrossCalls, rebound, misreadArithmetic, asBashComputes, insideExpansions, textRunAgain, stateAcrossCalls, heldFunctions, heldVariables, planted, loadedByName, namedPrograms, runThrough, computedArithmetic, substituted, inputCommands, respelled, buildFiles, climbedThroughLinks, swappedLinks, hardLinks, procSelf, namedWhenRun, computedTargets, forgedReports, configAndGitdirs, pipAndPytest, computedByBash, optionsAndVariables, round7, round9 }
const folders = foldersUnder(mkdtempSync(join(tmpdir(), "hermes-effect-attacks-persistent-")))
const CONFIG = "approvals:\n  mode: manual\n  non_interactive: deny\nterminal:\n  local_persistent: true\n"
let attackRun: AttackRun = { answers: new Map(), canaries: new Map() }

// The table runs as one batch; with the whole suite beside it on a 2-vCPU CI machine it took over 280 s (pip and
// pytest builds, waits for background jobs). The budget is for a slow machine, not the expected time (~60 s alone).
beforeAll(async () => {
  attackRun = await runAttacks(folders, CONFIG, classes, ordinary, 840_000)
}, 900_000)

afterAll(() => {
  spawnSync("rm", ["-rf", folders.root])
})

describe("approval gate with a persistent local shell: attacks leave the canary alone", () => {
  attackCaseTests(classes, () => attackRun)

  it("ordinary agent commands still run, and the config was never written", () => {
    const refused = ordinary.flatMap((command, n) => {
      const said = (attackRun.answers.get(`ordinary-${n}`) ?? []).join("\n")
      return /BLOCKED/.test(said) || !/"exit_code": 0/.test(said) ? [`${command} -> ${said}`] : []
    })
    expect(refused).toEqual([])
    expect(readFileSync(join(folders.home, "config.yaml"), "utf8")).toBe(CONFIG)
  })
})
