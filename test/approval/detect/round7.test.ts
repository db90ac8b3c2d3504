/**
 * Round 7: the remainders of rounds 5 and 6 closed by class. fd's filled names read as option lists, programs that
 * start a shell or type a recorded log into one (machinectl shell, torsocks --shell, scriptlive), pip's and uv's
 * variables and options naming programs and places, less's log file (an option, LESS, typed `s`/`-o`), the `!cmd`
 * lines of sftp/ftp/mail, the keys of programs that start a pager, vim's `%` in a write target, and Ruby's, Perl's
 * and a venv's files that run later. Each table holds several members of its class; ordinary forms stay quiet.
 */
import { describe, expect, it } from "@effect/vitest"
import type { DetectionEnv } from "../../../src/layers/approval/detect/detect.js"
import { detectCommand } from "../../../src/layers/approval/detect/detect.js"
import { typedEditorInput } from "../../../src/layers/approval/detect/editorCommands.js"
import { consoleText } from "../../../src/layers/approval/detect/consoleCommands.js"
import { implicitlyExecuted } from "../../../src/layers/approval/detect/implicitExec.js"
import { inputReaders } from "../../../src/layers/processes/inputLanguage.js"

const ENV: DetectionEnv = { home: "/home/agent", hermesHome: "/home/agent/.hermes-effect", env: {} }
const asks = (command: string) => [command, detectCommand(command, ENV).dangerous]
const hardline = (command: string) => [command, detectCommand(command, ENV).hardline]

describe("fd -x / -X: the names fd fills in can be options", () => {
  it("asks when a found name (a basename, an appended path, a batch) reaches a program with powerful options", () => {
    for (const command of [
      "fd -x find /tmp/victim {/}",
      "fd -x find /tmp/victim {/.}",
      "fd -X find /tmp/victim",
      "fd -X find /tmp/victim {}",
      "fd --strip-cwd-prefix . -x python3 {}",
      "fdfind -x git {/}",
      "fd -x sed -i s/a/b/ {/}"
    ]) {
      expect(asks(command)).toEqual([command, true])
    }
  })

  it("stays quiet for readers, and for paths under a search path the line gives", () => {
    for (const command of ["fd -e py -x wc -l {}", "fd -e py . src -x black {}", "fd -a -e md -x pandoc {} -o /tmp/out.html", "fd -t f -X ls -l", "fd -e txt -x cat"]) {
      expect(asks(command)).toEqual([command, false])
    }
  })
})

describe("programs that start a shell or type a recorded log into one", () => {
  it("machinectl shell runs its command (or a shell on its input); torsocks --shell starts one", () => {
    for (const command of ["machinectl shell .host /bin/rm -rf /", "machinectl -q shell root@.host /usr/bin/rm -rf /", "echo 'rm -rf /' | machinectl shell", "echo 'rm -rf /' | torsocks --shell"]) {
      expect(hardline(command)).toEqual([command, true])
    }
    for (const command of ["machinectl list", "machinectl status foo", "torsocks curl https://example.org"]) expect(asks(command)).toEqual([command, false])
  })

  it("scriptlive replays a recorded input into a shell", () => {
    for (const command of ["scriptlive -I in.log -T t.log", "scriptlive -c sh --log-in in.log --log-timing t.log", "scriptlive -B io.log -T t.log"]) {
      expect(asks(command)).toEqual([command, true])
    }
    expect(asks("scriptlive --version")).toEqual(["scriptlive --version", false])
    expect(asks("scriptreplay -T t.log out.log")).toEqual(["scriptreplay -T t.log out.log", false])
  })
})

describe("pip's and uv's variables and options naming programs and places", () => {
  it("asks for the interpreter, source, target, cache and log places, set or exported", () => {
    for (const command of [
      "export PIP_PYTHON=./x.sh", "export PIP_SRC=/tmp/c", "PIP_EXISTS_ACTION=w pip install -e .", "export PIP_TARGET=~/.local/lib/python3.11/site-packages",
      "export PIP_CACHE_DIR=./cache", "export PIP_LOG=~/.bashrc", "export UV_PYTHON=./x.sh", "export UV_CONSTRAINT=c.txt", "export UV_ENV_FILE=.env",
      "UV_CACHE_DIR=./c uv sync", "export UV_PROJECT_ENVIRONMENT=/tmp/venv",
      "pip --python ./x.sh --version", "python3 -m pip --python ./x.sh list", "pip3.11 --pyt=./x install foo", "uv run -p ./bin/python y.py", "uv run --python=./x y.py", "uv run --env-file .env y.py"
    ]) {
      expect(asks(command)).toEqual([command, true])
    }
    for (const command of ["pip --version", "python3 -m pip list", "python3 -m http.server", "export PIP_NO_CACHE_DIR=1", "export PIP_DISABLE_PIP_VERSION_CHECK=1", "uv run -p 3.12 y.py", "uv run --python pypy y.py", "export UV_NO_PROGRESS=1"]) {
      expect(asks(command)).toEqual([command, false])
    }
  })
})

describe("less's log file: a write like any other", () => {
  it("judges -o/-O/--log-file and LESS as writes of the piped text", () => {
    for (const command of ["cat x | less -o .git/hooks/pre-commit", "cat x | less -O~/.bashrc", "cat x | less --log-file=/home/agent/.profile", "LESS='-o f' less x", "LESS=--log-file=f less x", "PAGER='less -o ~/.bashrc' git log", "GIT_PAGER='less -Ofile' git log", "git -c core.pager='less -o x' log"]) {
      expect(asks(command)).toEqual([command, true])
    }
    for (const command of ["cat x | less -o notes.log", "less -R f", "LESS=-R less f", "PAGER='less -R' git log", "GIT_PAGER=cat git log"]) expect(asks(command)).toEqual([command, false])
  })

  it("typed keys: `s NAME`, `-o NAME`, `-O NAME` save the input; a long option's file is not shown", () => {
    const writes = (text: string) => [text, typedEditorInput("pager-keys", text).writes]
    expect(writes("s.git/hooks/pre-commit")).toEqual(["s.git/hooks/pre-commit", [".git/hooks/pre-commit"]])
    expect(writes("10js ~/.bashrc")).toEqual(["10js ~/.bashrc", ["~/.bashrc"]])
    expect(writes("-o~/.profile")).toEqual(["-o~/.profile", ["~/.profile"]])
    expect(writes("-O .git/config")).toEqual(["-O .git/config", [".git/config"]])
    expect(writes("/pattern with s")).toEqual(["/pattern with s", []])
    expect(writes("ma")).toEqual(["ma", []])
    expect(typedEditorInput("pager-keys", "--log-file").runs).toBe(true)
    expect(typedEditorInput("pager-keys", "-R").runs).toBe(false)
  })
})

describe("sftp, ftp, lftp and mail: `!cmd` lines in what they read", () => {
  it("asks for shell escapes piped, in a heredoc, inline or in a batch file, and judges their text as shell", () => {
    for (const command of ["echo '!rm -rf /' | sftp -b - host", "ftp -n host <<'EOF'\n!rm -rf /\nEOF", "lftp -c '!rm -rf /'", "echo '~!rm -rf /' | mail -s x u@h"]) {
      expect(hardline(command)).toEqual([command, true])
    }
    for (const command of ["echo '!' | sftp host", "printf 'get a |sh\\n' | ftp -n host", "echo '| 1 sh' | mail", "echo '~|sh' | mail -s x u@h", "smbclient //h/s -c '!sh x.sh'", "printf '\\035!sh x.sh\\n' | telnet h 80", "echo '!sh x.sh' | telnet", "mutt -F ./muttrc", "mutt -e 'source x'"]) {
      expect(asks(command)).toEqual([command, true])
    }
    expect(consoleText("bang-lines", "get notes ~/.bashrc").writes).toEqual(["~/.bashrc"])
    for (const command of ["echo 'ls' | sftp -b - host", "echo 'a | b' | mail -s subject u@h", "printf 'cd pub\\nget a.txt\\n' | ftp -n host"]) {
      expect(asks(command)).toEqual([command, false])
    }
  })
})

describe("programs that start a pager read typed keys as the pager's", () => {
  it("git, journalctl, systemctl, psql: their keys are pager keys and vi keys too", () => {
    expect(inputReaders("git log", 0, true)).toEqual(["shell", "pager-keys", "vim-keys"])
    expect(inputReaders("GIT_PAGER=less git -p diff", 0, true)).toEqual(["shell", "pager-keys", "vim-keys"])
    expect(inputReaders("journalctl -u x", 0, true)).toEqual(["shell", "pager-keys", "vim-keys"])
    expect(inputReaders("psql db", 0, true)).toEqual(["psql", "pager-keys", "vim-keys"])
    expect(inputReaders("cd repo && git log", 0, true)).toEqual(["shell", "pager-keys", "vim-keys"])
    // On a pipe git and psql start no pager.
    expect(inputReaders("git log")).toEqual(["shell"])
    expect(inputReaders("psql db")).toEqual(["psql"])
    expect(inputReaders("cat", 0, true)).toEqual(["shell"])
  })

  it("sftp reads `!cmd` lines; mail given a recipient composes (its `~` escapes)", () => {
    expect(inputReaders("sftp host")).toEqual(["bang-lines"])
    expect(inputReaders("mail u@h")).toEqual(["mail-compose"])
    expect(inputReaders("mail")).toEqual(["bang-lines"])
    expect(consoleText("mail-compose", "hello | world\n!ls").runs).toBe(false)
    expect(consoleText("mail-compose", "~!rm -rf /").shell).toEqual(["rm -rf /"])
  })
})

describe("vim: `%` and `#` in a write target are the file names", () => {
  it("substitutes the current file, and asks where only vim knows the name", () => {
    for (const command of ["vim -es -u NONE -c 'w! repo/.%/config' -c 'qa!' git", "vim -es -c 'sav ~/.%' -c q bashrc", "vim -es -c 'e bashrc' -c 'w ~/.%' -c q x"]) {
      expect(asks(command)).toEqual([command, true])
    }
    for (const command of ["vim -es -c 'w %:h/x' -c q f", "vim -es -c 'w %<.sh' -c q f", "vim -es -c 'w $HOME/.bashrc' -c q f", "vim -es -c 'w `echo x`' -c q f"]) {
      expect(asks(command)).toEqual([command, true])
    }
    expect(detectCommand("cd repo && vim -es -c 'e config' -c 'sav! .git/%' -c q", ENV).description).toMatch(/git config/)
  })

  it("a file vim or ed opens or names is the one a bare write writes", () => {
    for (const command of [
      "vim -es -c 'e .git/config' -c 'r payload' -c w -c q", "vim -es -c 'e repo/.%/config' -c 'r git' -c w -c q git", "vim -es -c 'f ~/.bashrc' -c w -c q x",
      "vim -es -c 'sp +1 ~/.profile' -c 'r p' -c wq", "vim -es -c 'tabe ~/.bashrc' -c x", "ed -s x <<< $'f .git/config\\nw'", "ed -s <<< $'e ~/.bashrc\\nr p\\nw'", "vim -es -c 'e %:h/x' -c w f"
    ]) {
      expect(asks(command)).toEqual([command, true])
    }
    for (const command of ["vim -es -c 'e notes.txt' -c 'r a' -c w -c q", "vim -c 'sp +10 src/a.ts' f", "vim -es -c 'e #' -c w -c q f", "ed -s notes.txt <<< $'e other.txt\\nw'"]) {
      expect(asks(command)).toEqual([command, false])
    }
    for (const command of ["vim -es -c 'w %.bak' -c q notes.txt", "vim -es -c 'sav %.orig' -c q notes.txt", "vim -es -c 'w! backup/%' -c q notes.txt", "vim -es -c 'w \\%x' -c q f"]) {
      expect(asks(command)).toEqual([command, false])
    }
  })
})

describe("files that run later: Ruby's and Perl's library folders, a venv's pyvenv.cfg", () => {
  it("counts writes there as planting code", () => {
    const env = { home: "/home/agent", hermesHome: "/home/agent/.hermes-effect" }
    for (const path of [
      "/home/agent/.gem/ruby/3.1.0/gems/rake-13.0/lib/rake.rb",
      "/home/agent/.local/share/gem/ruby/3.2.0/specifications/x.gemspec",
      "/work/app/vendor/bundle/ruby/3.1.0/gems/rack/lib/rack.rb",
      "/home/agent/.rbenv/versions/3.2.0/lib/ruby/site_ruby/x.rb",
      "/home/agent/perl5/lib/perl5/strict.pm",
      "/work/app/local/lib/perl5/Foo.pm",
      "/usr/local/lib/site_perl/Foo.pm",
      "/work/app/.venv/pyvenv.cfg",
      "/home/agent/.luarocks/share/lua/5.4/socket.lua",
      "/home/agent/R/x86_64-pc-linux-gnu-library/4.3/dplyr/R/dplyr",
      "/home/agent/.julia/config/startup.jl",
      "/home/agent/.npm-global/lib/node_modules/npm/index.js",
      "/home/agent/go/pkg/mod/github.com/x/y@v1.0.0/y.go",
      "/home/agent/.cargo/registry/src/index.crates.io-6f17d22bba15001f/serde-1.0.0/build.rs",
      "/home/agent/.gemrc",
      "/home/agent/.config/uv/uv.toml",
      "/work/app/uv.toml",
      "/home/agent/.condarc"
    ]) {
      expect([path, implicitlyExecuted(path, env) !== null]).toEqual([path, true])
    }
    for (const path of ["/work/app/lib/foo.rb", "/work/app/lib/Foo.pm", "/work/app/gems.txt", "/work/app/perl.md", "/work/app/src/lua/x.lua", "/work/app/R/analysis.R", "/home/agent/.cargo/config.toml.bak", "/work/app/go/main.go"]) {
      expect([path, implicitlyExecuted(path, env)]).toEqual([path, null])
    }
    expect(asks("echo 'home = /tmp/x' > .venv/pyvenv.cfg")).toEqual(["echo 'home = /tmp/x' > .venv/pyvenv.cfg", true])
  })
})

describe("xargs: names reaching a subcommand or a script's \"$@\"", () => {
  it("a find start path that is a bare word is printed first and may be a subcommand", () => {
    for (const command of ["find clean -print0 | xargs -0 git", "find -L clean -type f -print0 | xargs -0 git"]) expect(asks(command)).toEqual([command, true])
    for (const command of ["find . -name '*.py' -print0 | xargs -0 black", "find ./clean -print0 | xargs -0 git add", "find /tmp/x -print0 | xargs -0 black", "find src -name '*.ts' -print0 | xargs -0 sed -i s/a/b/", "find clean -print0 | xargs -0 git add"]) {
      expect(asks(command)).toEqual([command, false])
    }
  })

  it("a shell script given the names may pass them on as \"$@\" to a program with options", () => {
    for (const command of ["xargs bash x.sh < list", "ls | xargs sh ./run.sh", "fd -x bash x.sh"]) expect(asks(command)).toEqual([command, true])
    for (const command of ["find . -print0 | xargs -0 bash x.sh", "ls | xargs python3 x.py", "ls | xargs sh -c 'wc -l \"$@\"' _"]) expect(asks(command)).toEqual([command, false])
  })
})

describe("HISTFILE naming a file that runs", () => {
  it("asks where it is set: any interactive bash (a plain `bash` on a terminal too) writes it on exit", () => {
    for (const command of ["export HISTFILE=.git/config", "HISTFILE=~/.bashrc", "declare -x HISTFILE=repo/.git/hooks/pre-commit", "read HISTFILE < f"]) {
      expect(asks(command)).toEqual([command, true])
    }
    for (const command of ["export HISTFILE=~/.bash_history", "HISTFILE=/dev/null", "export HISTFILE=/tmp/h.txt"]) expect(asks(command)).toEqual([command, false])
  })
})
