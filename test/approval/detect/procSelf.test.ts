/**
 * `/proc/self` is whichever process opens the path: a command's own shell or program, standing where the command
 * stands. Writes and runs through `/proc/self/cwd`, `/proc/thread-self/cwd` or the shell's own pid are placed there
 * (after the line's `cd`), and `/proc/self/root/x` is `/x`; what the runtime's own `/proc/self` would say is never
 * asked. (Writes through another process's directory, `/proc/$PPID/cwd`, are the judge's: test/security `procSelf`.)
 */
import { describe, expect, it } from "@effect/vitest"
import type { DetectionEnv } from "../../../src/layers/approval/detect/detect.js"
import { detectCommand } from "../../../src/layers/approval/detect/detect.js"
import { GIT_EXEC_DESCRIPTION, SHELL_STARTUP_DESCRIPTION } from "../../../src/layers/approval/detect/implicitExec.js"
import { asCommandSees } from "../../../src/layers/approval/detect/pathClasses.js"

const ENV: DetectionEnv = { home: "/home/agent", hermesHome: "/home/agent/.hermes-effect", env: {} }

describe("/proc/self seen from the command", () => {
  it("cwd is where the command stands, root is /", () => {
    expect(asCommandSees("/proc/self/cwd/hooks/pre-commit")).toBe("./hooks/pre-commit")
    expect(asCommandSees("/proc/thread-self/cwd")).toBe(".")
    expect(asCommandSees("/proc/$$/cwd//x")).toBe("./x")
    expect(asCommandSees("/proc/${BASHPID}/cwd/x")).toBe("./x")
    expect(asCommandSees("/proc/self/root/home/agent/.bashrc")).toBe("/home/agent/.bashrc")
    expect(asCommandSees("~+/hooks/pre-commit")).toBe("./hooks/pre-commit")
    expect(asCommandSees("~+")).toBe(".")
    for (const kept of ["/proc/self/status", "/proc/self/fd/1", "/proc/1/cwd/x", "/proc/$PPID/cwd/x", "/proc/selfish/cwd/x", "proc/self/cwd/x"]) {
      expect(asCommandSees(kept)).toBe(kept)
    }
  })

  it("writes through it are judged where they land", () => {
    for (const [command, description] of [
      ["cd /x/repo/.git && printf x > /proc/self/cwd/hooks/pre-commit", GIT_EXEC_DESCRIPTION],
      ["cd /x/repo && cat a >> /proc/thread-self/cwd/.git/config", GIT_EXEC_DESCRIPTION],
      ["cd /proc/self/cwd/.git/hooks && cp a pre-commit", GIT_EXEC_DESCRIPTION],
      ["printf x > /proc/self/root/home/agent/.bashrc", SHELL_STARTUP_DESCRIPTION],
      ["cd ~ && tee -a /proc/$$/cwd/.bashrc < x", SHELL_STARTUP_DESCRIPTION],
      ["cd repo/.git/hooks && cp x ~+/pre-commit", GIT_EXEC_DESCRIPTION],
      ["cd repo/.git && cp x ~+/hooks/pre-commit", GIT_EXEC_DESCRIPTION]
    ] as const) expect([command, detectCommand(command, ENV).description]).toEqual([command, description])
  })

  it("reading the process's own files stays quiet", () => {
    for (const command of ["cat /proc/self/status", "echo hi > /proc/self/fd/1", "ls -l /proc/self/cwd", "readlink /proc/self/exe"]) {
      expect([command, detectCommand(command, ENV).dangerous]).toEqual([command, false])
    }
  })
})
