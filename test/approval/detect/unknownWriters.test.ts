/**
 * Writers the gate did not know (red-team report D, E). A program that is not known to only read, given a file
 * other programs run (git config and hooks, shell start-up files, ssh's keys, the runtime's home), needs approval
 * with the description the write rules use: through an output option, a name it derives (`unxz x.xz` writes `x`),
 * a path inside its script text, a recursive copy into the home, or a mode that makes a planted hook run. Any
 * process's `/proc/<pid>/root/x` is `/x`. The members below are not the report's own examples.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { CommandSurroundings } from "../../../src/services/Approval.js"
import { diffNames, patchedNames } from "../../../src/layers/approval/detect/patchInputs.js"
import { patchTargets } from "../../../src/layers/approval/policy/patchTargets.js"
import type { DetectionEnv } from "../../../src/layers/approval/detect/detect.js"
import { detectCommand, inspectCommand } from "../../../src/layers/approval/detect/detect.js"
import { D } from "../../../src/layers/approval/detect/descriptions.js"
import {
  GIT_EXEC_DESCRIPTION,
  INTERPRETER_STARTUP_DESCRIPTION,
  SHELL_STARTUP_DESCRIPTION,
  SSH_CONFIG_DESCRIPTION
} from "../../../src/layers/approval/detect/implicitExec.js"
import { asCommandSees } from "../../../src/layers/approval/detect/pathClasses.js"

// The runtime's home outside the user's, so a copy into the home is judged by its start-up files.
const ENV: DetectionEnv = { home: "/home/agent", hermesHome: "/srv/rt-home", env: {} }
const said = (command: string) => [command, detectCommand(command, ENV).description]
const expectSaid = (cases: ReadonlyArray<readonly [string, string]>) => {
  for (const [command, description] of cases) expect(said(command)).toEqual([command, description])
}
const expectQuiet = (commands: ReadonlyArray<string>) => {
  for (const command of commands) expect([command, detectCommand(command, ENV).dangerous]).toEqual([command, false])
}

describe("programs the gate does not model", () => {
  it("count every path they are given as written: an argument, an option's value, a path inside a program text", () => {
    expectSaid([
      ["openssl pkeyutl -decrypt -inkey k -in blob -out repo/.git/hooks/pre-auto-gc", GIT_EXEC_DESCRIPTION],
      ["openssl enc -d -aes256 -pass pass:x -in blob -out ~/.zprofile", SHELL_STARTUP_DESCRIPTION],
      ["gpg --batch --output repo/.git/config --decrypt blob.gpg", GIT_EXEC_DESCRIPTION],
      ["pandoc notes.md --output=.git/hooks/post-rewrite", GIT_EXEC_DESCRIPTION],
      ["convert-tool -outfile ~/.ssh/authorized_keys2 keys.txt", SSH_CONFIG_DESCRIPTION],
      ["mytool --dest=vendor/.git/hooks/pre-push payload", GIT_EXEC_DESCRIPTION],
      ["mytool -o~/.kshrc in", SHELL_STARTUP_DESCRIPTION],
      ["recode utf8..latin1 < a > /dev/null; dos2unix -n payload ~/.bash_login", SHELL_STARTUP_DESCRIPTION],
      ["jq-like-tool 'save(\"lib/.git/config\")' data", GIT_EXEC_DESCRIPTION],
      ["python3 tool.py ~/.pythonrc", INTERPRETER_STARTUP_DESCRIPTION],
      ["timeout 5 nice xmllint --output ~/.bash_aliases in.xml", SHELL_STARTUP_DESCRIPTION]
    ])
  })

  it("output options reach the judge too (symlinks, the directory a command starts in)", () => {
    expect(inspectCommand("openssl enc -in p -out pre-commit", ENV).startWrites).toContain("pre-commit")
    expect(inspectCommand("mytool --output=hooks/post-merge x", ENV).writes).toContain("hooks/post-merge")
  })
})

describe("programs whose written files are derived or named in their own language", () => {
  it("decompressors write the name without its suffix", () => {
    expectSaid([
      ["unlzma repo/.git/hooks/pre-push.lzma", GIT_EXEC_DESCRIPTION],
      ["xz --decompress --keep ~/.zlogin.xz", SHELL_STARTUP_DESCRIPTION],
      ["pigz -d vendor/.git/hooks/update.gz", GIT_EXEC_DESCRIPTION],
      ["gzip -d -S .bin ~/.bash_logout.bin", SHELL_STARTUP_DESCRIPTION],
      ["unzstd -q ~/.ssh/authorized_keys.zst", SSH_CONFIG_DESCRIPTION],
      ["lz4 -d blob.lz4 ~/.xprofile", SHELL_STARTUP_DESCRIPTION]
    ])
  })

  it("awk output redirections, sed's w, find's -fprint, and their computed targets", () => {
    expectSaid([
      ["gawk 'END { printf \"%s\\n\", x > \"lib/.git/hooks/pre-merge-commit\" }' f", GIT_EXEC_DESCRIPTION],
      ["mawk '{ print >> \"/home/agent/.zshenv\" }' payload", SHELL_STARTUP_DESCRIPTION],
      ["gawk -i inplace '{ print }' repo/.git/config", GIT_EXEC_DESCRIPTION],
      ["sed -n '/x/W repo/.git/hooks/prepare-commit-msg' payload", GIT_EXEC_DESCRIPTION],
      ["sed -e 's/^#//w ~/.inputrc' payload", SHELL_STARTUP_DESCRIPTION],
      ["find . -maxdepth 0 -fprint0 repo/.git/config", GIT_EXEC_DESCRIPTION],
      ["find payload -fls ~/.ssh/rc", SSH_CONFIG_DESCRIPTION],
      ["awk '{ print $2 > $1 }' list", D.computedWriteTarget],
      ["awk -v t=repo/.git/config 'BEGIN { print \"x\" > t }'", D.computedWriteTarget]
    ])
  })

  it("files named by other conventions: xxd's second operand, split prefixes, git's outputs, key files, chmod +x", () => {
    expectSaid([
      ["xxd -r payload.hex repo/.git/hooks/pre-receive", GIT_EXEC_DESCRIPTION],
      ["split -l 1 payload repo/.git/hooks/p", GIT_EXEC_DESCRIPTION],
      ["csplit --prefix=repo/.git/hooks/x payload 3", GIT_EXEC_DESCRIPTION],
      ["git -C repo log -1 -p --output=.git/hooks/pre-commit", GIT_EXEC_DESCRIPTION],
      ["git bundle create ~/.bashrc HEAD", SHELL_STARTUP_DESCRIPTION],
      ["git config --file ~/.zshrc user.name y", SHELL_STARTUP_DESCRIPTION],
      ["ssh-keygen -t rsa -N '' -f ~/.ssh/authorized_keys", SSH_CONFIG_DESCRIPTION],
      ["msgcat -o repo/.git/hooks/pre-commit a.po", GIT_EXEC_DESCRIPTION],
      ["chmod a+rx repo/.git/hooks/post-merge", GIT_EXEC_DESCRIPTION],
      ["chmod 4711 vendor/.git/hooks/pre-push", GIT_EXEC_DESCRIPTION]
    ])
  })

  it("a recursive copy into the home or ~/.ssh fills their start-up files and keys", () => {
    expectSaid([
      ["cp -R skel/. $HOME", SHELL_STARTUP_DESCRIPTION],
      ["scp -r host:dots/. /home/agent/", SHELL_STARTUP_DESCRIPTION],
      ["rsync -rl keys/ ~/.ssh", SSH_CONFIG_DESCRIPTION],
      ["cd ~ && cp -a /mnt/planted/. .", SHELL_STARTUP_DESCRIPTION]
    ])
  })
})

describe("/proc/<pid>/root is / for any process sharing our mounts", () => {
  it("folds any pid spelling, a task under it, and the home folded after it", () => {
    expect(asCommandSees("/proc/1/root/etc/profile")).toBe("/etc/profile")
    expect(asCommandSees("/proc/$(pgrep -f /usr/bin/node)/root/tmp/x")).toBe("/tmp/x")
    expect(asCommandSees("/proc/*/root/x")).toBe("/x")
    expect(asCommandSees("//proc//$PPID/task/7/root//x")).toBe("/x")
    expect(asCommandSees("/proc/`pidof node`/root")).toBe("/")
    // Another process's working directory is not known: kept as written (judged by the names below it).
    expect(asCommandSees("/proc/1/cwd/x")).toBe("/proc/1/cwd/x")
  })

  it("reaches the runtime's home and the start-up files", () => {
    expectSaid([
      ["tool -in p -out /proc/$(pidof node)/root/srv/rt-home/config.yaml", D.runtimeHome],
      ["cp offcfg /proc/*/root/srv/rt-home/", D.runtimeHome],
      ["cat /proc/1/task/1/root/srv/rt-home/config.yaml", D.runtimeHome],
      ["openssl enc -in p -out /proc/$PPID/root/home/agent/.bashrc", SHELL_STARTUP_DESCRIPTION],
      ["msgfmt -o /proc/1/cwd/.git/hooks/pre-commit x.po", GIT_EXEC_DESCRIPTION]
    ])
  })
})

describe("ordinary reads and writes stay quiet", () => {
  it("readers of the same files, and writers aimed elsewhere", () => {
    expectQuiet([
      "cat ~/.bashrc",
      "grep -n fsmonitor .git/config",
      "ls -la .git/hooks",
      "git status",
      "git diff HEAD~1",
      "git log -p -- src",
      "git show HEAD:README.md",
      "sed -n 1,20p ~/.profile",
      "awk '{ print $1 }' .git/config",
      "awk '{ if ($1 > 5) print }' data",
      "awk '{ print > \"/dev/stderr\" }' data",
      "find .git -name config",
      "find . -name '*.o' -fprint objects.txt",
      "diff -u ~/.bashrc /tmp/bashrc",
      "sha256sum .git/hooks/*",
      "stat ~/.ssh/authorized_keys",
      "wc -l ~/.zshrc",
      "head -n 3 ~/.ssh/config",
      "test -x .git/hooks/pre-commit",
      "[ -f ~/.bashrc ]",
      "source ~/.bashrc",
      "mkdir -p .git/hooks ~/.ssh",
      "chmod 600 ~/.ssh/authorized_keys",
      "chmod 755 build.sh",
      "chmod -x .git/hooks/pre-commit",
      "ssh-keygen -l -f ~/.ssh/authorized_keys",
      "ssh-keygen -y -f ~/.ssh/id_ed25519",
      "gunzip logs.gz",
      "gzip -dc ~/.bashrc.gz > /tmp/old",
      "zcat ~/.bashrc.gz",
      "xxd ~/.bashrc",
      "openssl x509 -in cert.pem -noout -text",
      "gcc -o main main.c",
      "node build.js --out dist/",
      "make SHELL=/bin/bash test",
      "ldd /usr/bin/node",
      "cp -r src dst",
      "rsync -a src/ backup/",
      "cat /proc/1/status",
      "ls -l /proc/*/cwd"
    ])
  })
})

/** Surroundings holding only these files (absolute paths) for the judge's patch look-up. */
const filesOnly = (files: Readonly<Record<string, string>>): CommandSurroundings => ({
  cwd: Effect.succeed("/w"),
  variables: Effect.succeed({}),
  readText: (path) => Effect.succeed(Option.fromNullable(files[path])),
  realPath: (path) => Effect.succeed(path),
  fileKind: (path) => Effect.succeed(files[path] === undefined ? "missing" : "file"),
  sharesHostFiles: true
})

const HOOK_DIFF = "--- /dev/null\n+++ repo/.git/hooks/pre-applypatch\t2026-01-01\n@@ -0,0 +1 @@\n+touch x\n"
const PLAIN_DIFF = "--- a/src/main.c\n+++ b/src/main.c\n@@ -1 +1 @@\n-a\n+b\n"

describe("patch writes the files its diff names", () => {
  it("reads the names of unified, context and git diffs, and the tails -p may leave", () => {
    expect(diffNames(HOOK_DIFF)).toEqual(["repo/.git/hooks/pre-applypatch"])
    expect(diffNames("diff --git a/x b/.envrc\nrename to .envrc\n*** old/y\t2026\n")).toEqual(["a/x", "b/.envrc", ".envrc", "old/y"])
    expect(patchedNames("a/b/.bashrc", 1)).toEqual(["b/.bashrc"])
    expect(patchedNames("a/b/.bashrc", null)).toEqual(["a/b/.bashrc", "b/.bashrc", ".bashrc"])
  })

  it("an inline diff is judged by the rules; a file's, by the judge where the command starts", () => {
    expect(said(`patch -p0 <<'EOF'\n${HOOK_DIFF}EOF`)).toEqual([`patch -p0 <<'EOF'\n${HOOK_DIFF}EOF`, GIT_EXEC_DESCRIPTION])
    const one = (command: string) => inspectCommand(command, ENV).patchInputs
    expect(one("patch -p1 < fix.diff")).toEqual([{ diff: "fix.diff", text: null, strip: 1, dir: null }])
    expect(one("patch -i x.diff -d sub")).toEqual([{ diff: "x.diff", text: null, strip: null, dir: "sub" }])
    expect(one("patch --dry-run -p1 < x.diff")).toEqual([])
    expect(one("patch -o out.c main.c < x.diff")).toEqual([])
    expect(one("cd sub && patch -p1 < x.diff")).toEqual([{ diff: null, text: null, strip: 1, dir: null }])
  })

  it.effect("the judge reads the diff and classifies its names; an unreadable diff leaves them unknown", () =>
    Effect.gen(function*() {
      const surroundings = filesOnly({ "/w/x.diff": HOOK_DIFF, "/w/ok.diff": PLAIN_DIFF, "/w/home.diff": "+++ b/.profile\n" })
      const judged = (input: { diff: string | null; strip: number | null; dir: string | null }) =>
        patchTargets(surroundings, ENV, "/w", [{ ...input, text: null }]).pipe(Effect.map((f) => f?.description ?? null))
      expect(yield* judged({ diff: "x.diff", strip: 0, dir: null })).toBe(GIT_EXEC_DESCRIPTION)
      expect(yield* judged({ diff: "ok.diff", strip: 1, dir: null })).toBe(null)
      expect(yield* judged({ diff: "home.diff", strip: 1, dir: "/home/agent" })).toBe(SHELL_STARTUP_DESCRIPTION)
      expect(yield* judged({ diff: null, strip: 1, dir: null })).toBe(D.computedWriteTarget)
      expect(yield* judged({ diff: "missing.diff", strip: 1, dir: null })).toBe(D.computedWriteTarget)
    }))
})
