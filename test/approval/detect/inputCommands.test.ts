/**
 * Programs that run commands found in what they read or are given: sed's `e`
 * command and `s///e` flag, awk's `system()` and pipes, git's `rebase -x`,
 * `bisect run`, `submodule foreach` and filters, fd's `-x`. Text built at run
 * time asks; a literal command is judged as the shell command it is.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { judgeIn, world } from "../../support/judgeWorld.js"
import type { DetectionEnv } from "../../../src/layers/approval/detect/detect.js"
import { detectCommand } from "../../../src/layers/approval/detect/detect.js"
import { gitOptions } from "../../../src/layers/approval/detect/gitOptions.js"
import { sedScriptRuns } from "../../../src/layers/approval/detect/inputCommands.js"
import { typedEditorInput } from "../../../src/layers/approval/detect/editorCommands.js"

const ENV: DetectionEnv = { home: "/home/tester", hermesHome: "/home/tester/.hermes", variables: { PATH: "/usr/bin:/bin" } }
const RUNS = "runs text it reads as commands (sed's e command or s///e flag, awk's system() or pipes on computed text, an editor's scripts or vimscript)"
const verdict = (command: string) => [command, detectCommand(command, ENV).description]
const quiet = (command: string) => [command, detectCommand(command, ENV).dangerous]

describe("sed", () => {
  it("the e command and the s///e flag run the pattern space", () => {
    for (const command of ["sed -n e f", "sed 's/.*/&/e' f", "sed -i '1e cat' f", "sed -e '/x/e' f", "sed -E 's|a|b|ge' f", "sed -ne 'e' f"]) {
      expect(verdict(command)).toEqual([command, RUNS])
    }
  })

  it("editing scripts stay quiet, whatever letters their text holds", () => {
    for (const command of ["sed -e 's/a/b/g' -e '/x/d' f", "sed -i 's|/usr/local|/opt|g' f", "sed 's/e/E/g' f", "sed -n '/start/,/end/p' f", "sed '1i header' f", "sed '$a\\\\end' f", "sed 'y/abc/xyz/' f", "sed -E 's/(a|b)+/c/' f", "sed --sandbox e f", "sed ':a;N;$!ba;s/\\\\n/ /g' f"]) {
      expect(quiet(command)).toEqual([command, false])
    }
  })

  it("the scanner follows addresses, delimiters, escapes and text commands", () => {
    expect(sedScriptRuns("/e/ s/e\\/e/x/e")).toBe(true)
    expect(sedScriptRuns("/e/ s/e\\/e/x/g")).toBe(false)
    expect(sedScriptRuns("a\\\ne text\ne")).toBe(true)
    expect(sedScriptRuns("\\,e,d")).toBe(false)
    expect(sedScriptRuns("s/x/y/w out.e\n$e")).toBe(true)
  })
})

describe("awk", () => {
  it("system(), pipes into shells and commands built from input run it", () => {
    for (const command of ["awk '{system($0)}' f", "awk '{ system(\"ls \" $1) }' f", "awk '{print | \"sh\"}' f", "awk '{ print | \"/bin/bash\" }' f", "awk '{ $0 | getline x }' f", "awk '{ cmd = \"ls \" $1; cmd | getline out }' f", "gawk '{ printf \"%s\\n\", $0 | cmd }' f"]) {
      expect(verdict(command)).toEqual([command, RUNS])
    }
  })

  it("literal commands are judged as shell; plain programs stay quiet", () => {
    expect(detectCommand("awk 'BEGIN { system(\"rm -rf /\") }'", ENV).hardline).toBe(true)
    for (const command of ["awk 'BEGIN { system(\"date\") }'", "awk '{print $1}' f", "awk -F: '{ if ($3 > 100 || $1 == \"x\") print $1 }' /etc/passwd", "awk '/a|b/ {print}' f", "awk '{ \"date\" | getline d; print d }' f", "awk '{ print $1 | \"sort\" }' f"]) {
      expect(quiet(command)).toEqual([command, false])
    }
  })
})

describe("git and fd run the commands they are given", () => {
  it("judged as the commands they are", () => {
    for (const command of ["git rebase --exec='rm -rf /' HEAD~1", "git submodule foreach --recursive rm -rf /", "git bisect run rm -rf /", "git -C repo bisect run rm -rf /", "git filter-branch --tree-filter 'rm -rf /' HEAD"]) {
      expect([command, detectCommand(command, ENV).hardline]).toEqual([command, true])
    }
    for (const command of ["x=rm; fd -x $x", "fd -e tmp -X rm -f"]) expect(verdict(command)).toEqual([command, "fd -x/-X rm"])
    for (const command of ["git rebase -x 'npm test' HEAD~3", "git submodule foreach 'git pull'", "git -C repo bisect run make test", "git log --oneline", "fd -e py -x wc -l", "fd -e md -x sh -c 'wc -l \"$1\"' _ {}"]) {
      expect(quiet(command)).toEqual([command, false])
    }
  })
})

describe("git's own options, read once for every check", () => {
  it("the subcommand is found after any of git's valued options, joined or separate", () => {
    expect(gitOptions(["-C", "d", "-c", "k=v", "--git-dir=x", "--list-cmds", "main", "--no-pager", "status"]).sub).toBe(8)
    expect(gitOptions(["--attr-source", "HEAD", "rebase", "-x", "y"]).sub).toBe(2)
    expect(gitOptions(["-ckey=v", "log"]).options).toEqual([{ at: 0, name: "-c", value: "key=v", valueAt: 0 }])
    for (const command of ["git --list-cmds main rebase -x 'rm -rf /' HEAD~1", "git --no-pager -C . --work-tree w submodule foreach rm -rf /"]) {
      expect([command, detectCommand(command, ENV).hardline]).toEqual([command, true])
    }
  })
})

describe("editors run ex commands and vimscript", () => {
  it("shell commands they spell out are judged as shell; vimscript and buffers fed to shells ask", () => {
    for (const command of ["vim -es -c '!rm -rf /' -c 'q!'", "vim -c 'g/x/!rm -rf /' f", "vim -c 'sil !rm -rf /' f", "ed -s f <<'EOF'\n!rm -rf /\nq\nEOF", "ex -s f <<< 'r !rm -rf /'"]) {
      expect([command, detectCommand(command, ENV).hardline]).toEqual([command, true])
    }
    for (const command of [
      "vim -c 'call system(\"id\")' f", "vim -c 'exe \"!id\"' f", "vim -c '%s/a/\\=system(\"id\")/' f", "vim -c 'normal :!id' f",
      "vim -c 'w !sh' f", "vim -c '%!python3' f", "vim --cmd 'py3 import os' f", "vim '+so x.vim' f", "ed -s f <<< 'w !bash'",
      "printf 'w\\n' | ed f", "ex -s f <<< \"$c\"", "emacs --batch --eval '(shell-command \"id\")'", "emacs -l x.el"
    ]) {
      expect(verdict(command)).toEqual([command, RUNS])
    }
    for (const command of [
      "vim -c '%s/foo/bar/g' -c wq f", "vim -c 'set ff=unix' -c wq f", "vim +10 f", "vim +/main f", "vim -c 'g/x/d' -c wq f",
      "vim -c 'normal gg=G' -c wq f", "vim -c '%!sort' -c wq f", "vim -c 'w !cat' f", "ed -s f <<'EOF'\n,s/a/b/g\nw\nq\nEOF",
      "ex -s f <<< 'r !date'", "vim -u NONE f", "emacs -nw f", "vim -c 'w! out.txt' -c q f", "vim -c 'e! f' f"
    ]) {
      expect(quiet(command)).toEqual([command, false])
    }
    // Files they write are judged as writes: `:w ~/.bashrc` is a write to a start-up file.
    for (const command of ["vim -es -c 'w! ~/.bashrc' -c q f", "vim -c 'wq ++ff=unix ~/.profile' f", "ed -s f <<< 'w ~/.bash_profile'"]) {
      expect(verdict(command)).toEqual([command, "write to a shell start-up file"])
    }
    expect(verdict("vim -c 'mksession! .git/hooks/pre-commit' f")).toEqual(["vim -c 'mksession! .git/hooks/pre-commit' f", "write to git config or hooks (commands git runs)"])
  })
})

describe("editors substitute file names and the previous command into a `!` command", () => {
  it("`%`, `#` and `!` are replaced by what the line tells, as the editor does before the shell sees the text", () => {
    for (const command of ["ed -s rm <<< '!% -rf /'", "ed rm <<'E'\nr !% -rf /\nq\nE", "vim -es -c 'w !% -rf /' rm", "ex -s -c 'e rm' -c 'e x' -c '!# -rf /'"]) {
      expect([command, detectCommand(command, ENV).hardline]).toEqual([command, true])
    }
    for (const command of [
      "ed -s rm <<< 'r !% -r -f d'", "vim -c '1,2!% -fr d' rm", "vi -e rm <<< '!% -rf d'", "vim '+!% -rf d' rm", "vim -c 'e rm' -c 'e x' -c 'sil !# -rf d'",
      "vim -c 'r rm' -c '!# -rf d' x", "ed -s x <<'E'\n!r\n!!m -rf d\nq\nE", "vim -c '!r' -c '!echo; !m -rf d' x", "vim -es rm <<'E'\n!% -rf d\nE",
      "vim -c 'f rm' -c '!% -rf d' x"
    ]) {
      expect(verdict(command)).toEqual([command, "recursive delete"])
    }
  })

  it("a substitution the line cannot tell makes the command computed", () => {
    for (const command of ["ed -s \"$f\" <<< '!% -rf d'", "vim -c 'bn' -c '!% -rf d' x y", "vim -c '!%:t -rf d' x", "vim -c '!<cword> -rf d' x", "vim -t main -c '!% x'", "vim -c '!#2 x' x"]) {
      expect(verdict(command)).toEqual([command, RUNS])
    }
  })

  it("ordinary commands on the file stay quiet; an escaped `%` is literal", () => {
    for (const command of ["vim -c '!wc -l %' f.txt", "ed -s f <<< '!wc %'", "vim -c 'set ff=unix' -c '!python3 %' -c q f.py", "ed -s rm <<< '!\\% -rf d'", "vim -c '!make' -c '!echo !' f"]) {
      expect(quiet(command)).toEqual([command, false])
    }
  })
})

describe("code built when the command runs", () => {
  it("a sed script, an awk program or a git -c setting from a file or an unknown value asks", () => {
    for (const command of ["sed \"$(cat f)\" x", "sed -e \"$(cat f)\" x", "s=$(cat f); sed \"s/x/$s/\" y", "sed \"s/a/b/$(cat f)\" x", "x=e; sed \"s/a/b/$x\" f", "p=$(cat f); awk \"$p\" x"]) {
      expect(verdict(command)).toEqual([command, RUNS])
    }
    for (const command of ["git -c \"$(cat f)\" status", "k=core.fsmonitor=./evil; git -c \"$k\" status"]) {
      expect(verdict(command)).toEqual([command, "set a git config key that makes git run a program"])
    }
  })

  it("values known to be harmless stay quiet", () => {
    for (const command of ["V=1.2; sed \"s/version/$V/\" f", "sed \"s/version/$VERSION/\" f", "sed -n \"${start},${end}p\" f", "awk -v n=\"$(cat f)\" \"{print n}\" x", "k=user.name=me; git -c \"$k\" commit"]) {
      expect(quiet(command)).toEqual([command, false])
    }
  })
})

describe("bash running text it is handed", () => {
  it("a value expanded as a prompt and compgen -C's command", () => {
    for (const command of ["x=$(cat f); echo \"${x@P}\"", "echo ${PS1@P}", "y=${v@P}", "compgen -C \"$(cat f)\" x", "complete -C \"$(cat f)\" git"]) {
      expect(detectCommand(command, ENV).dangerous).toBe(true)
    }
    for (const command of ["echo \"${x@Q}\"", "echo ${x^^}", "echo ${#x}", "compgen -c git", "compgen -W 'a b' a"]) {
      expect(quiet(command)).toEqual([command, false])
    }
  })
})

describe("text typed into a running editor", () => {
  it("ed and ex read commands; vim's keys reach a command line through `:` and more", () => {
    const runs = (reader: "ed-commands" | "ex-commands" | "vim-keys", text: string) => [reader, text, typedEditorInput(reader, text).runs]
    for (const [reader, text] of [["ex-commands", "exe \"!r\".\"m -rf d\""], ["ed-commands", "!% -rf d"], ["ed-commands", "!!m -rf d"], ["vim-keys", "ihello\u001b:!rm -rf d"], ["vim-keys", "!!sh"], ["ex-commands", "!# -rf d"]] as const) {
      expect(runs(reader, text)).toEqual([reader, text, true])
    }
    for (const [reader, text] of [["ed-commands", "!make"], ["ex-commands", "%s/a/b/g"], ["vim-keys", ":!make"], ["vim-keys", "ggdG"], ["ed-commands", ",p"]] as const) {
      expect(runs(reader, text)).toEqual([reader, text, false])
    }
    expect(typedEditorInput("ed-commands", "!rm -rf /").shell).toEqual(["rm -rf /"])
  })
})

describe("an editor's script read from a file", () => {
  it.effect("its `%`, `#` and previous-command substitutions are not known there: they ask; a plain script is judged as written", () =>
    Effect.gen(function*() {
      for (const command of ["ed -s rm < s.ed", "vim -u NONE -s s.keys rm", "ex -s rm < s.ed", "vim -u NONE -S s.vim rm"]) {
        const files = { "/w/s.ed": "!% -rf d\nq\n", "/w/s.keys": ":!% -rf d\n:q!\n", "/w/s.vim": "!# -rf d\n" }
        expect([command, (yield* judgeIn(command, world(files))).detection.description]).toEqual([command, RUNS])
      }
      expect((yield* judgeIn("ed -s f < s.ed", world({ "/w/s.ed": "!rm -rf /\nq\n" }))).detection.hardline).toBe(true)
      expect((yield* judgeIn("ed -s f < s.ed", world({ "/w/s.ed": ",s/a/b/\n!wc -l f\nw\nq\n" }))).detection.dangerous).toBe(false)
    }))
})

describe("red team 6: more ways editors and pagers run commands", () => {
  it("vim: a register run as ex commands, a +cmd given to a command that opens a file, an option naming a program", () => {
    for (const command of [
      "vim -c '1y a' -c '@a' -c 'qa!' notes.txt", "vim -c 'norm yy' -c '@\"' f", "ex -s f <<< '@@'",
      "vim -c 'e +w\\ !sh other.txt' -c 'qa!'", "vim -c 'sp +exe\\ \"!id\" f'", "vim -c 'tabe +%!python3 f'",
      "vim -c 'set ep=sh\\ x.sh' -c 'norm gg=G' f", "vim -c 'setl formatprg=./fmt' -c 'norm gqq' f", "vim -c 'se kp=./x' f",
      "vim -c 'set rtp^=./plug' -c 'filetype plugin on' f", "vim -c 'set shell=./x' f", "vim -c 'colo ../../../../tmp/x' f",
      "vim -es -c 'compiler ../../../w/evil'"
    ]) {
      expect(verdict(command)).toEqual([command, RUNS])
    }
    expect(detectCommand("vim -c 'e +!rm\\ -rf\\ / f' -c 'qa!'", ENV).hardline).toBe(true)
    for (const command of ["vim -c 'e +10 f'", "vim -c 'sp +/main f'", "vim -c 'e ++ff=unix f'", "vim -c 'set ts=4 sw=4 et' -c wq f", "vim -c 'set nonumber' -c wq f", "vim -c 'setl ft=python' -c wq f", "vim -c 'colo desert' -c wq f", "vim -c 'compiler gcc' f"]) {
      expect(quiet(command)).toEqual([command, false])
    }
  })

  it("ed: E and W (and wq) take `!command` like e, r and w", () => {
    for (const command of ["ed -s f <<< 'E !rm -rf /'", "ed -s f <<'E'\nW !rm -rf /\nq\nE", "ed -s f <<< 'wq !rm -rf /'"]) {
      expect([command, detectCommand(command, ENV).hardline]).toEqual([command, true])
    }
    expect(verdict("ed -s rm <<< 'E !% -rf d'")).toEqual(["ed -s rm <<< 'E !% -rf d'", "recursive delete"])
    expect(verdict("ed -s f <<< 'W !sh'")).toEqual(["ed -s f <<< 'W !sh'", RUNS])
  })

  it("a pager's keys typed into it: `!cmd` with its substitutions, `|m cmd`", () => {
    const typed = (text: string) => [text, typedEditorInput("pager-keys", text).runs]
    for (const text of ["!% -rf d", "!# x", "!!", "|a sh", "gg!ls", "\u0003"]) expect(typed(text)).toEqual([text, true])
    for (const text of ["q", "/pattern", " ", "G", ":n", "!make"]) expect(typed(text)).toEqual([text, false])
    expect(typedEditorInput("pager-keys", "!rm -rf /").shell).toEqual(["rm -rf /"])
    expect(typedEditorInput("pager-keys", "|a rm -rf /").shell).toEqual(["rm -rf /"])
  })
})
