/** D01–D10: deletes and permission changes. */
import type { CmdView } from "../ruleInput.js"
import type { Rule } from "./engine.js"
import { isLong } from "./operands.js"
import { endsTok, hasTokAny, isDash, laterSome, skipDashes, startsTok, startsTokAny } from "./tokenMatchers.js"

const RM = ["rm"]
const WORLD_WRITABLE = /^(?:777|666|o\+[rwx]*w|a\+[rwx]*w)(?![\w])/
const WORLD_WRITABLE_ANYWHERE = /777|666|o\+[rwx]*w|a\+[rwx]*w/
const PS_VERBS = ["remove-item", "rmdir", "erase", "del", "rd", "ri", "rm"]

const isPowerShell = (t: string): boolean =>
  ["powershell", "pwsh", "powershell.exe", "pwsh.exe"].some((n) => endsTok(t, n))

const unquoteStart = (t: string): string => (t.startsWith('"') || t.startsWith("'") ? t.slice(1) : t)

/** The options of rm at `i`, up to `--`: GNU getopt takes them after operands too (`rm -f x -r`). */
const rmOptions = (c: CmdView, i: number): ReadonlyArray<string> => {
  const out: Array<string> = []
  for (let k = i + 1; k < c.texts.length; k++) {
    const t = c.texts[k] ?? ""
    if (t === "--") break
    if (isDash(t)) out.push(t)
  }
  return out
}

export const deleteRules: ReadonlyArray<Rule> = [
  {
    kind: "word",
    description: "delete in root path",
    on: RM,
    at: "end",
    // rm, its options, then an operand written as an absolute path.
    test: (_v, c, i) => c.texts[skipDashes(c, i + 1)]?.startsWith("/") === true
  },
  {
    kind: "word",
    description: "recursive delete",
    on: RM,
    at: "end",
    // Hermes looks at the first option only; `rm -f -r d` is as recursive as `rm -rf d`.
    test: (_v, c, i) => rmOptions(c, i).some((flag) => !flag.startsWith("--") && flag.indexOf("r", 1) > 0)
  },
  {
    kind: "word",
    description: "recursive delete (long flag)",
    on: RM,
    at: "end",
    // Any of its options, abbreviated as getopt allows (`--rec`).
    test: (_v, c, i) => startsTok(c.texts[i + 1] ?? "", "--recursive") || rmOptions(c, i).some((flag) => isLong(flag, "--recursive", "--r"))
  },
  {
    kind: "word",
    description: "Windows cmd destructive delete",
    on: ["cmd", "exe"],
    at: "end",
    test: (v, c, i) => {
      const t = c.texts[i] ?? ""
      if (!endsTok(t, "cmd") && !endsTok(t, "cmd.exe")) return false
      const sw = c.texts[i + 1]
      return (sw === "/c" || sw === "/k") && laterSome(v, c, i + 1, (x) => hasTokAny(x, ["del", "erase", "rd", "rmdir"]))
    }
  },
  {
    kind: "word",
    description: "Windows PowerShell destructive delete",
    on: ["powershell", "pwsh", "exe"],
    at: "end",
    // The verb is PowerShell's default positional argument, after any -Switches.
    test: (_v, c, i) => isPowerShell(c.texts[i] ?? "") && startsTokAny(unquoteStart(c.texts[skipDashes(c, i + 1)] ?? ""), PS_VERBS)
  },
  {
    kind: "word",
    description: "PowerShell encoded command execution",
    on: ["powershell", "pwsh"],
    at: "any",
    test: (v, c, i) => laterSome(v, c, i, (x) => startsTokAny(x, ["-encodedcommand", "-enc", "-e"]))
  },
  {
    kind: "word",
    description: "world/other-writable permissions",
    on: ["chmod"],
    at: "end",
    test: (_v, c, i) => WORLD_WRITABLE.test(c.texts[skipDashes(c, i + 1)] ?? "")
  },
  {
    kind: "word",
    description: "recursive world/other-writable (long flag)",
    on: ["chmod"],
    at: "end",
    test: (v, c, i) =>
      startsTok(c.texts[i + 1] ?? "", "--recursive") && laterSome(v, c, i + 1, (x) => WORLD_WRITABLE_ANYWHERE.test(x))
  },
  {
    kind: "word",
    description: "recursive chown to root",
    on: ["chown"],
    at: "end",
    test: (_v, c, i) => /^(?:-\S*)?r$/.test(c.texts[i + 1] ?? "") && (c.texts[i + 2] ?? "").startsWith("root")
  },
  {
    kind: "word",
    description: "recursive chown to root (long flag)",
    on: ["chown"],
    at: "end",
    test: (v, c, i) => /^--recur[a-z]*(?![\w])/.test(c.texts[i + 1] ?? "") && laterSome(v, c, i + 1, (x) => x.includes("root"))
  }
]
