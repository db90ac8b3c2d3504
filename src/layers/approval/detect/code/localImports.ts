/**
 * Files a program loads by module name: from beside itself (a planted
 * `json.py` next to a script that says `import json`, `./lib.js` that it
 * requires) and from the directories of a module search path the task set
 * (`PYTHONPATH`, `NODE_PATH`, `PERL5LIB`, `RUBYLIB`), which come before the
 * standard library. They run as part of the program, so approval reads them
 * too. Pure: returns candidate paths relative to the directory searched; the
 * caller looks which exist.
 */
import { isBuiltin } from "node:module"
import type { CodeLanguage } from "../../../../services/Approval.js"
import { nodeImports, pythonImports } from "./imports.js"
import { lex } from "./lexer.js"

const MAX_CANDIDATES = 48

/** The variables whose directories each language searches for modules before its own library. */
export const MODULE_PATH_VARIABLES: Readonly<Partial<Record<CodeLanguage, ReadonlyArray<string>>>> = {
  python: ["PYTHONPATH"],
  node: ["NODE_PATH"],
  perl: ["PERL5LIB", "PERLLIB"],
  ruby: ["RUBYLIB"]
}

const collector = () => {
  const out: Array<string> = []
  const add = (p: string) => {
    if (out.length < MAX_CANDIDATES && !out.includes(p)) out.push(p)
  }
  return { out, add }
}

/** `import a.b` runs a/__init__.py, then a/b.py (or a/b/__init__.py); a top-level a.py shadows a package. */
const pythonModuleFiles = (mod: string, add: (p: string) => void): void => {
  if (!/^[A-Za-z_][\w.]*$/.test(mod)) return
  const parts = mod.split(".")
  add(`${parts[0]}.py`)
  for (let i = 1; i <= parts.length; i++) add(`${parts.slice(0, i).join("/")}/__init__.py`)
  if (parts.length > 1) add(`${parts.join("/")}.py`)
}

/** What `python -m mod` runs from a directory of the search path: the module, or a package's __main__.py. */
export const pythonMainCandidates = (mod: string): ReadonlyArray<string> => {
  const { add, out } = collector()
  pythonModuleFiles(mod, add)
  if (/^[A-Za-z_][\w.]*$/.test(mod)) add(`${mod.replace(/\./g, "/")}/__main__.py`)
  return out
}

/** The files a module loaded by name on the command line runs from a directory of the search path. */
export const moduleFileCandidates = (language: CodeLanguage, name: string): ReadonlyArray<string> => {
  if (language === "python") return pythonMainCandidates(name)
  if (language === "perl") return /^[A-Za-z_][\w:]*$/.test(name) ? [`${name.replace(/::/g, "/")}.pm`] : []
  if (language === "ruby") return /^[\w./-]+$/.test(name) && !name.startsWith(".") ? [name.endsWith(".rb") ? name : `${name}.rb`] : []
  return []
}

/** Modules `text` loads by name, as paths relative to a directory of its module search path. */
export const searchPathCandidates = (language: CodeLanguage, text: string): ReadonlyArray<string> => {
  const { add, out } = collector()
  if (language === "python") {
    for (const mod of pythonImports(lex(text, "python")).modules) pythonModuleFiles(mod, add)
  } else if (language === "node") {
    for (const spec of nodeImports(lex(text, "node")).modules) {
      // Built-ins cannot be shadowed; relative and absolute specifiers are not looked up on NODE_PATH.
      if (spec.startsWith("node:") || spec.startsWith(".") || spec.startsWith("/") || isBuiltin(spec)) continue
      if (!/^(?:@[\w.-]+\/)?[\w.-]+(?:\/[\w.-]+)*$/.test(spec)) continue
      for (const suffix of ["", ".js", ".cjs", ".mjs", ".json", "/index.js", "/index.cjs", "/index.mjs"]) add(`${spec}${suffix}`)
    }
  } else if (language === "perl") {
    // `use strict;` loads strict.pm from the first @INC directory that has it: PERL5LIB's come first.
    for (const m of text.matchAll(/^\s*(?:use|require|no)\s+([A-Za-z_][\w:]*)/gm)) add(`${(m[1] ?? "").replace(/::/g, "/")}.pm`)
  } else if (language === "ruby") {
    for (const m of text.matchAll(/\brequire\s*\(?\s*['"]([\w./-]+)['"]/g)) {
      const feature = m[1] ?? ""
      if (!feature.startsWith(".") && !feature.startsWith("/")) add(feature.endsWith(".rb") ? feature : `${feature}.rb`)
    }
  }
  return out
}

/** A string literal's text (single or double quotes, no escapes; `r"…"` too), or null. */
const literalText = (s: string): string | null => {
  const m = /^\s*[rR]?(?:'([^'\\\n]*)'|"([^"\\\n]*)")\s*$/.exec(s)
  return m === null ? null : (m[1] ?? m[2] ?? null)
}

/**
 * Directories a program adds to its own module search path with literal names before importing (python's
 * `sys.path.insert(0, "/x/lib")`, `sys.path.append`, `sys.path.extend([...])`, `site.addsitedir`, `sys.path[:0] =
 * [...]`; node's `module.paths.push`; perl's `use lib`): its imports are looked up there as on PYTHONPATH. Relative
 * ones count from the working directory, as the interpreter resolves them.
 */
export const codeSearchDirs = (language: CodeLanguage, text: string): ReadonlyArray<string> => {
  const out: Array<string> = []
  const add = (raw: string) => {
    for (const part of raw.split(",")) {
      const dir = literalText(part.replace(/^\s*\[|\]\s*$/g, ""))
      if (dir !== null && dir !== "" && !out.includes(dir) && out.length < 8) out.push(dir)
    }
  }
  if (language === "python") {
    for (const m of text.matchAll(/\bsys\.path\.insert\s*\(\s*[^,()]+,([^()]*)\)/g)) add(m[1] ?? "")
    for (const m of text.matchAll(/\b(?:sys\.path\.(?:append|extend)|site\.addsitedir)\s*\(([^()]*)\)/g)) add(m[1] ?? "")
    for (const m of text.matchAll(/\bsys\.path(?:\s*\[[^\]]*\])?\s*\+?=\s*(\[[^\]]*\])/g)) add(m[1] ?? "")
  } else if (language === "node") {
    for (const m of text.matchAll(/\b(?:module|require\.main)\.paths\.(?:push|unshift)\s*\(([^()]*)\)/g)) add(m[1] ?? "")
  } else if (language === "perl") {
    // `use lib 'lib';`, `use lib qw(lib t/lib);`: folders put before perl's own library for the modules used after.
    for (const m of text.matchAll(/^\s*use\s+lib\s+(?:qw\s*(?:\(([^)]*)\)|\[([^\]]*)\]|\{([^}]*)\})|((?:['"][^'"\n]*['"]\s*,?\s*)+))\s*;/gm)) {
      const words = m[1] ?? m[2] ?? m[3]
      if (words === undefined) {
        add(m[4] ?? "")
        continue
      }
      for (const dir of words.trim().split(/\s+/)) if (dir !== "" && out.length < 8 && !out.includes(dir)) out.push(dir)
    }
  }
  return out
}

/** `pytest_plugins = ["a.b", "c"]` (or one string) in a conftest: modules pytest imports. */
const pytestPlugins = (text: string): ReadonlyArray<string> => {
  const m = /^pytest_plugins\s*=\s*([\s\S]*?)(?:\n\S|$)/m.exec(text)
  return m === null ? [] : [...(m[1] ?? "").matchAll(/['"]([A-Za-z_][\w.]*)['"]/g)].map((x) => x[1] ?? "")
}

export const localImportCandidates = (language: CodeLanguage, text: string): ReadonlyArray<string> => {
  const { add, out } = collector()
  if (language === "python") {
    for (const mod of pythonImports(lex(text, "python")).modules) pythonModuleFiles(mod, add)
    for (const mod of pytestPlugins(text)) pythonModuleFiles(mod, add)
  } else if (language === "node") {
    for (const spec of nodeImports(lex(text, "node")).modules) {
      // Relative to the script, or absolute (`require("/tmp/x/lib.js")`: joining keeps an absolute path as it is).
      if (!spec.startsWith("./") && !spec.startsWith("../") && !spec.startsWith("/")) continue
      for (const suffix of ["", ".js", ".cjs", ".mjs", "/index.js", "/index.cjs", "/index.mjs"]) add(`${spec}${suffix}`)
    }
  }
  return out
}
