/**
 * `make` and `npm test`-style commands run shell text from project files: the
 * gate must find which text a command would run (targets, prerequisites,
 * lifecycle scripts, directory options) so it can judge it before it runs.
 */
import { describe, expect, it } from "@effect/vitest"
import {
  ctestFile,
  dotenvAssignments,
  localDependencies,
  localPackages,
  localPackageSpec,
  makeRecipes,
  ninjaCommands,
  npmrcAssignments,
  packageScriptText,
  runnerOf,
  workspacePatterns,
  yarnPath
} from "../../../src/layers/approval/policy/projectRunners.js"

describe("project runners", () => {
  it("knows which commands run project scripts, and in which directory", () => {
    expect(runnerOf("make", ["-C", "sub", "build"])).toMatchObject({ kind: "make", dir: "sub", targets: ["build"] })
    expect(runnerOf("make", ["-f", "other.mk"])).toMatchObject({ kind: "make", files: ["other.mk"], targets: [] })
    expect(runnerOf("make", ["-j4", "CC=clang", "all"])).toMatchObject({ kind: "make", targets: ["all"] })
    expect(runnerOf("npm", ["test"])).toEqual({ kind: "package", dir: undefined, scripts: ["pretest", "test", "posttest"], tool: "npm" })
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

  it("knows the scripts npm's other commands run: pack, publish, version, rebuild, restart, and what reifies the tree", () => {
    expect(runnerOf("npm", ["pack", "--dry-run"])).toMatchObject({ scripts: ["prepack", "prepare", "postpack"] })
    expect(runnerOf("npm", ["publish"])).toMatchObject({ scripts: ["prepublishOnly", "prepack", "prepare", "postpack", "publish", "postpublish"] })
    expect(runnerOf("npm", ["version", "patch"])).toMatchObject({ scripts: ["preversion", "version", "postversion"] })
    expect(runnerOf("npm", ["rebuild"])).toMatchObject({ scripts: expect.arrayContaining(["install", "postinstall"]) })
    expect(runnerOf("npm", ["restart"])).toMatchObject({ scripts: expect.arrayContaining(["prestop", "start"]) })
    for (const verb of ["ci", "link", "update", "dedupe", "uninstall", "it"]) {
      expect(runnerOf("npm", [verb]), verb).toMatchObject({ installs: true, scripts: expect.arrayContaining(["preinstall"]) })
    }
    // yarn's and pnpm's own verbs, not scripts of those names.
    expect(runnerOf("pnpm", ["add"])).toMatchObject({ installs: true })
    expect(runnerOf("yarn", ["build"])).toMatchObject({ scripts: ["prebuild", "build", "postbuild"] })
  })

  it("a local package an install names runs its own scripts; a registry package's are not the project's", () => {
    expect(localPackageSpec("../pkg")).toBe("../pkg")
    expect(localPackageSpec("file:./x")).toBe("./x")
    expect(localPackageSpec("dep@file:../dep")).toBe("../dep")
    expect(localPackageSpec("link:/opt/lib")).toBe("/opt/lib")
    for (const spec of ["left-pad", "@scope/pkg@1.2.0", "user/repo", "https://example.com/x.tgz"]) expect(localPackageSpec(spec), spec).toBeNull()
    expect(localPackages("npm", ["install", "left-pad", "../a", "./b.tgz"])).toEqual([
      { kind: "package", dir: "../a", scripts: expect.arrayContaining(["postinstall"]), installs: true },
      { kind: "package", dir: "./b.tgz", scripts: expect.arrayContaining(["postinstall"]), installs: true, archive: true }
    ])
    expect(localPackages("npm", ["test", "../a"])).toEqual([])
    const pkg = JSON.stringify({
      dependencies: { a: "file:../a", b: "^1.0.0" },
      devDependencies: { c: "link:./c" },
      workspaces: ["packages/*", "tools/cli"]
    })
    expect(localDependencies(pkg)).toEqual(["../a", "./c"])
    expect(workspacePatterns(pkg)).toEqual(["packages/*", "tools/cli"])
    expect(workspacePatterns(JSON.stringify({ workspaces: { packages: ["libs/*"] } }))).toEqual(["libs/*"])
    expect(localDependencies("{")).toEqual([])
  })

  it("ninja: the commands the wanted targets need, expanded as ninja expands them", () => {
    const file = [
      "cc = gcc",
      "rule compile",
      "  command = $cc -c $in -o $out",
      "rule link",
      "  command = $cc $in -o $out $extra",
      "rule wipe",
      "  command = rm -rf $$HOME/x",
      "build a.o: compile a.c",
      "build app: link a.o | dep.h",
      "  extra = -lm",
      "build clean: wipe",
      "default app"
    ].join("\n")
    expect(ninjaCommands(file)).toBe("gcc -c a.c -o a.o\ngcc a.o -o app -lm")
    expect(ninjaCommands(file, ["clean"])).toBe("rm -rf $HOME/x")
    // No `default`: every output no edge takes as input; `$` + newline continues a line; an unknown variable stays one.
    expect(ninjaCommands("rule r\n  command = ec$\n    ho $unknown\nbuild x: r\n")).toBe("echo ${unknown}")
    // CMake's regeneration check, alone and plain, is left out; smuggled beside something else it is not.
    expect(ninjaCommands("rule RERUN\n  command = /usr/bin/cmake --regenerate-during-build -S/src -B/src/b\nbuild build.ninja: RERUN\n")).toBe("")
    expect(ninjaCommands("rule RERUN\n  command = /usr/bin/cmake --regenerate-during-build -S/src; rm -rf /x\nbuild build.ninja: RERUN\n")).toContain("rm -rf /x")
    expect(runnerOf("ninja", ["-C", "build", "app"])).toEqual({ kind: "ninja", dir: "build", file: "build.ninja", targets: ["app"] })
    expect(runnerOf("ninja", ["-t", "targets"])).toBeNull()
  })

  it("ctest: the commands its test list runs, their environment, its subdirectories; other CMake code is opaque", () => {
    const tests = ctestFile([
      "# CMake generated Testfile",
      "add_test([=[unit]=] \"/build/unit\" \"--gtest_brief=1\")",
      "set_tests_properties([=[unit]=] PROPERTIES  ENVIRONMENT \"LD_PRELOAD=/tmp/x.so;LANG=C\" _BACKTRACE_TRIPLES \"/s/CMakeLists.txt;4;add_test\")",
      "add_test(NAME other COMMAND sh -c \"echo hi\")",
      "subdirs(\"lib\")"
    ].join("\n"))
    expect(tests.opaque).toBe(false)
    expect(tests.commands.split("\n")).toEqual(["'/build/unit' '--gtest_brief=1'", "LD_PRELOAD='/tmp/x.so' LANG='C' x", "'sh' '-c' 'echo hi'"])
    expect(tests.subdirs).toEqual(["lib"])
    expect(ctestFile("execute_process(COMMAND rm -rf /x)\n").opaque).toBe(true)
    expect(ctestFile("include(\"/tmp/more.cmake\")\n").opaque).toBe(true)
    expect(runnerOf("ctest", ["--test-dir", "build", "-j4"])).toEqual({ kind: "ctest", dir: "build" })
    expect(runnerOf("ctest", ["-N"])).toBeNull()
  })

  it("yarn runs the file .yarnrc.yml's yarnPath names, whatever the command", () => {
    expect(yarnPath("nodeLinker: node-modules\nyarnPath: .yarn/releases/yarn-4.1.0.cjs\n")).toBe(".yarn/releases/yarn-4.1.0.cjs")
    expect(yarnPath("yarnPath: './evil.cjs'\n")).toBe("./evil.cjs")
    expect(yarnPath("nodeLinker: pnp\n")).toBeNull()
    expect(runnerOf("yarn", ["--version"])).toMatchObject({ kind: "package", tool: "yarn" })
    expect(runnerOf("pnpm", ["ls"])).toMatchObject({ kind: "package", tool: "pnpm" })
  })

  it("node --env-file: the file's variables as assignments, so the variable rules judge NODE_OPTIONS there", () => {
    expect(runnerOf("node", ["--env-file=.env", "--env-file-if-exists", "local.env", "app.js"])).toEqual({ kind: "envFile", dir: undefined, files: [".env", "local.env"] })
    expect(runnerOf("node", ["app.js", "--env-file=x"])).toBeNull()
    expect(dotenvAssignments("# c\nA=1\nexport B=\"two words\"\nNODE_OPTIONS=--require ./pre.js # why\n\nnot a line\n")).toBe(
      "A='1' B='two words' NODE_OPTIONS='--require ./pre.js'"
    )
  })
})
