/**
 * A hard link is one file under two names: a link made to a file other programs run (git config, a hook, a shell
 * start-up file) turns every later write of the harmless name into a write of that file. Making such a link counts
 * as writing the file, in shell (`ln`, `cp -l`, `link`) and in code (`os.link`, `fs.linkSync`, perl/php `link`, Ruby
 * `File.link`), with the source spelled in the call or held in a variable. Symbolic links and links of ordinary
 * files stay quiet; where an existing link leads is the judge's (test/security `hardLinks`).
 */
import { describe, expect, it } from "@effect/vitest"
import { detectCode } from "../../../src/layers/approval/detect/code/detectCode.js"
import { codePathLiterals } from "../../../src/layers/approval/detect/code/detectCode.js"
import type { DetectionEnv } from "../../../src/layers/approval/detect/detect.js"
import { detectCommand } from "../../../src/layers/approval/detect/detect.js"
import { GIT_EXEC_DESCRIPTION, SHELL_STARTUP_DESCRIPTION } from "../../../src/layers/approval/detect/implicitExec.js"

const ENV: DetectionEnv = { home: "/home/agent", hermesHome: "/home/agent/.hermes-effect", env: {} }

describe("shell: a hard link to a file that runs", () => {
  it("ln without -s, cp -l and link give the file a second name: judged as writing it", () => {
    for (const command of [
      "ln .git/config notes.txt",
      "ln -f repo/.git/hooks/pre-commit x",
      "ln -t /tmp/keep .git/config",
      "cp -l .git/config c.txt",
      "cp -al .git/config c.txt",
      "cp --link repo/.git/config c",
      "link .git/config log",
      "cd repo && ln .git/config ../n && cat ../n"
    ]) expect([command, detectCommand(command, ENV).description]).toEqual([command, GIT_EXEC_DESCRIPTION])
    expect(detectCommand("ln ~/.bashrc notes", ENV).description).toBe(SHELL_STARTUP_DESCRIPTION)
  })

  it("hard links of ordinary files, and symbolic links to places whose files do not run, are quiet", () => {
    for (const command of [
      "ln data.csv backup.csv", "cp -al src snapshot", "link a.txt b.txt", "ln -s ../shared shared", "ln -sf /usr/bin/python3 venv/bin/python",
      "ln -s node_modules/.bin/tsc tsc", "cp -s data/a.csv a.csv"
    ]) {
      expect([command, detectCommand(command, ENV).dangerous]).toEqual([command, false])
    }
  })
})

describe("shell: a symbolic link into a place whose files run", () => {
  // A write through the link is judged where the link points then; another process can swap the link before the
  // write lands (red team 3, class 6). Making the link is judged as the writes it allows.
  it("a link to a git directory, its config or hooks, however made and wherever the link goes", () => {
    for (const command of [
      "ln -s .git/config view", "ln --symbolic repo/.git/hooks h", "ln -sfn repo/.git d", "ln -s a/.git/hooks", "cp -s repo/.git/config c",
      "cp --symbolic-link /w/repo/.git/config c", "ln -s -t links repo/.git", "cd sub && ln -s ../repo/.git d", "ln -sfn ../repo/.git sub/d",
      "while :; do ln -sfn safe d; ln -sfn repo/.git d; done"
    ]) expect([command, detectCommand(command, ENV).description]).toEqual([command, GIT_EXEC_DESCRIPTION])
  })

  it("a link to a start-up file or to a home folder", () => {
    expect(detectCommand("ln -s ~/.bashrc notes", ENV).description).toBe(SHELL_STARTUP_DESCRIPTION)
    expect(detectCommand("ln -s /home/agent h", ENV).dangerous).toBe(true)
    expect(detectCommand("ln -s /etc/profile p", ENV).dangerous).toBe(true)
  })
})

describe("code: a hard link to a file that runs", () => {
  const rows: ReadonlyArray<readonly ["python" | "node" | "perl" | "ruby" | "php", string]> = [
    ["python", "import os\nos.link('.git/config', 'n.txt')\n"],
    ["python", "import os\nsrc = 'repo/.git/' + 'config'\nos.link(src, 'n.txt')\nopen('n.txt', 'a').write(x)\n"],
    ["python", "from pathlib import Path\nsrc = '.git/config'\nPath('n.txt').hardlink_to(src)\n"],
    ["node", "const fs = require('fs')\nconst src = '.git/config'\nfs.linkSync(src, 'n.txt')\n"],
    ["node", "const { link } = require('fs/promises')\nconst s = '.git/hooks/pre-commit'\nawait link(s, 'x')\n"],
    ["perl", "my $s = '.git/config';\nlink($s, 'n.txt');\n"],
    ["ruby", "s = '.git/config'\nFile.link(s, 'n.txt')\n"],
    ["ruby", "require 'fileutils'\ns = '.git/config'\nFileUtils.ln(s, 'n.txt')\n"],
    ["php", "<?php $s = '.git/config'; link($s, 'n.txt');"]
  ]
  it("the source, spelled in the call or held in a variable, counts as written", () => {
    for (const [language, code] of rows) expect([code, detectCode(language, code, ENV).dangerous]).toEqual([code, true])
  })
  it("links of ordinary files stay quiet", () => {
    for (const [language, code] of [
      ["python", "import os\nos.link('data.csv', 'backup.csv')\n"],
      ["node", "const fs = require('fs')\nfs.linkSync('a.txt', 'b.txt')\n"],
      ["perl", "link('a.txt', 'b.txt');\n"],
      ["ruby", "File.link('a.txt', 'b.txt')\n"],
      ["php", "<?php link('a.txt', 'b.txt');"]
    ] as const) expect([code, detectCode(language, code, ENV).dangerous]).toEqual([code, false])
  })
})

describe("code: a symbolic link into a place whose files run", () => {
  it("a link to a git directory, its config or hooks, made by python, node or perl, counts as writing there", () => {
    for (const [language, code] of [
      ["python", "import os\nos.symlink('repo/.git', 'd')\n"],
      ["python", "from pathlib import Path\nPath('d').symlink_to('repo/.git')\n"],
      ["node", "const fs = require('fs')\nfs.symlinkSync('repo/.git', 'd')\n"],
      ["node", "const { symlink } = require('fs/promises')\nawait symlink('/w/repo/.git/config', 'c')\n"],
      ["perl", "symlink('repo/.git', 'd');\n"]
    ] as const) expect([code, detectCode(language, code, ENV).dangerous]).toEqual([code, true])
  })
  it("links to ordinary places stay quiet", () => {
    for (const [language, code] of [
      ["python", "import os\nos.symlink('../shared', 'shared')\n"],
      ["node", "const fs = require('fs')\nfs.symlinkSync('dist/index.js', 'main.js')\n"],
      ["perl", "symlink('data/a.csv', 'a.csv');\n"]
    ] as const) expect([code, detectCode(language, code, ENV).dangerous]).toEqual([code, false])
  })
})

describe("path literals the judge looks up", () => {
  it("names with an extension, relative and absolute paths, the home; not prose, URLs or plain words", () => {
    expect(codePathLiterals("python", "open('notes.txt', 'a')\nprint('hello world')\nurl = 'https://x.y/z'\np = '~/x'\nq = 'a/b'\nmode = 'ab'\n"))
      .toEqual(["notes.txt", "~/x", "a/b"])
    expect(codePathLiterals("node", "fs.appendFileSync(\"./log\", s)\nconsole.log('done.')")).toEqual(["./log"])
    expect(codePathLiterals("shell", "echo x > a.txt")).toEqual([])
  })
})
