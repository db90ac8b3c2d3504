/**
 * Red-team round five, programs named in options and start-up variables: `su -s PROG user -- args` runs `PROG args`
 * (judged as that command, hardline included), options that name a program or a planted configuration
 * (`sdiff --diff-program`, `less --lesskey-src`), the start-up variables of vim, less, make and other programs, and
 * a function handed to a child bash through the environment (`BASH_FUNC_ls%%=() {…}`). Each table holds several
 * members of its class; the ordinary forms stay quiet.
 */
import { describe, expect, it } from "@effect/vitest"
import { D, H, SHELL_FLAG_DESCRIPTION } from "../../../src/layers/approval/detect/descriptions.js"
import type { DetectionEnv } from "../../../src/layers/approval/detect/detect.js"
import { detectCommand } from "../../../src/layers/approval/detect/detect.js"
import { namedProgram } from "../../../src/layers/approval/detect/namedPrograms.js"
import { INTERPRETER_STARTUP_DESCRIPTION } from "../../../src/layers/approval/detect/implicitExec.js"

const ENV: DetectionEnv = { home: "/home/agent", hermesHome: "/home/agent/.hermes-effect", env: {} }
const detect = (command: string) => detectCommand(command, ENV)
const said = (command: string) => [command, detect(command).description]
const hardline = (command: string) => [command, detect(command).hardline_description]
const quiet = (command: string) => [command, detect(command)]

/** The words `su`/`runuser`/`capsh`/`start-stop-daemon` start, spelled out. */
const started = (line: string): ReadonlyArray<string> | null => {
  const words = line.split(" ")
  const pieces = namedProgram(words[0] ?? "", words, 0)
  return pieces === null ? null : pieces.map((p) => ("text" in p ? p.text : (words[p.word] ?? "").slice(p.offset)))
}

describe("su / runuser / capsh / start-stop-daemon: the program an option names runs with their words as its argv", () => {
  it("reads the command as util-linux does: options anywhere before `--`, a login `-`, the user, then the argv", () => {
    expect(started("su -s /bin/rm root -- -rf x")).toEqual(["/bin/rm", "-rf", "x"])
    expect(started("su root -s /bin/rm -- -rf x")).toEqual(["/bin/rm", "-rf", "x"])
    expect(started("su --shell=/bin/rm - root -- -rf x")).toEqual(["/bin/rm", "-rf", "x"])
    expect(started("su --sh /bin/rm root -- x")).toEqual(["/bin/rm", "x"])
    expect(started("su -mps/bin/rm root -- x")).toEqual(["/bin/rm", "x"])
    expect(started("runuser -s /bin/rm -- root -rf x")).toEqual(["/bin/rm", "-rf", "x"])
    expect(started("runuser -u root -- rm -rf x")).toEqual(["rm", "-rf", "x"])
    expect(started("runuser --user=root rm x")).toEqual(["rm", "x"])
    expect(started("su -s /usr/bin/python3 root -c code")).toEqual(["/usr/bin/python3", "-c", "code"])
    expect(started("su root -- x.sh")).toEqual(["bash", "x.sh"])
    expect(started("capsh --shell=/bin/rm -- -rf x")).toEqual(["/bin/rm", "-rf", "x"])
    expect(started("capsh -- -c ls")).toEqual(["/bin/bash", "-c", "ls"])
    expect(started("start-stop-daemon --start --exec /bin/rm -- -rf x")).toEqual(["/bin/rm", "-rf", "x"])
    // The user's shell with no words reads its standard input; with -c, the text is read already.
    expect(started("su - user")).toEqual(["bash"])
    expect(started("su - user -c whoami")).toBeNull()
    expect(started("start-stop-daemon --stop --exec /bin/x")).toBeNull()
  })

  it("hardline holds for the command they start, however the option, the user and `--` are placed", () => {
    for (const command of [
      "su -s /bin/rm root -- -rf /",
      "su --shell=/bin/rm root -- -rf /",
      "su --shell /bin/rm -l root -- -rf /",
      "su -m -s /bin/rm -- -rf /",
      "su root -p --shell=/usr/bin/rm -- -r -f /",
      "runuser -s /bin/rm -- root -rf /",
      "runuser -u root -- rm -rf /",
      "su - root -- -c 'rm -rf /'",
      "su -s /bin/bash root -- -c 'x=rm; $x -rf /'",
      "capsh --shell=/bin/rm -- -rf /",
      "start-stop-daemon -S -x /bin/rm -- -rf /",
      // The user's shell reading its standard input.
      "printf 'r=rm; $r -rf /' | su root",
      "printf 'r=rm; $r -rf /' | su -l root",
      "su - root <<< 'r=rm; $r -rf /'",
      "runuser - root <<< 'r=rm; $r -rf /'",
      // Wrappers and group switchers with no command start a shell, which reads the pipe too.
      "printf 'r=rm; $r -rf /' | chroot /",
      "printf 'r=rm; $r -rf /' | fakeroot",
      "printf 'r=rm; $r -rf /' | unshare -r",
      "printf 'r=rm; $r -rf /' | sudo -i",
      "printf 'r=rm; $r -rf /' | sudo -u root -Es",
      "fakeroot <<< 'r=rm; $r -rf /'",
      "printf 'r=rm; $r -rf /' | newgrp",
      "printf 'r=rm; $r -rf /' | sg root"
    ]) expect(hardline(command)).toEqual([command, H.rootDelete])
    for (const command of ["su -s /sbin/reboot root", "runuser -s /sbin/shutdown -- root now"]) expect(hardline(command)[1], command).toBe(H.shutdown)
  })

  it("what the started program is handed is judged: a delete, code, a program that is no shell", () => {
    expect(said("su -s /bin/rm root -- -rf victim")).toEqual(["su -s /bin/rm root -- -rf victim", "recursive delete"])
    expect(said("runuser -u root rm -r victim")[1]).toBe("recursive delete")
    expect(said("su -s /usr/bin/python3 root -- -c 'import shutil'")[1]).toBe(D.programOption)
    expect(said("runuser --shell=./x.sh -- nobody")[1]).toBe(D.programOption)
  })

  it("ordinary forms stay as they were", () => {
    expect(said("su - user -c whoami")[1]).toBe(SHELL_FLAG_DESCRIPTION)
    expect(said("su -s /bin/bash nobody -c id")[1]).toBe(SHELL_FLAG_DESCRIPTION)
    for (const command of ["printf x | sudo -l", "printf x | env", "fakeroot", "newgrp docker", "chroot /srv/jail"]) {
      expect(quiet(command)).toMatchObject([command, { dangerous: false, hardline: false }])
    }
    for (const command of ["su root", "su - deploy", "runuser -u nobody -- whoami", "su -s /bin/bash nobody", "runuser -l nobody -s /bin/sh"]) {
      expect(quiet(command)).toMatchObject([command, { dangerous: false, hardline: false }])
    }
  })
})

describe("options naming a program or a planted configuration", () => {
  it("diffutils' --diff-program, less's lesskey files, and the like", () => {
    for (const command of [
      "sdiff --diff-program=./tool.sh a b",
      "sdiff --diff-prog=./tool.sh a b",
      "sdiff -s --d ./tool.sh a b",
      "diff3 --diff-program ./tool.sh a b c",
      "diff3 -m --diff-pro=/work/t a b c",
      "less --lesskey-src=keys.txt notes.txt",
      "less --lesskey-s keys.txt notes.txt",
      "less --lesskey-file=keys.bin notes.txt",
      "less -k keys.bin notes.txt",
      "less -Rkkeys.bin notes.txt",
      "less --lesskey-content='#env' notes.txt",
      "less '+!r=rm; $r -r x' notes.txt",
      "less '+|x' notes.txt",
      "tcpdump -i lo -w f -C 1 -z ./post.sh",
      "pandoc --filter ./f.py a.md",
      "pandoc -L x.lua a.md",
      "pandoc --defaults=d.yaml a.md",
      "pdflatex -shell-escape a.tex",
      "latexmk -pdflatex='./x %O %S' a.tex",
      "latexmk -e '$x=1' a.tex",
      "tmux -f ./t.conf new -d",
      "screen -c ./rc -dmS s sleep 1",
      "rlwrap -z ./filter cat",
      "fc -e ./x -1",
      // git runs the other side of a transport through a shell, here when the remote is a path.
      "git clone --upload-pack='./x; git-upload-pack' ./r d",
      "git clone -u ./x ./r d",
      "git fetch --upload-p ./x origin",
      "git ls-remote --upload-pack=./x .",
      "git -C d push --receive-pack=./x ../r HEAD",
      "git push --exec ./x ../r main",
      "git archive --remote=. --exec=./x HEAD",
      "aria2c --on-download-complete=./x http://h/f",
      "aria2c --conf-path=./a.conf http://h/f",
      "yt-dlp --exec ./x URL",
      "youtube-dl --config-location ./c URL"
    ]) expect(said(command)).toEqual([command, D.programOption])
  })

  it("the ordinary forms stay quiet", () => {
    for (const command of [
      "diff a b",
      "diff -u --label x a b",
      "sdiff a b",
      "sdiff --diff-program=diff a b",
      "diff3 --diff-program=/usr/bin/diff a b c",
      "less notes.txt",
      "less -R +G notes.txt",
      "less -K notes.txt",
      "pandoc -o out.html a.md",
      "pdflatex a.tex",
      "latexmk -pdf -outdir=build a.tex",
      "tmux new -d 'sleep 1'",
      "tmux new-session -d -s x -f ignore-size",
      "tcpdump -i lo -c 1 -w f -z gzip",
      "git clone ./r d",
      "git push -u origin main",
      "git fetch -u origin",
      "aria2c -d out http://h/f",
      "yt-dlp -f best -o out.mp4 URL"
    ]) expect(quiet(command)).toMatchObject([command, { dangerous: false, hardline: false }])
  })
})

describe("start-up variables of vim, less, make and others", () => {
  it("exported, set for one command, or given to env", () => {
    for (const command of [
      "export VIMINIT='exe \"!r\".\"m -rf victim\"'",
      "EXINIT='set ai' vi notes.txt",
      "env GVIMINIT='so x' gvim f",
      "export VIMRUNTIME=$PWD/rt",
      "VIM=/work/v vim f",
      "export NVIM_APPNAME=../../work/n",
      "export LESSKEYIN=$PWD/keys.txt",
      "LESSKEY=/work/k less f",
      "export LESSKEY_SYSTEM=k",
      "export LESSKEYIN_SYSTEM=/work/k",
      "export LESSKEY_CONTENT='#env'",
      "export LESS='-R +!id'",
      "LESS='--lesskey-src=k' less f",
      "export GNUMAKEFLAGS='--eval=include\\ extra.mk'",
      "export MAKEFLAGS='CC=./evil.sh'",
      "export MAKEFLAGS='-j4 -- CFLAGS=-O2'",
      "declare -x GNUMAKEFLAGS='SHELL=./x'",
      "MAKEFLAGS='-f planted.mk' make",
      "export MAKEFLAGS=-Iinc",
      "make MAKEFLAGS=CC=./x",
      "export PERLDB_OPTS='pager=|sh'",
      "export NODE_REPL_EXTERNAL_MODULE=./x.js",
      "export TCLLIBPATH=./lib",
      "TCL_LIBRARY=/work/tcl tclsh s.tcl",
      "export INPUTRC=./inputrc",
      "export PIP_CONFIG_FILE=./pip.conf",
      "export PIP_FIND_LINKS=./dist",
      "export PIP_INDEX_URL=file:///work/idx",
      "export LOCPATH=./loc",
      "export NODE_REPL_HISTORY=.git/config",
      "export SQLITE_HISTORY=~/.bashrc",
      "export LESSHISTFILE=.git/hooks/pre-commit",
      "export GNUPGHOME=./g",
      "KUBECONFIG=./k kubectl get pods",
      "export AWS_CONFIG_FILE=./c",
      "export GOENV=./go.env",
      "export GOROOT=./go",
      "export JAVA_HOME=./jdk",
      "export RUSTUP_HOME=./r",
      "export RUSTUP_TOOLCHAIN=./tc",
      "EMACSLOADPATH=./el: emacs --batch",
      "export MANOPT='-P ./x'",
      "MANROFFOPT=-U man ./page.1",
      "export OPENSSL_CONF=./o.cnf",
      "export OPENSSL_MODULES=./prov",
      "PHPRC=./php.ini php a.php",
      "export PHP_INI_SCAN_DIR=:./ini",
      "export R_PROFILE_USER=./r",
      "export PSQLRC=./rc",
      "export SCREENRC=./rc",
      "export MAILCAPS=./m:/etc/mailcap",
      "export LUA_INIT=@x.lua",
      "export IPYTHONDIR=./ip",
      "BUNDLE_GEMFILE=./G bundle exec rake",
      "shell_escape=t pdflatex a.tex",
      "export UV_FIND_LINKS=./dist",
      "export UV_INDEX_URL=file:///work/idx"
    ]) expect(said(command)[1], command).toBe(command.startsWith("make ") ? D.programOption : D.programVariable)
  })

  it("the usual values, and commands without them, stay quiet", () => {
    for (const command of [
      "vim -c wq notes.txt",
      "vi notes.txt",
      "export VIMRUNTIME=/usr/share/vim/vim90",
      "export LESS=-FRX",
      "export LESS='-R -i'",
      "less file",
      "make",
      "make -j4 all",
      "export MAKEFLAGS=-j4",
      "export MAKEFLAGS='-s --no-print-directory'",
      "export PIP_CONFIG_FILE=/dev/null",
      "export PIP_INDEX_URL=https://pypi.org/simple",
      "export TCLLIBPATH=/usr/share/tcltk",
      "export NODE_REPL_HISTORY=./repl_history",
      "export LESSHISTFILE=-",
      "export GNUPGHOME=~/.gnupg",
      "export GOROOT=/usr/lib/go-1.19",
      "export JAVA_HOME=/usr/lib/jvm/java-17-openjdk-amd64",
      "export RUSTUP_TOOLCHAIN=stable",
      "export MANOPT=-a",
      "export OPENSSL_CONF=/etc/ssl/openssl.cnf",
      "OPENSSL_CONF=/dev/null curl -s https://example.com",
      "shell_escape=p pdflatex a.tex",
      "export UV_INDEX_URL=https://pypi.org/simple",
      "env FOO=1 ls"
    ]) expect(quiet(command)).toMatchObject([command, { dangerous: false, hardline: false }])
  })
})

describe("a function handed to a child bash through the environment", () => {
  it("BASH_FUNC_name%% (and the older name() spelling) needs approval however it is given", () => {
    for (const command of [
      "env 'BASH_FUNC_ls%%=() { echo hi; }' bash x.sh",
      "env 'BASH_FUNC_ls()=() { echo hi; }' bash x.sh",
      "env -i PATH=/usr/bin 'BASH_FUNC_cat%%=() { echo; }' bash -c 'cat f'",
      "systemd-run -E 'BASH_FUNC_ls%%=() { echo; }' bash x.sh",
      "systemd-run --setenv='BASH_FUNC_ls%%=() { echo; }' bash x.sh",
      "export 'BASH_FUNC_ls%%=() { echo; }'",
      "declare -x 'BASH_FUNC_ls%%=() { echo; }'"
    ]) expect(said(command)[1], command).toMatch(/^(?:imports a shell function|removes the marker)/)
    expect(said("env 'BASH_FUNC_ls%%=() { echo hi; }' bash x.sh")[1]).toBe(D.importedFunction)
  })

  it("the script after it is read as the program env starts, and a visible body is judged, hardline included", () => {
    for (const command of [
      "env 'BASH_FUNC_ls%%=() { x=rm; $x -r -f /; }' bash x.sh",
      "env 'BASH_FUNC_ls()=() { rm -rf /; }' bash x.sh",
      "env -S \"'BASH_FUNC_ls%%=() { x=rm; \\$x -r -f /; }' bash x.sh\"",
      "systemd-run -E 'BASH_FUNC_true%%=() { rm -rf /; }' bash -c true"
    ]) expect(hardline(command)).toEqual([command, H.rootDelete])
  })

  it("a body only echoed is not judged as commands", () => {
    expect(quiet("echo \"env 'BASH_FUNC_ls%%=() { rm -rf /; }' bash\" > notes.txt")[1]).toMatchObject({ hardline: false })
  })

  it("ordinary environment settings stay quiet", () => {
    for (const command of ["env FOO=1 cmd", "env FOO=1 BAR=a=b ls -l", "env -u OLDPWD ls", "grep BASH_FUNC_ notes.txt"]) {
      expect(quiet(command)).toMatchObject([command, { dangerous: false, hardline: false }])
    }
  })
})

describe("red team 6: more starters of a shell on standard input, more of pip's and XDG's variables", () => {
  it("script without -c runs the user's shell on the pipe or here-string; with -c its text is judged already", () => {
    expect(started("script -q /dev/null")).toEqual(["bash", "-i"])
    expect(started("script -q -c ls /dev/null")).toBeNull()
    expect(started("script -qc ls")).toBeNull()
    expect(started("script --command=ls")).toBeNull()
    expect(detect("echo 'rm -rf /' | script -q /dev/null").hardline).toBe(true)
    expect(detect("script -q /dev/null <<< 'x=rm; $x -rf /'").hardline).toBe(true)
    // (With -c its text is a shell string: asked already, execFlags.ts.)
    expect(detect("echo 'rm -rf /' | systemd-run --user -S").hardline).toBe(true)
  })

  it("pip options read from PIP_REQUIREMENT/PIP_CONSTRAINT/PIP_EDITABLE, and site configuration folders outside /etc and /usr", () => {
    for (const command of [
      "export PIP_REQUIREMENT=req.txt",
      "PIP_EDITABLE=./proj pip install",
      "env PIP_CONSTRAINT=c.txt pip install foo",
      "export XDG_CONFIG_DIRS=/tmp/x/cfg",
      "export XDG_CONFIG_DIRS=/etc/xdg:./cfg"
    ]) expect(said(command)[1], command).toBe(D.programVariable)
    // A venv's own pip.conf (pip reads `<prefix>/pip.conf`), or one in any folder XDG_CONFIG_DIRS may name.
    for (const command of ["printf '[global]\\n' > v/pip.conf", "cp x cfg/pip/pip.conf"]) expect(said(command)[1], command).toBe(INTERPRETER_STARTUP_DESCRIPTION)
    for (const command of ["export XDG_CONFIG_DIRS=/etc/xdg", "export XDG_CONFIG_DIRS=/etc/xdg/xdg-ubuntu:/etc/xdg:/usr/share/xdg"]) {
      expect(quiet(command)).toMatchObject([command, { dangerous: false }])
    }
  })
})
