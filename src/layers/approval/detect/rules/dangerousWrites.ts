/** D32–D38: writes to sensitive files, and bulk deletes via xargs/find. */
import {
  containsPath,
  mentionsProjectFile,
  projectTarget,
  sensitiveTarget,
  sensitiveWriteAt
} from "../pathClasses.js"
import type { Rule } from "./engine.js"
import { hasEndingAt, hasTok, laterSome } from "./tokenMatchers.js"

const writes = (op: string | undefined): boolean => op !== undefined && op.endsWith(">")
const EXEC_RM = /^(?:\/\S*\/)?rm(?![\w])/

export const writeRules: ReadonlyArray<Rule> = [
  {
    kind: "word",
    description: "overwrite system file via tee",
    on: ["tee"],
    at: "any",
    test: (v, c, i) => laterSome(v, c, i, (x) => containsPath(x, sensitiveWriteAt))
  },
  {
    kind: "redirect",
    description: "overwrite system file via redirection",
    test: (_v, c, r) => writes(c.cmd.redirs[r]?.op) && sensitiveTarget(c.redirectTexts[r] ?? "")
  },
  {
    kind: "word",
    description: "overwrite project env/config via tee",
    on: ["tee"],
    at: "any",
    test: (v, c, i) => laterSome(v, c, i, mentionsProjectFile)
  },
  {
    kind: "redirect",
    description: "overwrite project env/config via redirection",
    test: (_v, c, r) => writes(c.cmd.redirs[r]?.op) && projectTarget(c.redirectTexts[r] ?? "")
  },
  {
    kind: "word",
    description: "xargs with rm",
    on: ["xargs"],
    at: "end",
    test: (v, c, i) => laterSome(v, c, i, (x) => hasTok(x, "rm"))
  },
  {
    kind: "word",
    description: "find -exec/-execdir rm",
    on: ["find"],
    at: "any",
    test: (_v, c, i) =>
      // -ok/-okdir run the same command once a "y" is read, and `yes |` gives it.
      c.texts.some((t, k) => k > i && /-(?:exec|ok)(?:dir)?$/.test(t) && EXEC_RM.test(c.texts[k + 1] ?? ""))
  },
  {
    kind: "word",
    description: "find -delete",
    on: ["find"],
    at: "any",
    test: (v, c, i) => laterSome(v, c, i, (x) => hasEndingAt(x, "-delete"))
  }
]
