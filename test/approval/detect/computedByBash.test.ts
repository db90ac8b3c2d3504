/**
 * Values only bash can compute: text outside ASCII, which bash counts, matches and case-maps by characters with
 * glibc's tables (bytes in the C locale) and JavaScript by UTF-16 units with Unicode's, and `$"…"`, which bash
 * looks up in a message catalog first. Such a value is unknown (a computed command word); ASCII stays resolved.
 */
import { describe, expect, it } from "@effect/vitest"
import type { DetectionEnv } from "../../../src/layers/approval/detect/detect.js"
import { detectCommand, inspectCommand } from "../../../src/layers/approval/detect/detect.js"
import { D } from "../../../src/layers/approval/detect/descriptions.js"

const TESTER: DetectionEnv = { home: "/home/tester", hermesHome: "/home/tester/.hermes", env: {} }
const COMPUTED = "command name computed at run time"
const LOADER = D.loaderVariable

const detect = (command: string) => detectCommand(command, TESTER)

describe("values outside ASCII", () => {
  // What bash runs differs from what JavaScript's string operations give: each is hardline whatever it runs.
  const hardline: ReadonlyArray<readonly [string, string]> = [
    ["x=🙂rm; ${x#?} -rf /", "recursive delete of root filesystem"],
    ["x=🙂rm; ${x##?} -rf /", "recursive delete of root filesystem"],
    ["x=rm🙂; ${x%?} -rf /", "recursive delete of root filesystem"],
    ["x=rm🙂; ${x%%?} -rf /", "recursive delete of root filesystem"],
    ["x=🙂kill; ${x:1} -9 -1", "kill all processes"],
    ["x=🙂rmz; ${x:1:2} -rf /", "recursive delete of root filesystem"],
    ["x=zrm🙂; ${x: -3:2} -rf /", "recursive delete of root filesystem"],
    ["x=🙂rm; ${x/?/} -rf /", "recursive delete of root filesystem"],
    ["x=🙂rm; ${x//?(🙂)/} -rf /", "recursive delete of root filesystem"],
    ["x=r🙂m; ${x/[^a-z]/} -rf /", "recursive delete of root filesystem"],
    ["x=r🙂m; ${x/#r?/r} -rf /", "recursive delete of root filesystem"],
    ["x=🙂; y=xxrm; ${y:${#x}} -rf /", "recursive delete of root filesystem"],
    ["x=KİLL; ${x,,} -9 -1", "kill all processes"],
    ["x=KİLL; ${x@L} -9 -1", "kill all processes"],
    ["x=ıam; ${x^^} -rf /", "recursive delete of root filesystem"],
    ["x=İrm; ${x,} -rf /", "recursive delete of root filesystem"],
    ["declare -l x; x=KİLL; $x -9 -1", "kill all processes"],
    ["typeset -l x=KİLL; $x -9 -1", "kill all processes"],
    ["f() { local -l x=KİLL; $x -9 -1; }; f", "kill all processes"],
    ["declare -c x; x=kİLL; $x -9 -1", "kill all processes"],
    ["x=$'K\\xc4\\xb0LL'; ${x,,} -9 -1", "kill all processes"],
    ["x=$(printf 'K\\304\\260LL'); ${x,,} -9 -1", "kill all processes"],
    ["x=$(echo é | tr é rm); $x -rf /", "recursive delete of root filesystem"],
    ["x=$(printf %.2s 🙂rm); $x -rf /", "recursive delete of root filesystem"]
  ]
  it.each(hardline)("%s is hardline (%s)", (command, description) => {
    const d = detect(command)
    expect(d.dangerous).toBe(true)
    expect(d.hardline_description).toBe(description)
  })

  it("the finding is the computed command word", () => {
    expect(detect("x=🙂git; ${x#?} status").description).toBe(COMPUTED)
    expect(detect("x=GİT; ${x,,} status").description).toBe(COMPUTED)
  })

  // ASCII is worked out as before: resolved, judged by what runs, and quiet when harmless.
  it("ASCII values still resolve", () => {
    expect(detect("x=rm; $x -rf /").hardline).toBe(true)
    expect(detect("x=zrm; ${x#?} -rf /").hardline).toBe(true)
    expect(detect("x=RM; ${x,,} -rf /tmp/x").description).toBe("delete in root path")
    expect(detect("declare -l x; x=RM; $x -rf /").hardline).toBe(true)
    expect(detect("declare -u x=ls; $x -la").dangerous).toBe(false)
    for (const ok of ["x=README; echo ${x,,}", "x=src/main.ts; echo ${x%.ts}.js ${x:0:3} ${#x}", "x=ls; ${x^^} -la", "x=Ls; ${x,} -la"]) {
      const d = detect(ok)
      expect(d.dangerous, `${ok}: ${String(d.description)}`).toBe(false)
    }
  })

  it("echo and other harmless programs of such text stay quiet", () => {
    for (const ok of ["x=FİND; echo ${x,,}", "x=🙂ok; echo ${x#?} ${x:1} ${#x}", "printf '%s\\n' 'héllo'", "echo é | tr a-z A-Z"]) {
      const d = detect(ok)
      expect(d.dangerous, `${ok}: ${String(d.description)}`).toBe(false)
    }
  })
})

describe("$\"…\": text bash translates through a message catalog", () => {
  const hardline: ReadonlyArray<readonly [string, string]> = [
    ["$\"ls\" -rf /", "recursive delete of root filesystem"],
    ["x=$\"ls\"; $x -rf /", "recursive delete of root filesystem"],
    ["TEXTDOMAIN=x\n$\"ls\" -rf /", "recursive delete of root filesystem"],
    ["$\"true\" -9 -1", "kill all processes"]
  ]
  it.each(hardline)("%s is hardline (%s)", (command, description) => {
    const d = detect(command)
    expect(d.dangerous).toBe(true)
    expect(d.hardline_description).toBe(description)
  })

  it("a translated command word is computed; its substitutions are still read", () => {
    expect(detect("$\"ls\"").description).toBe(COMPUTED)
    expect(detect("echo $\"$(rm -rf /)\"").hardline).toBe(true)
    expect(inspectCommand("$\"ls\" -la", TESTER).detection.dangerous).toBe(true)
  })

  it("with a catalog folder named (TEXTDOMAINDIR in the line, the exports, or a kept shell) translated text may run $(…)", () => {
    const CODE = "runs as commands text that holds a value only known when it runs (eval, a trap action, watch, mapfile -C, compgen -W, an ssh remote command: a variable or a command's output there may hold $(…) or ;)"
    // Naming the folder is itself a variable that makes programs run code (a child bash reads its catalogs too).
    for (const command of ["TEXTDOMAINDIR=./loc TEXTDOMAIN=app; echo $\"hello\"", "export TEXTDOMAINDIR=$PWD/loc", "TEXTDOMAINDIR=./loc bash greet.sh"]) {
      expect([command, detect(command).description]).toEqual([command, LOADER])
    }
    expect(detectCommand("echo $\"hello\"", { ...TESTER, variables: { TEXTDOMAINDIR: "/w/loc" } }).description).toBe(CODE)
    expect(detectCommand("echo $\"hello\"", { ...TESTER, variables: {}, shellKeepsVariables: true }).description).toBe(CODE)
    // Without one, only the system's catalogs: the first look asks for the exports, which then settle it.
    expect(inspectCommand("echo $\"hello\"", TESTER).unresolved).toContain("TEXTDOMAINDIR")
    expect(detectCommand("echo $\"hello\"", { ...TESTER, variables: { TEXTDOMAIN: "app" } }).dangerous).toBe(false)
  })

  it("echo of translated text stays quiet, and \"…\" or '$\"' is plain text", () => {
    for (const ok of ["echo $\"hello\"", "printf '%s\\n' $\"Done\"", "echo \"$\"", "ls \"x\"", "echo '$\"ls\"'"]) {
      const d = detect(ok)
      expect(d.dangerous, `${ok}: ${String(d.description)}`).toBe(false)
    }
  })
})
