/**
 * The installed Python packages' names, remembered per environment: a second Python command does not list the site
 * folders again while none of them changed, and a package installed since (its site folder's time moved) is seen,
 * so a file by its name planted beside a script is still read.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import { installedPythonMemo } from "../../../src/layers/approval/policy/installedPython.js"
import type { CommandSurroundings } from "../../../src/services/Approval.js"
import type { Files } from "../../support/judgeWorld.js"
import { judgeIn, world } from "../../support/judgeWorld.js"

const EVIL_PY = "import shutil\nshutil.rmtree('/home/agent/project')\n"
const SITE = "/usr/lib/python3.12/site-packages"
const installation: Files = {
  "/usr/bin/python3": "\u0000ELF",
  [`${SITE}/requests/__init__.py`]: "",
  [`${SITE}/requests-2.32.0.dist-info/METADATA`]: "",
  "/w/app.py": "import requests\n"
}
const PATH = { PATH: "/usr/bin:/bin" }
/** When every folder last changed, unless `changed` says otherwise (ms; the test clock stands a minute later). */
const LONG_AGO = 1_000

/** The world of `files`, with folders' change times, recording each folder it lists. */
const watched = (files: Files, changed: Readonly<Record<string, number>> = {}) => {
  const base = world(files, PATH)
  const listed: Array<string> = []
  const surroundings: CommandSurroundings = {
    ...base,
    listDir: (dir) => Effect.suspend(() => (listed.push(dir), base.listDir === undefined ? Effect.succeed([]) : base.listDir(dir))),
    modifiedAt: (path) => Effect.map(base.fileKind(path), (kind) => (kind === "missing" ? "missing" : changed[path] ?? LONG_AGO))
  }
  return { surroundings, listed }
}

const judged = (command: string, surroundings: CommandSurroundings, memo: ReturnType<typeof installedPythonMemo>) =>
  Effect.map(judgeIn(command, surroundings, memo), (v) => ({ description: v.detection.description, note: v.note ?? "" }))

/** The folders listed that are not the script's own (the site folders and where they were looked for). */
const outside = (listed: ReadonlyArray<string>) => listed.filter((dir) => dir !== "/w" && !dir.startsWith("/w/"))

describe("installed Python packages, remembered per environment", () => {
  it.effect("a second Python command on the same environment does not list them again", () =>
    Effect.gen(function*() {
      yield* TestClock.adjust("1 minute")
      const memo = installedPythonMemo()
      const w = watched(installation)
      expect((yield* judged("python3 app.py", w.surroundings, memo)).description).toBe(null)
      expect(w.listed).toContain(SITE)
      w.listed.length = 0
      expect((yield* judged("python3 app.py", w.surroundings, memo)).description).toBe(null)
      expect(outside(w.listed)).toEqual([])
      // Without the memo every request lists them.
      w.listed.length = 0
      yield* judgeIn("python3 app.py", w.surroundings)
      expect(w.listed).toContain(SITE)
    }))

  it.effect("a package installed since is seen: a file by its name beside the script is read", () =>
    Effect.gen(function*() {
      yield* TestClock.adjust("1 minute")
      const memo = installedPythonMemo()
      expect((yield* judged("python3 app.py", watched(installation).surroundings, memo)).description).toBe(null)
      // `pip install idna`: a new name in the site folder, whose time moves; then idna.py is planted beside app.py.
      const installed = { ...installation, [`${SITE}/idna/__init__.py`]: "", "/w/idna.py": EVIL_PY }
      const after = yield* judged("python3 app.py", watched(installed, { [SITE]: 30_000 }).surroundings, memo)
      expect(after.description).toBe("python code deletes or moves files")
      expect(after.note).toContain("idna.py")
      // A site folder that did not exist before (a first `pip install --user`) counts as well.
      const user = { ...installation, "/home/agent/.local/lib/python3.12/site-packages/six.py": "", "/w/six.py": EVIL_PY }
      expect((yield* judged("python3 app.py", watched(user).surroundings, memo)).description).toBe("python code deletes or moves files")
    }))

  it.effect("a folder changed moments before it was listed is listed again until its listing is settled", () =>
    Effect.gen(function*() {
      yield* TestClock.adjust("1 minute")
      const memo = installedPythonMemo()
      const w = watched(installation, { [SITE]: 59_500 })
      yield* judged("python3 app.py", w.surroundings, memo)
      w.listed.length = 0
      yield* judged("python3 app.py", w.surroundings, memo)
      expect(w.listed).toContain(SITE)
      // Listed again a while later, the folder's time is well before the listing: remembered from then on.
      yield* TestClock.adjust("10 seconds")
      yield* judged("python3 app.py", w.surroundings, memo)
      w.listed.length = 0
      yield* judged("python3 app.py", w.surroundings, memo)
      expect(outside(w.listed)).toEqual([])
    }))

  it.effect("other variables (an activated venv) are looked at anew", () =>
    Effect.gen(function*() {
      yield* TestClock.adjust("1 minute")
      const memo = installedPythonMemo()
      yield* judged("python3 app.py", watched(installation).surroundings, memo)
      const venv = { ...installation, "/w/.venv/bin/python3": "\u0000ELF", "/w/.venv/lib/python3.12/site-packages/idna/__init__.py": "", "/w/idna.py": EVIL_PY }
      const base = watched(venv).surroundings
      const activated: CommandSurroundings = { ...base, variables: Effect.succeed({ PATH: "/w/.venv/bin:/usr/bin:/bin", VIRTUAL_ENV: "/w/.venv" }) }
      expect((yield* judged("python3 app.py", activated, memo)).description).toBe("python code deletes or moves files")
    }))
})
