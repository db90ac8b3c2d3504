/**
 * The same destructive operation spelled another way must be rated as it is
 * spelled plainly: options quoted or abbreviated as getopt allows, placed
 * after other options or behind git's own, handed over in an array or the
 * positional parameters; and deleting through programs whose own command
 * deletes (rsync --delete, cmake -E, ninja -t clean). Ordinary use of the
 * same programs stays quiet.
 */
import { describe, expect, it } from "@effect/vitest"
import { D } from "../../../src/layers/approval/detect/descriptions.js"
import type { DetectionEnv } from "../../../src/layers/approval/detect/detect.js"
import { detectCommand } from "../../../src/layers/approval/detect/detect.js"

const AGENT: DetectionEnv = { home: "/home/agent", hermesHome: "/home/agent/.hermes-effect", env: {} }
const dangerous = (command: string) => detectCommand(command, AGENT).description
const RESET = "git reset --hard (destroys uncommitted changes)"
const CLEAN = "git clean with force (deletes untracked files)"
const PUSH = "git force push (rewrites remote history)"
const BRANCH = "git branch force delete"

const expectTable = (rows: ReadonlyArray<readonly [string, string]>) => {
  for (const [command, description] of rows) expect([command, dangerous(command)]).toEqual([command, description])
}
const expectQuiet = (commands: ReadonlyArray<string>) => {
  for (const command of commands) expect([command, dangerous(command)]).toEqual([command, null])
}

describe("git's destructive operations, however the line is arranged", () => {
  it("behind git's own options, with the flag anywhere among the subcommand's", () => {
    expectTable([
      ["git -C repo reset --hard", RESET],
      ["git --git-dir=.git --work-tree=. reset --hard", RESET],
      ["git reset -q --hard", RESET],
      ["git reset HEAD~3 --hard", RESET],
      ["git reset '--hard'", RESET],
      ["git -c core.pager=cat clean -f", CLEAN],
      ["git clean -d -f", CLEAN],
      ["git clean -x -d --force .", CLEAN],
      ["git --no-pager clean -ffdx", CLEAN],
      ["git -C repo push --force", PUSH],
      ["git push -uf origin main", "git force push short flag (rewrites remote history)"],
      ["git -C repo branch -D topic", BRANCH],
      ["git branch -v -D topic", BRANCH]
    ])
  })

  it("clean without -f (requireForce can be off), pushes that force or delete through their refspecs", () => {
    expectTable([
      ["git clean -dx", CLEAN],
      ["git -c clean.requireForce=false clean -d", CLEAN],
      ["git push origin +main", PUSH],
      ["git push origin :old-branch", PUSH],
      ["git push --delete origin topic", PUSH],
      ["git push --mirror backup", PUSH],
      ["git push --prune origin", PUSH]
    ])
  })

  it("work thrown away as reset --hard throws it: forced checkout or switch, dropped stashes, expired reflogs", () => {
    expectTable([
      ["git checkout -f", D.gitDiscard],
      ["git -C repo checkout --force main", D.gitDiscard],
      ["git switch --discard-changes main", D.gitDiscard],
      ["git stash drop", D.gitDiscard],
      ["git stash clear", D.gitDiscard],
      ["git reflog expire --expire=now --all", D.gitDiscard],
      ["git worktree remove --force ../wt", D.gitDiscard]
    ])
  })

  it("everyday git stays quiet", () => {
    expectQuiet([
      "git status", "git -C repo log --oneline", "git push origin main", "git push -u origin feature", "git push origin HEAD:refs/for/main",
      "git push --dry-run", "git clean -n", "git clean -nd", "git clean --dry-run -x", "git checkout main", "git checkout -b feat",
      "git checkout -- file.py", "git switch -c x", "git stash", "git stash pop", "git stash list", "git reflog", "git branch -a",
      "git branch --sort=-committerdate", "git reset --soft HEAD~1", "git reset HEAD file.py", "git reset --help",
      "git commit -m 'reset --hard'", "git worktree remove wt"
    ])
  })
})

describe("options quoted, abbreviated, or handed over in an array", () => {
  it("a quoted option is the same option", () => {
    expectTable([
      ["rm '-rf' build", "recursive delete"],
      ["rm \"-r\" build", "recursive delete"],
      ["rm '--recursive' build", "recursive delete"],
      ["chmod '777' /etc/passwd", "world/other-writable permissions"],
      ["find . '-delete'", "find -delete"]
    ])
    // Quoted prose stays prose.
    expectQuiet(["echo '-rf'", "git commit -m 'rm'", "grep -r 'rm' .", "ls '-la' src"])
  })

  it("getopt's abbreviations of long options that delete", () => {
    expectTable([
      ["tar -cf a.tar --remove-f src", D.removeAfter],
      ["tar -cf a.tar --rem src", D.removeAfter],
      ["zip -r --mo a.zip src", D.removeAfter],
      ["rsync -a --remove-source src/ dst/", D.removeAfter],
      ["tar -xf a.tar --recursive-unl", D.syncDelete],
      ["tar -xf a.tar --recursive-unlink", D.syncDelete]
    ])
    expectQuiet(["tar -cf a.tar --recursion src", "tar -xf a.tar --record-size=512", "zip -r a.zip src"])
  })

  it("a deleting program's arguments from an array or the positional parameters", () => {
    expectTable([
      ["set -- -rf; rm \"$@\" build", D.untrackedArguments],
      ["a=(-rf build); rm \"${a[@]}\"", D.untrackedArguments],
      ["rm -- \"${files[0]}\"", D.untrackedArguments],
      ["find \"$@\"", D.untrackedArguments]
    ])
    expectQuiet(["files=(a.txt b.txt); echo \"${files[@]}\"", "for f in *.tmp; do rm \"$f\"; done", "tmp=$(mktemp); rm -f \"$tmp\""])
  })
})

describe("programs whose own command deletes", () => {
  it("rsync --delete, rclone, cmake -E, gio, trash, ninja -t clean, find -ok", () => {
    expectTable([
      ["rsync -a --delete empty/ target/", D.syncDelete],
      ["rsync -r --del src/ dst/", D.syncDelete],
      ["rsync -a --delete-after --exclude=.git src/ dst/", D.syncDelete],
      ["rclone sync src remote:dst", D.syncDelete],
      ["rclone purge remote:old", D.toolDelete],
      ["cmake -E remove_directory build", D.toolDelete],
      ["cmake -E remove -f a.o", D.toolDelete],
      ["gio trash notes", D.toolDelete],
      ["gio remove notes.txt", D.toolDelete],
      ["trash-put notes", D.toolDelete],
      ["ninja -t clean", D.toolDelete],
      ["ninja -C build -t cleandead", D.toolDelete],
      ["yes | find . -name '*.o' -ok rm {} \\;", "find -exec/-execdir rm"],
      ["find . -okdir rm {} \\;", "find -exec/-execdir rm"]
    ])
    expectQuiet(["rsync -av src/ dst/", "rclone copy src remote:dst", "cmake -E copy a b", "cmake -E make_directory build", "gio info x", "ninja -t targets", "ninja -C build"])
  })
})

describe("CMake code the gate does not read", () => {
  it("a script, a configure, ctest's dashboard scripts; a build of a configured tree and cmake's tools do not run project code", () => {
    expectTable([
      ["cmake -P wipe.cmake", D.opaqueCode],
      ["cmake -S . -B build", D.opaqueCode],
      ["cmake ..", D.opaqueCode],
      ["cmake --preset dev", D.opaqueCode],
      ["cmake --regenerate-during-build -S . -B build", D.opaqueCode],
      ["ctest -S dashboard.cmake", D.opaqueCode],
      ["ctest -D Experimental", D.opaqueCode]
    ])
    expectQuiet(["cmake --build build", "cmake --build build --target install", "cmake --install build", "cmake --version", "cmake -E echo hi", "ctest -N", "ctest --output-on-failure"])
  })
})
