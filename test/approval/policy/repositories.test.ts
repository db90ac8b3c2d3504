/**
 * Git reaching a config written as an ordinary file (red-team round three, class 2). Git follows a `.git` file's
 * gitdir, a repository's `commondir` (a linked worktree's names the main repository), and symlinks named `.git` or
 * `*.git`, and runs what the config it reaches says (core.fsmonitor on `git status`). Writes that send git elsewhere
 * need approval like writes to git's config; and where git runs, the judge resolves the repository as git does and
 * asks when its config lies outside any `.git`/`*.git` directory. Repositories as users have them (a subfolder, a
 * linked worktree, a submodule, a bare `x.git`) stay quiet. The judge looks at a real folder here: symlinks matter.
 */
import { spawnSync } from "node:child_process"
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { basename, dirname, join } from "node:path"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { detectCode } from "../../../src/layers/approval/detect/code/detectCode.js"
import type { DetectionEnv } from "../../../src/layers/approval/detect/detect.js"
import { detectCommand } from "../../../src/layers/approval/detect/detect.js"
import { GIT_EXEC_DESCRIPTION, implicitlyExecuted } from "../../../src/layers/approval/detect/implicitExec.js"
import { judgeRequest, PLANTED_REPOSITORY_DESCRIPTION } from "../../../src/layers/approval/policy/judge.js"
import type { CommandSurroundings } from "../../../src/services/Approval.js"
import { JUDGE_DETECTORS } from "../../support/judgeWorld.js"

const ENV: DetectionEnv = { home: "/home/agent", hermesHome: "/home/agent/.hermes-effect", env: {} }
const said = (command: string) => [command, detectCommand(command, ENV).description]

describe("writes that send git to another directory's config", () => {
  it("commondir and gitdir inside a git directory, and a file named .git, are git's", () => {
    for (const path of [
      "/srv/repo/.git/commondir",
      "/srv/repo/.git/worktrees/x/commondir",
      "/srv/repo/.git/worktrees/x/gitdir",
      "/srv/meta.git/wt/commondir",
      "/srv/super/.git/modules/lib/commondir",
      "/srv/proj/.git",
      "/srv/proj/sub/.git"
    ]) expect([path, implicitlyExecuted(path, { home: ENV.home })]).toEqual([path, GIT_EXEC_DESCRIPTION])
    for (const path of ["/srv/repo/commondir", "/srv/repo/gitdir", "/srv/repo/.gitignore", "/srv/repo/.github/workflows/ci.yml", "/srv/repo/.git/info/exclude"]) {
      expect([path, implicitlyExecuted(path, { home: ENV.home })]).toEqual([path, null])
    }
  })

  it("by any terminal writer; a link, copy or rename made with a repository's name", () => {
    for (const command of [
      "echo /srv/evil > repo/.git/commondir",
      "printf '%s\\n' ../../../evil > .git/worktrees/x/commondir",
      "cp g repo/.git/worktrees/x/gitdir",
      "echo 'gitdir: ../evil' > proj/.git",
      "ln -s ../evil proj/.git",
      "ln -s evil lnk.git",
      "ln -s evil repo2.git",
      "ln -sfn /srv/evil -t repos store.git",
      "cp -s evil store.git",
      "mv evil store.git",
      "mv evil proj/.git",
      "cd proj && ln -s ../evil .git"
    ]) expect(said(command)).toEqual([command, GIT_EXEC_DESCRIPTION])
  })

  it("by code naming the file", () => {
    for (const code of ["open('proj/.git', 'w').write('gitdir: ../evil')", "import os\nos.symlink('../evil', 'proj/.git')", "open('repo/.git/commondir', 'w')"]) {
      expect([code, detectCode("python", code, ENV).dangerous]).toEqual([code, true])
    }
  })

  it("a bare .git named to a program, or skipped in a walk, is no write; links and renames of other names are ordinary", () => {
    for (const command of [
      "fd -E .git",
      "ctags -R --exclude=.git .",
      "flake8 --exclude .git,__pycache__",
      "rsync -a --exclude=.git src/ dst/",
      "git --git-dir=.git status",
      "ln -s build/out latest",
      "mv build dist",
      "cp -r src backup",
      "echo node_modules > .gitignore"
    ]) expect(said(command)).toEqual([command, null])
    const walk = "import os\nfor root, dirs, files in os.walk('.'):\n    dirs[:] = [d for d in dirs if d != '.git']\nout = 'report.txt'\nwith open(out, 'w') as f:\n    f.write('x')\n"
    expect(detectCode("python", walk, ENV).dangerous).toBe(false)
  })
})

// ------------------------------------------------------------------ where git runs: the judge

const DETECTORS = JUDGE_DETECTORS

const root = realpathSync(mkdtempSync(join(tmpdir(), "hermes-repositories-")))
afterAll(() => rmSync(root, { recursive: true, force: true }))

const git = (...args: ReadonlyArray<string>) => {
  const r = spawnSync("git", ["-c", "user.name=a", "-c", "user.email=a@b", "-c", "init.defaultBranch=main", ...args], { encoding: "utf8" })
  expect(r.status, r.stderr).toBe(0)
}
const put = (path: string, text: string) => {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, text)
}

/** The real folder as the command sees it: links followed, a missing tail kept as written. */
const realPath = (path: string): string => {
  try {
    return realpathSync(path)
  } catch {
    const parent = dirname(path)
    return parent === path ? path : join(realPath(parent), basename(path))
  }
}
const fileKind = (path: string): "file" | "directory" | "other" | "missing" => {
  try {
    const st = statSync(path)
    return st.isFile() ? "file" : st.isDirectory() ? "directory" : "other"
  } catch {
    return "missing"
  }
}
const surroundings = (cwd: string): CommandSurroundings => ({
  cwd: Effect.succeed(cwd),
  variables: Effect.succeed({}),
  readText: (path, maxBytes) =>
    Effect.sync(() => (fileKind(path) === "file" && statSync(path).size <= maxBytes ? Option.some(readFileSync(path, "utf8")) : Option.none())),
  realPath: (path) => Effect.sync(() => realPath(path)),
  fileKind: (path) => Effect.sync(() => fileKind(path)),
  sharesHostFiles: true
})

/** The judge's verdict for `command` run in `cwd`: its description and note. */
const judged = (command: string, cwd: string) =>
  judgeRequest({ command, context: { taskId: "t" }, backend: { kind: "local", isolated: false }, path: "foreground", surroundings: surroundings(cwd) }, ENV, DETECTORS)
    .pipe(Effect.map((v) => [v.detection.description, v.note ?? null] as const))

/** A repository's config and layout as an ordinary folder `<dir>/evil`. */
const plantEvil = (dir: string): string => {
  const evil = join(dir, "evil")
  put(join(evil, "config"), "[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tfsmonitor = \"touch PWNED; false\"\n")
  put(join(evil, "HEAD"), "ref: refs/heads/main\n")
  mkdirSync(join(evil, "objects"), { recursive: true })
  mkdirSync(join(evil, "refs", "heads"), { recursive: true })
  return evil
}

/** A fresh folder for one case. */
let cases = 0
const fresh = (): string => {
  const dir = join(root, `c${++cases}`)
  mkdirSync(dir)
  return dir
}

describe("git where its config is an ordinary file: the judge resolves the repository as git does", () => {
  it.effect("repositories as users have them are quiet: plain, a subfolder, a linked worktree, a submodule, a bare x.git", () =>
    Effect.gen(function*() {
      const dir = fresh()
      git("init", "-q", join(dir, "repo"))
      mkdirSync(join(dir, "repo", "src"))
      git("-C", join(dir, "repo"), "commit", "-q", "--allow-empty", "-m", "x")
      git("-C", join(dir, "repo"), "worktree", "add", "-q", join(dir, "repo-wt"))
      git("init", "-q", join(dir, "lib"))
      git("-C", join(dir, "lib"), "commit", "-q", "--allow-empty", "-m", "x")
      mkdirSync(join(dir, "repo", ".git", "modules"))
      git("clone", "-q", `--separate-git-dir=${join(dir, "repo", ".git", "modules", "lib")}`, join(dir, "lib"), join(dir, "repo", "lib"))
      git("clone", "-q", "--bare", join(dir, "repo"), join(dir, "mirror.git"))
      expect(readFileSync(join(dir, "repo-wt", ".git"), "utf8")).toMatch(/^gitdir: .*\/repo\/\.git\/worktrees\/repo-wt$/m)
      expect(readFileSync(join(dir, "repo", "lib", ".git"), "utf8")).toMatch(/\/repo\/\.git\/modules\/lib$/m)
      for (const [command, cwd] of [
        ["git status --short", join(dir, "repo")],
        ["git -C src status", join(dir, "repo")],
        ["cd src && git log --oneline -1", join(dir, "repo")],
        ["git status --short", join(dir, "repo-wt")],
        ["git status --short", join(dir, "repo", "lib")],
        ["git log --oneline -1", join(dir, "mirror.git")],
        ["git --git-dir=mirror.git log --oneline -1", dir],
        ["git init -q fresh && cd fresh && git status", dir]
      ] as const) expect([command, ...(yield* judged(command, cwd))]).toEqual([command, null, null])
    }))

  it.effect("a repository's commondir naming an ordinary folder", () =>
    Effect.gen(function*() {
      const dir = fresh()
      const evil = plantEvil(dir)
      git("init", "-q", join(dir, "repo"))
      put(join(dir, "repo", ".git", "commondir"), `${evil}\n`)
      expect(yield* judged("git status", join(dir, "repo"))).toEqual([PLANTED_REPOSITORY_DESCRIPTION, `${dir}/repo/.git/commondir leads to ${evil}`])
    }))

  it.effect("a linked worktree's commondir, in a .git/worktrees/<n> or a hand-made x.git/<n>", () =>
    Effect.gen(function*() {
      const dir = fresh()
      const evil = plantEvil(dir)
      git("init", "-q", join(dir, "main"))
      put(join(dir, "main", ".git", "worktrees", "w", "HEAD"), "ref: refs/heads/main\n")
      put(join(dir, "main", ".git", "worktrees", "w", "commondir"), "../../../evil\n")
      put(join(dir, "wt", ".git"), `gitdir: ${dir}/main/.git/worktrees/w\n`)
      expect((yield* judged("git status", join(dir, "wt")))[0]).toBe(PLANTED_REPOSITORY_DESCRIPTION)
      put(join(dir, "meta.git", "wt", "HEAD"), "ref: refs/heads/main\n")
      put(join(dir, "meta.git", "wt", "commondir"), `${evil}\n`)
      put(join(dir, "proj", ".git"), "gitdir: ../meta.git/wt\n")
      expect(yield* judged("git status", join(dir, "proj"))).toEqual([PLANTED_REPOSITORY_DESCRIPTION, `${dir}/meta.git/wt/commondir leads to ${evil}`])
    }))

  it.effect("a .git file naming a link called *.git; a .git that is a link; --git-dir at a link", () =>
    Effect.gen(function*() {
      const dir = fresh()
      const evil = plantEvil(dir)
      symlinkSync("evil", join(dir, "lnk.git"))
      put(join(dir, "proj", ".git"), "gitdir: ../lnk.git\n")
      expect(yield* judged("git status", join(dir, "proj"))).toEqual([PLANTED_REPOSITORY_DESCRIPTION, `${dir}/proj/.git (gitdir: ../lnk.git) leads to ${evil}`])
      mkdirSync(join(dir, "proj2"))
      symlinkSync("../evil", join(dir, "proj2", ".git"))
      expect(yield* judged("git status", join(dir, "proj2"))).toEqual([PLANTED_REPOSITORY_DESCRIPTION, `${dir}/proj2/.git leads to ${evil}`])
      expect(yield* judged("git --git-dir=lnk.git --work-tree=. status", dir)).toEqual([PLANTED_REPOSITORY_DESCRIPTION, `--git-dir lnk.git leads to ${evil}`])
      // Started in a folder reached through a link called *.git: git stands where it really is.
      expect((yield* judged("git log", join(dir, "lnk.git")))[0]).toBe(PLANTED_REPOSITORY_DESCRIPTION)
    }))

  it.effect("a .git directory whose config is a link to an ordinary file", () =>
    Effect.gen(function*() {
      const dir = fresh()
      const evil = plantEvil(dir)
      git("init", "-q", join(dir, "repo"))
      rmSync(join(dir, "repo", ".git", "config"))
      symlinkSync(join(evil, "config"), join(dir, "repo", ".git", "config"))
      expect(yield* judged("git status", join(dir, "repo"))).toEqual([PLANTED_REPOSITORY_DESCRIPTION, `${dir}/repo/.git/config leads to ${evil}/config`])
    }))

  it.effect("every repository git may reach, not only the nearest: past an empty .git, and past a repository the line could move away first", () =>
    Effect.gen(function*() {
      const dir = fresh()
      const evil = plantEvil(dir)
      // git passes over a .git that is no repository and takes the folder above, a bare one not named *.git.
      mkdirSync(join(evil, "proj", ".git"), { recursive: true })
      expect(yield* judged("git status", join(evil, "proj"))).toEqual([PLANTED_REPOSITORY_DESCRIPTION, `${evil} (a bare repository) leads to ${evil}`])
      // A real repository inside it: git would take the one above once this .git is gone (`mv .git x && git status`).
      git("init", "-q", join(evil, "inner"))
      expect(yield* judged("git status", join(evil, "inner"))).toEqual([PLANTED_REPOSITORY_DESCRIPTION, `${evil} (a bare repository) leads to ${evil}`])
    }))

  it.effect("a .git file git cannot read a gitdir from", () =>
    Effect.gen(function*() {
      const dir = fresh()
      put(join(dir, "proj", ".git"), "not a gitdir line\n")
      expect(yield* judged("git status", join(dir, "proj"))).toEqual([PLANTED_REPOSITORY_DESCRIPTION, `${dir}/proj/.git points to an unreadable place`])
    }))
})
