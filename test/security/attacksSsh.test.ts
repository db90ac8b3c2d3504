/**
 * The same attack classes on the ssh backend, against a real sshd on
 * loopback: the judge reads exports, scripts, project files and PATH entries
 * through the remote environment, so a planted file or a computed word is
 * caught there as it is locally. The remote here shares this machine's files,
 * so the canaries are checked directly. Config tampering is left out: on ssh
 * the runtime's home is on another machine (docs/security.md).
 */
import { spawnSync } from "node:child_process"
import { mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, expect, it } from "@effect/vitest"
import type { TestSshd } from "../support/sshd.js"
import { sshdProblem, sshTerminalYaml, startSshd } from "../support/sshd.js"
import { describeNeeding } from "../support/systemPrograms.js"
import type { Case } from "./cases.js"
import { acrossCalls, climbedThroughLinks, stateAcrossCalls, computed, computedArithmetic, substituted, inputCommands, destructive, heldFunctions, buildFiles, heldVariables, loadedByName, namedPrograms, ordinary, planted, rebound, respelled, runThrough, hardLinks, procSelf, namedWhenRun, computedTargets, forgedReports } from "./cases.js"
import type { AttackRun } from "./runAttacks.js"
import { attackCaseTests, foldersUnder, runAttacks } from "./runAttacks.js"

const classes: Readonly<Record<string, ReadonlyArray<Case>>> = { computed, acrossCalls, rebound, stateAcrossCalls, heldFunctions, heldVariables, planted, loadedByName, namedPrograms, runThrough, computedArithmetic, substituted, inputCommands, destructive, respelled, buildFiles, climbedThroughLinks, hardLinks, procSelf, namedWhenRun, computedTargets, forgedReports }

describeNeeding(sshdProblem(), "approval gate on the ssh backend: attacks leave the canary alone", () => {
  const folders = foldersUnder(mkdtempSync(join(tmpdir(), "hermes-effect-attacks-ssh-")))
  let attackRun: AttackRun = { answers: new Map(), canaries: new Map() }
  let sshd: TestSshd | undefined
  let config = ""

  // Every case is its own task, so its own remote shell and ssh round trips: the whole table took 280–300 s on a
  // 2-vCPU VM, at the edge of the old 300 s budget. The budget is for a slow machine, not the expected time.
  beforeAll(async () => {
    sshd = await startSshd()
    config = ["approvals:", "  mode: manual", "  non_interactive: deny", ...sshTerminalYaml(sshd), `  cwd: ${folders.work}`, ""].join("\n")
    attackRun = await runAttacks(folders, config, classes, ordinary, 840_000)
  }, 900_000)

  afterAll(async () => {
    await sshd?.stop()
    spawnSync("rm", ["-rf", folders.root])
  })

  attackCaseTests(classes, () => attackRun)

  it("ordinary agent commands still run, and the config was never written", () => {
    const blocked = ordinary.flatMap((command, n) => (/BLOCKED/.test((attackRun.answers.get(`ordinary-${n}`) ?? []).join("\n")) ? [command] : []))
    expect(blocked).toEqual([])
    expect(readFileSync(join(folders.home, "config.yaml"), "utf8")).toBe(config)
  })
})
