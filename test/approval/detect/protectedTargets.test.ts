/**
 * The hardline floor's root, system-directory and home deletes judged by the
 * directory an operand lands on: `.`/`..` resolved, globs matched against the
 * protected names, the home by its own path, relative operands from where the
 * command starts (the shell's directory, moved by the line's `cd`s), and the
 * other programs that delete a whole tree (find with nothing selecting,
 * rsync --delete, busybox rm). Ordinary deletes keep asking, not refused.
 */
import { describe, expect, it } from "@effect/vitest"
import type { DetectionEnv } from "../../../src/layers/approval/detect/detect.js"
import { detectCommand } from "../../../src/layers/approval/detect/detect.js"

const AGENT: DetectionEnv = { home: "/home/agent", hermesHome: "/home/agent/.hermes-effect", env: {} }
const ROOT = "recursive delete of root filesystem"
const SYSTEM = "recursive delete of system directory"
const HOME = "recursive delete of home directory"
const floor = (command: string, env: DetectionEnv = AGENT) => detectCommand(command, env).hardline_description

const expectFloor = (rows: ReadonlyArray<readonly [string, string]>, env: DetectionEnv = AGENT) => {
  for (const [command, description] of rows) expect([command, floor(command, env)]).toEqual([command, description])
}
const expectAsksOnly = (commands: ReadonlyArray<string>, env: DetectionEnv = AGENT) => {
  for (const command of commands) {
    const d = detectCommand(command, env)
    expect([command, d.hardline, d.dangerous]).toEqual([command, false, true])
  }
}

describe("protected directories however the path is written", () => {
  it("`.` and `..` resolved, repeated slashes, globs matching a protected name, the home by its path", () => {
    expectFloor([
      ["rm -rf /usr/..", ROOT],
      ["rm -rf /usr/bin/../..", ROOT],
      ["rm -rf /./usr/./", SYSTEM],
      ["rm -rf //etc//", SYSTEM],
      ["rm -rf /home/agent/..", SYSTEM],
      ["rm -rf /e*", SYSTEM],
      ["rm -rf /[e]tc", SYSTEM],
      ["rm -rf /?sr", SYSTEM],
      ["rm -rf /lib64", SYSTEM],
      ["rm -rf /opt", SYSTEM],
      ["rm -rf /usr/local", SYSTEM],
      ["rm -rf /var/lib", SYSTEM],
      ["rm -rf ~/.", HOME],
      ["rm -rf $HOME/.", HOME],
      ["rm -rf \"${HOME}/\"", HOME],
      ["rm -rf ~agent", HOME],
      ["rm -rf /home/agent", HOME],
      ["rm -rf /home/agent/proj/..", HOME],
      ["rm -rf /h*/ag*", HOME],
      ["rm -rf ~/*", HOME],
      ["busybox rm -rf /", ROOT],
      ["toybox rm -rf /usr", SYSTEM]
    ])
    expectAsksOnly(["rm -rf /tmp/x", "rm -rf ./build", "rm -rf /home/agent/proj", "rm -rf ~/proj/..x", "rm -rf /usr/local/lib/foo", "rm -rf /home/victim"])
  })

  it("with the home unknown, `~/.` and `~/..` are at least the home", () => {
    expectFloor([["rm -rf ~/.", HOME], ["rm -rf ~/..", HOME]], { env: {} })
  })
})

describe("relative operands judged from where the command starts", () => {
  it("the shell's own directory, given by the caller", () => {
    expectFloor([["rm -rf *", ROOT], ["rm -rf .", ROOT], ["rm -rf etc", SYSTEM]], { ...AGENT, cwd: "/" })
    expectFloor([["rm -rf ./*", HOME], ["find . -delete", HOME], ["rm -rf proj/..", HOME]], { ...AGENT, cwd: "/home/agent" })
    expectFloor([["rm -rf ..", HOME]], { ...AGENT, cwd: "/home/agent/proj" })
    expectAsksOnly(["rm -rf *", "rm -rf ./build", "find . -delete"], { ...AGENT, cwd: "/home/agent/proj" })
  })

  it("the line's own cd: after `&&` it is where the command stands, after `;` a failed cd leaves the shell where it was", () => {
    expectFloor([
      ["cd / && rm -rf *", ROOT],
      ["cd /; rm -rf .", ROOT],
      ["cd /usr && rm -rf ..", ROOT],
      ["cd && rm -rf ./*", HOME],
      ["cd ~ && rm -rf .", HOME],
      ["pushd / && rm -rf *", ROOT],
      ["cd / && rm -rf -- *", ROOT]
    ])
    expectFloor([["cd /nonexistent; rm -rf *", ROOT]], { ...AGENT, cwd: "/" })
    expectAsksOnly(["cd /tmp && rm -rf *", "cd /srv/app && rm -rf ./build", "cd \"$DIR\" && rm -rf *"])
    expectAsksOnly(["cd /tmp/x && rm -rf *"], { ...AGENT, cwd: "/" })
  })
})

describe("other programs deleting a whole protected tree", () => {
  it("find with -delete or -exec rm and nothing choosing files; rsync --delete into it", () => {
    expectFloor([
      ["find / -delete", ROOT],
      ["find / -exec rm -rf {} +", ROOT],
      ["find /etc -type f -delete", SYSTEM],
      ["find ~ -delete", HOME],
      ["find -L / -depth -delete", ROOT],
      ["rsync -a --delete /empty/ /", ROOT],
      ["rsync -a --delete empty/ ~/", HOME],
      ["rclone sync empty /usr", SYSTEM]
    ])
    expectAsksOnly(["find / -name '*.pyc' -delete", "find ~ -mtime +30 -delete", "find / -maxdepth 1 -delete", "find /tmp/x -delete", "rsync -a --delete e/ ./out/"])
  })

  it("systemd's power targets reached through isolate or start, and loginctl", () => {
    for (const command of ["systemctl isolate rescue.target", "systemctl start reboot.target", "systemctl isolate emergency", "loginctl poweroff", "systemctl soft-reboot"]) {
      expect([command, floor(command)]).toEqual([command, "systemctl poweroff/reboot"])
    }
    for (const command of ["systemctl start nginx", "systemctl isolate multi-user.target", "loginctl list-sessions"]) {
      expect([command, floor(command)]).toEqual([command, null])
    }
  })
})
