/**
 * Exports that change how the shell reads a line that never names them: GLOBIGNORE (and BASHOPTS' glob options)
 * change what a pattern matches, CDPATH where `cd NAME` goes, IFS how an expansion splits. The judge looks at them
 * for a line without a `$` word too; `cd NAME` through CDPATH (in the line or exported) leaves relative writes and
 * scripts only known at run time, while `cd ./name`, `cd /abs`, `cd ..` stay precise.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { D } from "../../../src/layers/approval/detect/descriptions.js"
import { inspectCommand } from "../../../src/layers/approval/detect/detect.js"
import { JUDGE_ENV, judgeIn, world } from "../../support/judgeWorld.js"

const FILES = { "/w/cfg": "[core]\n", "/w/payload": "#!/bin/sh\n", "/w/src/Makefile": "all:\n\ttrue\n", "/w/repo/.git/config": "[core]\n" }
const said = (command: string, variables: Readonly<Record<string, string>> = {}) =>
  judgeIn(command, world(FILES, variables)).pipe(Effect.map((v) => [command, v.detection.description] as const))

describe("exports a line without `$` depends on", () => {
  it.effect("GLOBIGNORE or a glob shopt in BASHOPTS exported by an earlier call: a pattern write target is computed", () =>
    Effect.gen(function*() {
      for (const variables of [{ GLOBIGNORE: "x" }, { BASHOPTS: "checkwinsize:dotglob:extglob" }]) {
        for (const command of ["tee -a repo/*/config < cfg", "cp cfg repo/?git/config", "cat cfg > repo/*/conf[i]g"]) {
          expect(yield* said(command, variables)).toEqual([command, D.computedWriteTarget])
        }
      }
      // Without them the pattern is judged as written (no dot files): quiet as before.
      expect(yield* said("cat cfg >> repo/*/config")).toEqual(["cat cfg >> repo/*/config", null])
    }))

  it.effect("IFS exported by an earlier call splits an expansion of the line's own variable", () =>
    Effect.gen(function*() {
      const [, description] = yield* said("x=rm:-rf:/w; $x", { IFS: ":" })
      expect(description).toBe("delete in root path")
      expect((yield* said("x=rm:-rf:/w; $x"))[1]).not.toBe("delete in root path")
    }))

  it("the first look (no exports given) asks for them exactly where a check depends on them", () => {
    expect(inspectCommand("cat cfg >> repo1/*/config", JUDGE_ENV).unresolved).toContain("GLOBIGNORE")
    expect(inspectCommand("cd hooks && cp payload pre-commit", JUDGE_ENV).unresolved).toContain("CDPATH")
    expect(inspectCommand("x=a:b; ls $x", JUDGE_ENV).unresolved).toContain("IFS")
    expect(inspectCommand("ls -la && git status", JUDGE_ENV).unresolved).toEqual([])
    expect(inspectCommand("x=1; echo \"$x\"", JUDGE_ENV).unresolved).toEqual([])
  })
})

describe("cd NAME through CDPATH", () => {
  it.effect("set in the line or exported: a relative write after it lands where only the running shell knows", () =>
    Effect.gen(function*() {
      for (const command of [
        "CDPATH=/w/repo/.git; cd hooks && cp payload pre-commit",
        "export CDPATH=/w/repo/.git; cd hooks; tee pre-push < payload",
        "CDPATH=/w/repo/.git; cd -P -- hooks && install -m 755 ../../../payload post-checkout",
        "CDPATH=:/w/repo/.git pushd hooks && cat payload > pre-commit",
        "CDPATH=/w/repo/.git; d=hooks; cd $d && cp cfg pre-commit"
      ]) expect(yield* said(command)).toEqual([command, D.computedWriteTarget])
      for (const command of ["cd hooks && cp /w/payload pre-commit", "cd hooks; echo x > post-merge"]) {
        expect(yield* said(command, { CDPATH: "/w/repo/.git" })).toEqual([command, D.computedWriteTarget])
      }
    }))

  it.effect("names CDPATH does not apply to, no CDPATH, or an emptied one stay precise and quiet", () =>
    Effect.gen(function*() {
      for (const [command, variables] of [
        ["cd src && make", {}],
        ["cd src && cp a b", {}],
        ["CDPATH=/w/repo/.git; cd ./src && cp a b", {}],
        ["CDPATH=/w/repo/.git; cd /w/src && cp a b", {}],
        ["CDPATH=/w/repo/.git; cd .. && cp /w/cfg notes.txt", {}],
        ["cd ./src && cp a b", { CDPATH: "/w/repo/.git" }],
        ["cd src && cp a b", { CDPATH: "" }],
        ["ls -la", { CDPATH: "/w/repo/.git", GLOBIGNORE: "x", IFS: ":" }]
      ] as const) expect(yield* said(command, variables)).toEqual([command, null])
      // A precise cd into the hooks folder is judged by where it lands, as before.
      const [, hooks] = yield* said("CDPATH=/x; cd ./repo/.git/hooks && cp /w/payload pre-commit")
      expect(hooks).not.toBe(null)
    }))
})
