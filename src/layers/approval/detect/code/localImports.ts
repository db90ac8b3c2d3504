/**
 * Files a python or node program loads from beside itself: a planted
 * `json.py` next to a script that says `import json`, or `./lib.js` that a
 * script requires, runs as part of it, so approval reads those too. Pure:
 * returns candidate paths relative to the script's directory; the caller
 * looks which exist.
 */
import type { CodeLanguage } from "../../../../services/Approval.js"
import { nodeImports, pythonImports } from "./imports.js"
import { lex } from "./lexer.js"

const MAX_CANDIDATES = 48

export const localImportCandidates = (language: CodeLanguage, text: string): ReadonlyArray<string> => {
  const out: Array<string> = []
  const add = (p: string) => {
    if (out.length < MAX_CANDIDATES && !out.includes(p)) out.push(p)
  }
  if (language === "python") {
    for (const mod of pythonImports(lex(text, "python")).modules) {
      if (!/^[A-Za-z_][\w.]*$/.test(mod)) continue
      const parts = mod.split(".")
      // `import a.b` runs a/__init__.py, then a/b.py (or a/b/__init__.py); a top-level a.py shadows a package.
      add(`${parts[0]}.py`)
      for (let i = 1; i <= parts.length; i++) add(`${parts.slice(0, i).join("/")}/__init__.py`)
      if (parts.length > 1) add(`${parts.join("/")}.py`)
    }
  } else if (language === "node") {
    for (const spec of nodeImports(lex(text, "node")).modules) {
      if (!spec.startsWith("./") && !spec.startsWith("../")) continue
      for (const suffix of ["", ".js", ".cjs", ".mjs", "/index.js", "/index.cjs", "/index.mjs"]) add(`${spec}${suffix}`)
    }
  }
  return out
}
