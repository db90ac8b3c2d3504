/**
 * Files that other programs run later, by the places red-team round 6 (part B) found unguarded: a module in a Python
 * library folder (the user's site-packages comes before the installed packages), what shells and version managers
 * source on every start or shim run (`~/.pyenv/pyenv.d`, pyenv's `libexec`, `~/.cargo/env`, `~/.nvm/nvm.sh`,
 * `~/.bash_completion`), and the hook folders a repository's `core.hooksPath` names by convention (`.husky/`,
 * `.githooks/`). Every writer counts: the file tools (the classification) and terminal writes. Project files of the
 * same names elsewhere stay quiet.
 */
import { describe, expect, it } from "@effect/vitest"
import type { DetectionEnv } from "../../../src/layers/approval/detect/detect.js"
import { detectCommand } from "../../../src/layers/approval/detect/detect.js"
import {
  GIT_EXEC_DESCRIPTION,
  holdsExecutedFiles,
  implicitlyExecuted,
  INTERPRETER_STARTUP_DESCRIPTION,
  LIBRARY_DESCRIPTION,
  linkTargetRuns,
  SHELL_STARTUP_DESCRIPTION
} from "../../../src/layers/approval/detect/implicitExec.js"

const ENV: DetectionEnv = { home: "/home/agent", hermesHome: "/home/agent/.hermes-effect", env: {} }
const classified = (path: string) => [path, implicitlyExecuted(path, { home: ENV.home })]

describe("files run later: library folders, sourced files, tracked hook folders", () => {
  it("a module in an interpreter's library folder is what an import of its name loads", () => {
    for (
      const path of [
        "/home/agent/.local/lib/python3.11/site-packages/idna.py",
        "/srv/app/.venv/lib/python3.12/site-packages/requests/__init__.py",
        "/home/agent/.pyenv/versions/3.11.7/lib/python3.11/json/__init__.py",
        "/srv/app/venv/lib64/python3.11/os.py",
        "/srv/app/lib/python3/dist-packages/x.so",
        "/home/agent/.node_modules/leftpad.js",
        "/home/agent/.node_libraries/leftpad/index.js"
      ]
    ) expect(classified(path)).toEqual([path, LIBRARY_DESCRIPTION])
    // A .pth keeps its own description; a link into a library folder is a way to write there.
    expect(classified("/home/agent/.local/lib/python3.11/site-packages/x.pth")).toEqual(["/home/agent/.local/lib/python3.11/site-packages/x.pth", INTERPRETER_STARTUP_DESCRIPTION])
    expect(linkTargetRuns("/usr/lib/python3/dist-packages/yaml/__init__.py", { home: ENV.home })).toBe(LIBRARY_DESCRIPTION)
    expect(holdsExecutedFiles("/srv/app/.venv/lib/python3.12/site-packages/requests", { home: ENV.home })).toBe(LIBRARY_DESCRIPTION)
  })

  it("what start-up files and version managers' shims source", () => {
    for (
      const path of [
        "/home/agent/.pyenv/pyenv.d/exec/x.bash",
        "/home/agent/.pyenv/plugins/tidy/etc/pyenv.d/exec/x.bash",
        "/home/agent/.pyenv/libexec/pyenv-exec",
        "/home/agent/.pyenv/plugins/pyenv-virtualenv/libexec/pyenv-virtualenv",
        "/home/agent/.rbenv/rbenv.d/exec/x.bash",
        "/home/agent/.cargo/env",
        "/home/agent/.nvm/nvm.sh",
        "/home/agent/.fzf.bash",
        "/home/agent/.asdf/asdf.sh",
        "/home/agent/.bash_completion",
        "/home/agent/.local/share/bash-completion/completions/git",
        "/root/.pyenv/pyenv.d/rehash/x.bash"
      ]
    ) expect(classified(path)).toEqual([path, SHELL_STARTUP_DESCRIPTION])
    expect(holdsExecutedFiles("/home/agent/.pyenv/pyenv.d/exec", { home: ENV.home })).toBe(SHELL_STARTUP_DESCRIPTION)
  })

  it("hook folders a repository's core.hooksPath names by convention", () => {
    for (const path of ["/w/repo/.husky/pre-commit", "/w/repo/.husky/_/pre-commit", "/w/repo/.githooks/post-checkout"]) {
      expect(classified(path)).toEqual([path, GIT_EXEC_DESCRIPTION])
    }
    expect(holdsExecutedFiles("/w/repo/.husky", { home: ENV.home })).toBe(GIT_EXEC_DESCRIPTION)
  })

  it("terminal writes to the same places need approval too", () => {
    for (
      const [command, description] of [
        ["cp x.bash ~/.pyenv/pyenv.d/exec/", SHELL_STARTUP_DESCRIPTION],
        ["echo 'export X=1' >> ~/.cargo/env", SHELL_STARTUP_DESCRIPTION],
        ["printf 'x' > /w/repo/.husky/pre-commit", GIT_EXEC_DESCRIPTION],
        ["cp evil.py ~/.local/lib/python3.11/site-packages/idna.py", LIBRARY_DESCRIPTION]
      ] as const
    ) expect([command, detectCommand(command, ENV).description]).toEqual([command, description])
  })

  it("the same names outside those places stay quiet", () => {
    for (
      const path of [
        "/w/repo/src/site.py",
        "/w/repo/lib/helper.py",
        "/w/repo/python3/x.py",
        "/w/repo/.husky/docs/README.md",
        "/w/repo/docs/husky.md",
        "/home/agent/.pyenv/version",
        "/home/agent/.nvm/alias/default",
        "/home/agent/projects/env",
        "/w/repo/packages/site/index.js",
        "/w/repo/.node_modules/x.js"
      ]
    ) expect(classified(path)).toEqual([path, null])
  })
})
