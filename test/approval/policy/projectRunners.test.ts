/**
 * `make` and `npm test`-style commands run shell text from project files: the
 * gate must find which text a command would run (targets, prerequisites,
 * lifecycle scripts, directory options) so it can judge it before it runs.
 */
import { describe, expect, it } from "@effect/vitest"
import { makeRecipes, npmrcAssignments, packageScriptText, runnerOf } from "../../../src/layers/approval/policy/projectRunners.js"

describe("project runners", () => {
  it("knows which commands run project scripts, and in which directory", () => {
    expect(runnerOf("make", ["-C", "sub", "build"])).toMatchObject({ kind: "make", dir: "sub", targets: ["build"] })
    expect(runnerOf("make", ["-f", "other.mk"])).toMatchObject({ kind: "make", files: ["other.mk"], targets: [] })
    expect(runnerOf("make", ["-j4", "CC=clang", "all"])).toMatchObject({ kind: "make", targets: ["all"] })
    expect(runnerOf("npm", ["test"])).toEqual({ kind: "package", dir: undefined, scripts: ["pretest", "test", "posttest"] })
    expect(runnerOf("npm", ["--prefix", "pkg", "run", "build"])).toMatchObject({ dir: "pkg", scripts: ["prebuild", "build", "postbuild"] })
    expect(runnerOf("npm", ["--prefix=pkg", "t"])).toMatchObject({ dir: "pkg", scripts: ["pretest", "test", "posttest"] })
    expect(runnerOf("yarn", ["lint"])).toMatchObject({ scripts: ["prelint", "lint", "postlint"] })
    expect(runnerOf("pnpm", ["-C", "web", "run", "dev"])).toMatchObject({ dir: "web", scripts: ["predev", "dev", "postdev"] })
    // A dependency's install scripts are the registry's, not the project's; other programs run none.
    expect(runnerOf("npm", ["install", "left-pad"])).toBeNull()
    expect(runnerOf("npm", ["--version"])).toBeNull()
    expect(runnerOf("git", ["status"])).toBeNull()
  })

  it("test runners walk directories for the files they import", () => {
    const pytest = runnerOf("pytest", ["-q", "-k", "slow"])
    expect(pytest).toMatchObject({ kind: "tests", roots: ["."] })
    expect(runnerOf("python3", ["-m", "pytest", "tests", "pkg/test_a.py::t"])).toMatchObject({ kind: "tests", roots: ["tests"] })
    // Named files only: nothing to walk (they are read as scripts).
    expect(runnerOf("pytest", ["tests/test_a.py"])).toBeNull()
    const pattern = pytest?.kind === "tests" ? pytest.pattern : /^$/
    expect(["test_a.py", "a_test.py", "testing.py", "conftest.py", "test_a.txt"].filter((n) => pattern.test(n))).toEqual(["test_a.py", "a_test.py"])
    const discover = runnerOf("python3", ["-m", "unittest", "discover", "-s", "src", "-p", "check_*.py"])
    expect(discover).toMatchObject({ kind: "tests", roots: ["src"] })
    expect(discover?.kind === "tests" && discover.pattern.test("check_x.py") && !discover.pattern.test("test_x.py")).toBe(true)
    expect(runnerOf("python3", ["-m", "unittest"])).toMatchObject({ kind: "tests", roots: ["."] })
    expect(runnerOf("python3", ["-m", "unittest", "test_x"])).toBeNull()
    expect(runnerOf("python3", ["app.py"])).toBeNull()
  })

  it("collects the recipes a target needs, prerequisites first, with make variables substituted", () => {
    const makefile = [
      "RM := rm -rf",
      "OUT = build",
      "all: clean compile",
      "clean:",
      "\t@$(RM) $(OUT)",
      "compile: ; cc -o $@ main.c",
      "other:",
      "\techo never"
    ].join("\n")
    const text = makeRecipes(makefile, [])
    expect(text).toContain("rm -rf build")
    expect(text).toContain("cc -o target main.c")
    expect(text).not.toContain("never")
    expect(makeRecipes(makefile, ["other"])).toBe("echo never")
    // `$(shell …)` runs while make reads the file, whatever the target.
    expect(makeRecipes("X := $(shell rm -rf /tmp/x)\nall:\n\ttrue\n", [])).toContain("rm -rf /tmp/x")
  })

  it("reads the named package.json scripts; a file that is not JSON yields nothing to judge", () => {
    const pkg = JSON.stringify({ scripts: { pretest: "sh wipe.sh", test: "vitest", lint: "eslint ." } })
    expect(packageScriptText(pkg, ["pretest", "test", "posttest"])).toBe("sh wipe.sh\nvitest")
    expect(packageScriptText("{", ["test"])).toBeNull()
    expect(packageScriptText("{}", ["test"])).toBe("")
  })

  it("reads an .npmrc as the variables it stands for, so the variable rules judge it", () => {
    expect(npmrcAssignments("registry=https://r.example\n; comment\nscript-shell = ./x.sh\nnode-options=\"--require ./pre.js\"\n")).toBe(
      "npm_config_script_shell='./x.sh' NODE_OPTIONS='--require ./pre.js'"
    )
    expect(npmrcAssignments("save-exact=true\nprefix=~/.npm-global\n")).toBe("")
    expect(npmrcAssignments("editor=it's")).toBe("EDITOR='it'\\''s'")
  })
})
