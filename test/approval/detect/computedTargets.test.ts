/**
 * Write targets the shell completes when it runs. Where the line computes the value itself (echo/printf lists,
 * `git rev-parse --git-dir`, `$PWD`, a loop's pattern) it is judged as the path it is; where only the running
 * shell knows it (a file's text, a program's output, an array, a variable a persistent shell kept) the write needs
 * approval. Values that cannot steer a path (numbers, `mktemp`, `date`) stay quiet.
 */
import { describe, expect, it } from "@effect/vitest"
import type { DetectionEnv } from "../../../src/layers/approval/detect/detect.js"
import { D } from "../../../src/layers/approval/detect/descriptions.js"
import { detectCommand } from "../../../src/layers/approval/detect/detect.js"
import { GIT_EXEC_DESCRIPTION } from "../../../src/layers/approval/detect/implicitExec.js"
import { APPENDED_ARGUMENTS_DESCRIPTION } from "../../../src/layers/approval/detect/filledWords.js"
import { printedPath } from "../../../src/layers/approval/detect/resolve/printedPaths.js"

const ENV: DetectionEnv = { home: "/home/agent", hermesHome: "/home/agent/.hermes-effect", env: {} }
const said = (command: string, env: DetectionEnv = ENV) => [command, detectCommand(command, env).description]

describe("targets only the running shell knows", () => {
  it("a file's text, a program's output, read, a loop over input, xargs, an array: approval", () => {
    for (const command of [
      "d=$(cat f); cp x \"$d/pre-commit\"",
      "cp x \"$(cat f)/pre-commit\"",
      "printf x > \"$(< f)\"",
      "read d < f; cp x \"$d/pre-commit\"",
      "IFS= read -r d < f && cat x >> \"$d\"",
      "while read f; do echo x >> \"$f\"; done < list",
      "for f in $(cat list); do cp x \"$f\"; done",
      "cat list | xargs -I{} cp x {}/pre-commit",
      "xargs -a list -I{} cp x {}",
      "mapfile -t a < list; cp x \"${a[0]}\"",
      "tee \"$(head -n1 f)\" < x",
      "d=`tail -1 f`; mv x $d",
      "cp x \"${d:-$(cat f)}/y\"",
      "cp x \"${!name}\"",
      "set -- \"$(cat f)\"; cp x \"$1\"",
      "echo x > \"$OLDPWD/y\"",
      "sort -o \"$(cat f)\" x",
      "find . -name \"*.txt\" | xargs -I{} cp x {}",
      "find . -name config -exec sed -i s/a/b/ {} +",
      "find . ! -name \"*.py\" -exec sed -i s/a/b/ {} +",
      "find -L . -name \"*.py\" -exec sed -i s/a/b/ {} +",
      "find . -name \"*.py\" -exec sed --follow-symlinks -i s/a/b/ {} +",
      "cd \"$(cat f)\" && cp x pre-commit",
      "pushd $(cat f) && echo x >> config",
      "cd \"$(cat f)\" && tar xf /tmp/a.tar",
      "tar xf a.tar -C \"$(cat f)\"",
      "tar -xzf a.tgz --directory=\"$(cat f)\"",
      "unzip -o a.zip -d \"$(cat f)\"",
      "cd - && cp x pre-commit",
      "cd ~- && echo x >> config",
      "popd && cp x pre-commit",
      "pushd +1 >/dev/null; cp x pre-commit"
    ]) expect(said(command)).toEqual([command, D.computedWriteTarget])
  })

  it("a variable a persistent shell kept from an earlier call: approval; one the exports give: judged with them", () => {
    const held: DetectionEnv = { ...ENV, variables: {}, shellKeepsVariables: true }
    expect(said("cp x \"$d/pre-commit\"", held)).toEqual(["cp x \"$d/pre-commit\"", D.computedWriteTarget])
    expect(said("cp x \"$d/pre-commit\"", { ...ENV, variables: { d: ".git/hooks" } })).toEqual(["cp x \"$d/pre-commit\"", GIT_EXEC_DESCRIPTION])
    expect(said("cp x \"$d/notes\"", { ...ENV, variables: { d: "docs" } })).toEqual(["cp x \"$d/notes\"", null])
  })
})

describe("targets the line computes itself are judged as the paths they are", () => {
  it("printf lists, git rev-parse, $PWD and $(pwd), a loop's pattern", () => {
    for (const command of [
      "d=$(printf .gi; printf t); cp x $d/hooks/pre-commit",
      "cp x \"$(printf .git && printf /hooks)\"/pre-commit",
      "cp x \"$(git rev-parse --git-dir)/hooks/pre-commit\"",
      "echo x >> \"$(git rev-parse --git-path config)\"",
      "cd .git/hooks && cp x \"$PWD/pre-commit\"",
      "cd .git && echo x >> \"${PWD}/config\"",
      "cp x \"$(pwd)/.git/hooks/pre-commit\"",
      "cp x \"$(git rev-parse --show-toplevel)/.git/hooks/pre-commit\"",
      "for f in .git/hooks/*.sample; do cp x \"${f%.sample}\"; done",
      "cp x \"$(dirname .git/hooks/x)/pre-commit\""
    ]) expect(said(command)).toEqual([command, GIT_EXEC_DESCRIPTION])
  })

  it("numbers, mktemp, date, loops over patterns and counts stay quiet", () => {
    for (const command of [
      "tmp=$(mktemp); echo x > \"$tmp\"; rm -f \"$tmp\"",
      "d=$(mktemp -d); cp x \"$d/y\"; tar xf a.tar -C \"$d\"",
      "echo x > \"$(date +%F).log\"",
      "echo x > out.$$",
      "echo hi > /tmp/x.$RANDOM",
      "for f in *.js; do sed -i s/a/b/ \"$f\"; done",
      "for f in *.txt; do mv \"$f\" \"${f%.txt}.md\"; done",
      "for i in $(seq 3); do echo $i > out$i.txt; done",
      "n=$(wc -l < f); echo x > \"part$n\"",
      "echo x > \"$(pwd)/out.txt\"",
      "ls > \"$(git rev-parse --show-toplevel)/files.txt\"",
      "f() { echo x > \"$1\"; }; f out.txt",
      "echo x > \"$HOME/notes\"",
      "cp x \"$(basename a/b.txt .txt).md\"",
      "cd \"$(mktemp -d)\" && echo x > y && tar xf /tmp/a.tar",
      "cd \"$(cat f)\" && ls -la > /tmp/listing",
      "cd build && make && cd - && ls",
      "pushd src && cp a.txt b.txt && popd",
      "tar xf a.tar -C \"$(mktemp -d)\""
    ]) expect(said(command)).toEqual([command, null])
  })

  it("an in-place edit of the files a search held to one extension, or one that skips hidden files, lists", () => {
    for (const command of [
      "find . -name \"*.py\" -exec sed -i s/a/b/ {} +",
      "find src -type f -name \"*.ts\" -print0 | xargs -0 sed -i \"s/a/b/g\""
    ]) expect(said(command)).toEqual([command, null])
    // Names xargs splits at blanks and quotes can carry options (a planted `a -e '1e rm -rf x' b.py`): sed's and
    // perl's can run code, so these ask on that account (filledWords.ts), whatever the write targets.
    for (const command of [
      "grep -rl foo . | xargs sed -i s/foo/bar/g",
      "grep -rl foo src --include=\"*.py\" | xargs sed -i s/foo/bar/g",
      "git grep -l foo | xargs sed -i s/foo/bar/g",
      "git ls-files \"*.md\" | xargs perl -pi -e s/a/b/",
      "rg -l foo | xargs sed -i s/foo/bar/g",
      "fd -e py | xargs perl -pi -e s/a/b/",
      "rg -l --hidden foo | xargs sed -i s/foo/bar/g",
      "cat list | xargs sed -i s/a/b/"
    ]) expect(said(command)).toEqual([command, APPENDED_ARGUMENTS_DESCRIPTION])
  })
})

describe("what printing programs print", () => {
  it("mktemp: a fresh name, in the directory it is given", () => {
    expect(printedPath("mktemp", [])).toBe("tmp.XXXXXXXXXX")
    expect(printedPath("mktemp", ["-d", "-t", "build.XXXXXX"])).toBe("build.XXXXXX")
    expect(printedPath("mktemp", ["-p", "/tmp"])).toBe("tmp.XXXXXXXXXX")
    expect(printedPath("mktemp", ["-p", ".git/hooks"])).toBe(".git/hooks/tmp.XXXXXXXXXX")
    expect(printedPath("mktemp", ["out.XXX", "--suffix=.log"])).toBe("out.XXX.log")
    expect(printedPath("mktemp", ["--weird"])).toBeNull()
    expect(printedPath("mktemp", ["noXs"])).toBeNull()
  })
  it("date: the format's own characters (only %D, %x and %c print slashes or spaces)", () => {
    expect(printedPath("date", ["+%Y-%m-%d"])).toBe("0-0-0")
    expect(printedPath("date", ["+%D"])).toBe("01/01/26")
    expect(printedPath("date", ["-u", "+../%s"])).toBe("../0")
    expect(printedPath("date", ["--frobnicate"])).toBeNull()
  })
  it("git rev-parse, basename, dirname", () => {
    expect(printedPath("git", ["rev-parse", "--git-dir"])).toBe(".git")
    expect(printedPath("git", ["rev-parse", "--git-path", "hooks/pre-commit"])).toBe(".git/hooks/pre-commit")
    expect(printedPath("git", ["rev-parse", "HEAD"])).toBeNull()
    expect(printedPath("basename", ["/a/b/c.txt", ".txt"])).toBe("c")
    expect(printedPath("basename", ["-a", "x/y", "z/"])).toBe("y\nz")
    expect(printedPath("dirname", ["a/b/c"])).toBe("a/b")
    expect(printedPath("dirname", ["c"])).toBe(".")
    expect(printedPath("dirname", ["/c"])).toBe("/")
  })
})

describe("bash's history file", () => {
  const exported = (variables: Record<string, string>): DetectionEnv => ({ ...ENV, variables: { PATH: "/usr/bin", ...variables } })
  const GIT = "write to git config or hooks (commands git runs)"

  it("`history -a`/`-w` without a file name, and an interactive bash, write the HISTFILE the line or the exports give", () => {
    for (const command of [
      "HISTFILE=repo/.git/config; history -s '[core]'; history -a", "export HISTFILE=.git/hooks/pre-commit; history -w", "HISTFILE=x/.git/config history -aw",
      "HISTFILE=repo/.git/config bash --norc -i < cmds", "HISTFILE=.git/config bash -i", "f=.git/config; HISTFILE=$f; history -w"
    ]) {
      expect(said(command, exported({}))).toEqual([command, GIT])
    }
    for (const command of ["history -a", "history -w", "bash -i < cmds", "history -a; history -n"]) expect(said(command, exported({ HISTFILE: "w/.git/config" }))).toEqual([command, GIT])
    expect(said("HISTFILE=~/.bashrc; history -a", exported({}))).toEqual(["HISTFILE=~/.bashrc; history -a", "write to a shell start-up file"])
  })

  it("a persistent shell may hold a HISTFILE the exports do not show: approval", () => {
    const held: DetectionEnv = { ...ENV, variables: {}, shellKeepsVariables: true }
    for (const command of ["history -s '[core]'; history -a", "history -w"]) expect(said(command, held)).toEqual([command, D.computedWriteTarget])
  })

  it("unset, the default or an explicit ordinary file: quiet", () => {
    for (const [command, variables] of [
      ["history -a", {}], ["history -w", { HISTFILE: "/home/agent/.bash_history" }], ["history -c; history -r", {}], ["history -w notes.txt", {}], ["bash -i < cmds", {}],
      ["HISTFILE=/tmp/h bash -i", {}]
    ] as const) {
      expect(said(command, exported(variables))).toEqual([command, null])
    }
  })
})
