/**
 * The module files a program loads by name, as candidates relative to a
 * directory searched: beside the script (python, node) and on a module search
 * path the task set (PYTHONPATH, NODE_PATH, PERL5LIB, RUBYLIB), which comes
 * before the language's own library.
 */
import { describe, expect, it } from "@effect/vitest"
import { localImportCandidates, pythonMainCandidates, searchPathCandidates } from "../../../src/layers/approval/detect/code/localImports.js"

describe("module files a program loads by name", () => {
  it("python: each import's module, its packages' __init__.py, and a top-level file shadowing the package", () => {
    const text = "import json\nfrom os import path\nimport xml.dom.minidom as m\n"
    expect(searchPathCandidates("python", text)).toEqual([
      "json.py", "json/__init__.py",
      "os.py", "os/__init__.py",
      "xml.py", "xml/__init__.py", "xml/dom/__init__.py", "xml/dom/minidom/__init__.py", "xml/dom/minidom.py"
    ])
    expect(searchPathCandidates("python", text)).toEqual(localImportCandidates("python", text))
  })

  it("python -m: the module, or the package's __main__.py", () => {
    expect(pythonMainCandidates("json.tool")).toEqual(["json.py", "json/__init__.py", "json/tool/__init__.py", "json/tool.py", "json/tool/__main__.py"])
    expect(pythonMainCandidates("tasks")).toEqual(["tasks.py", "tasks/__init__.py", "tasks/__main__.py"])
    expect(pythonMainCandidates("$(x)")).toEqual([])
  })

  it("node: bare specifiers on NODE_PATH, never built-ins or relative ones", () => {
    const text = "const fs = require('fs')\nconst p = require('node:path')\nconst l = require('leftpad')\nimport x from '@scope/pkg/sub'\nrequire('./local')\n"
    expect(searchPathCandidates("node", text)).toEqual([
      "leftpad", "leftpad.js", "leftpad.cjs", "leftpad.mjs", "leftpad.json", "leftpad/index.js", "leftpad/index.cjs", "leftpad/index.mjs",
      "@scope/pkg/sub", "@scope/pkg/sub.js", "@scope/pkg/sub.cjs", "@scope/pkg/sub.mjs", "@scope/pkg/sub.json", "@scope/pkg/sub/index.js",
      "@scope/pkg/sub/index.cjs", "@scope/pkg/sub/index.mjs"
    ])
    // Beside the script only relative requires are files.
    expect(localImportCandidates("node", text).every((p) => p.startsWith("./local"))).toBe(true)
  })

  it("perl: every use, require and no, pragmas included (strict.pm on PERL5LIB shadows perl's)", () => {
    expect(searchPathCandidates("perl", "use strict;\nuse warnings;\nuse File::Path qw(rmtree);\nrequire Foo::Bar;\nno integer;\n")).toEqual([
      "strict.pm", "warnings.pm", "File/Path.pm", "Foo/Bar.pm", "integer.pm"
    ])
  })

  it("ruby: required features, not relative ones", () => {
    expect(searchPathCandidates("ruby", "require 'json'\nrequire \"net/http\"\nrequire_relative 'x'\nrequire './y'\n")).toEqual(["json.rb", "net/http.rb"])
  })

  it("php and shell load nothing by module name here", () => {
    expect(searchPathCandidates("php", "<?php require 'x.php';")).toEqual([])
    expect(searchPathCandidates("shell", "source x")).toEqual([])
  })
})
