/**
 * Names Object.prototype answers (`constructor`, `toString`, `__proto__`…) as program names, options, variables
 * and keys: the detector's tables have no prototype, so they judge like any other name, never throw, and an
 * exported `__proto__` is a variable like any other. A bug that does throw refuses the command with a verdict.
 */
import { describe, expect, it } from "@effect/vitest"
import { detectCode } from "../../../src/layers/approval/detect/code/detectCode.js"
import { detectCommand } from "../../../src/layers/approval/detect/detect.js"
import { DETECTOR_FAILURE_DESCRIPTION } from "../../../src/layers/approval/detect/descriptions.js"
import { parseExportSnapshot } from "../../../src/layers/terminal/exportSnapshot.js"

const NAMES = [
  "constructor", "__proto__", "toString", "valueOf", "hasOwnProperty", "isPrototypeOf", "propertyIsEnumerable",
  "toLocaleString", "__defineGetter__", "__lookupGetter__"
]
const FORMS = (n: string): ReadonlyArray<string> => [
  `${n} -qc x`, `$${n} -rf d`, `rm -rf $${n}`, `echo \${${n}}`, `git ${n}`, `${n}=1 ls`, `export ${n}=rm; ls`, `npm ${n}`,
  `sudo ${n}`, `git -c alias.${n}=x ${n}`, `timeout 1 ${n}`, n, `x=${n}; $x`, `kubectl ${n}`, `psql -c ${n}`,
  `cd ${n}; ./x`, `[[ ${n} -eq 1 ]]`, `echo $((${n}))`, `find . -${n}`, `tar --${n}`, `make ${n}`, `python3 -m ${n}`,
  `env ${n}=1 x`, `script -${n} x`, `strace -o ${n} x`
]
const ENV = { home: "/home/agent", hermesHome: "/home/agent/.hermes-effect", env: {}, variables: { PATH: "/usr/bin" } }

describe("names Object.prototype answers", () => {
  it("judge as any other name in every position, with and without the task's exports", () => {
    for (const n of NAMES) {
      for (const command of FORMS(n)) {
        for (const env of [ENV, { home: "/home/agent", hermesHome: "/home/agent/.hermes-effect", env: {} }]) {
          expect([command, detectCommand(command, env).description]).not.toEqual([command, DETECTOR_FAILURE_DESCRIPTION])
        }
      }
    }
  })

  it("in interpreter code too", () => {
    for (const language of ["python", "node", "perl", "ruby", "php"] as const) {
      for (const n of NAMES) {
        for (const code of [`${n}("x")`, `import ${n}\n${n}.${n}("x")`, `x.${n}(y)`, `require("${n}")`, `${n} "x"`, `os.system("${n} -qc x")`]) {
          expect([language, code, detectCode(language, code, ENV).description]).not.toEqual([language, code, DETECTOR_FAILURE_DESCRIPTION])
        }
      }
    }
  })

  it("an exported __proto__, toString or constructor holds its value: the command word it names is judged", () => {
    const variables = parseExportSnapshot("declare -x __proto__=\"rm\"\ndeclare -x toString=\"rm\"\ndeclare -x constructor=\"rm\"\n")
    expect(Object.keys(variables).sort()).toEqual(["__proto__", "constructor", "toString"])
    for (const n of ["__proto__", "toString", "constructor"]) {
      expect(detectCommand(`$${n} -rf d`, { ...ENV, variables }).description).toBe("recursive delete")
    }
    // Not exported: unset, so the line runs `-rf d`, which is no program.
    expect(detectCommand("$valueOf -rf d", { ...ENV, variables }).dangerous).toBe(false)
  })
})
