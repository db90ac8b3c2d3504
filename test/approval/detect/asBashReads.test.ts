/**
 * The line as bash reads and computes it, where a reading that skips one of
 * bash's rules would see a harmless program: `((…) )` is a subshell, not
 * arithmetic; `&` in a replacement is the matched text; substring offsets are
 * arithmetic (octal, hex); printf honours a precision and reuses its format;
 * an assignment to a read-only name fails and keeps the old value; a pattern
 * may be an extended glob or match without case (options an earlier line or
 * call may have set); `set -k` puts every NAME=value word into the program's
 * environment. Each class by several members, with everyday lines that stay quiet.
 */
import { describe, expect, it } from "@effect/vitest"
import type { DetectionEnv } from "../../../src/layers/approval/detect/detect.js"
import { detectCommand, inspectCommand } from "../../../src/layers/approval/detect/detect.js"

const ENV: DetectionEnv = { home: "/home/tester", hermesHome: "/home/tester/.hermes", variables: { PATH: "/usr/bin:/bin", HOME: "/home/tester" } }

const flagged = (command: string) => [command, detectCommand(command, ENV).dangerous]

const expectAll = (commands: ReadonlyArray<string>, dangerous: boolean) => {
  for (const command of commands) expect(flagged(command)).toEqual([command, dangerous])
}

describe("text bash runs as commands although it reads like arithmetic", () => {
  it("asks for a subshell in parens that do not close as `))`", () => {
    expectAll([
      "((rm -rf /tmp/v) )",
      "((shred -u x) ; (rm -rf /tmp/v))",
      "(( 1 )) && ((rm -rf /tmp/v);)",
      "echo $((rm -rf /tmp/v)|cat)",
      "x=$((cd /; rm -rf /tmp/v) ); echo $x",
      "if true; then ((rm -rf /tmp/v)& wait); fi",
      "echo \"$((rm -rf /tmp/v) )\""
    ], true)
  })

  it("reads real arithmetic as arithmetic", () => {
    expectAll([
      "(( i++ ))",
      "(( (1 + 2) * 3 ))",
      "echo $(( (1 + 2) * 3 ))",
      "for ((i = 0; i < 3; i++)); do echo $i; done",
      "n=$((n + 1)); echo $n",
      "echo $(( $(wc -l < f) + 1 ))"
    ], false)
  })
})

describe("values bash computes by rules a plain reading would skip", () => {
  it("asks when a replacement's `&` may stand for the matched text", () => {
    expectAll(["x=r; ${x/r/&m} -rf /tmp/v", "x=m; ${x/m/r&} -rf /tmp/v", "x=rr; ${x//r/&} -rf /tmp/v; y=m; ${y/%m/r&} -rf /tmp/v"], true)
  })

  it("reads substring offsets as bash's arithmetic does (octal, hex)", () => {
    expectAll(["x=abcdefghrmls; ${x:010:2} -rf /tmp/v", "x=abcdefghrmls; ${x: 0x8 : 2} -rf /tmp/v", "x=abcdefghrm; ${x:08} -rf /tmp/v"], true)
    expectAll(["x=abcdef; echo ${x:1:2}", "x=abcdef; echo ${x: -2}"], false)
  })

  it("asks for printf formats not worked out, and works out a precision", () => {
    expectAll([
      "$(printf '%.1s' rx mx) -rf /tmp/v",
      "$(printf '%.2s' rmdir) -rf /tmp/v",
      "c=$(printf '%.1s%.1s' rz mz); $c -rf /tmp/v",
      "$(printf '%q' 'r m') -rf /tmp/v",
      "$(printf '%03d' 7) -rf /tmp/v"
    ], true)
    expectAll(["printf '%s\\n' hello", "printf '%.3s\\n' abcdef"], false)
  })

  it("takes a read-only name's later assignments as unknown (bash refuses them)", () => {
    expectAll([
      "x=rm; readonly x; export x=ls; $x -rf /tmp/v",
      "x=rm; declare -r x; declare x=ls; $x -rf /tmp/v",
      "readonly y=rm; typeset y=ls; $y -rf /tmp/v",
      "f() { local -r z=rm; local z=ls; $z -rf /tmp/v; }; f",
      "readonly w=rm; unset w; w=ls; $w -rf /tmp/v"
    ], true)
    expectAll(["readonly MODE=dev; echo $MODE", "x=ls; $x -la"], false)
  })

  it("asks for patterns that may be extended globs or match without case", () => {
    expectAll([
      "shopt -s extglob; x=rxm; ${x/+(x)/} -rf /tmp/v",
      "x=rQm; ${x/@(Q)/} -rf /tmp/v",
      "x=rm1; ${x%[[:digit:]]} -rf /tmp/v",
      "shopt -s nocasematch; x=rmX; ${x/x/} -rf /tmp/v",
      "x=rmZ; ${x%z} -rf /tmp/v",
      "x=RMrm; ${x#rm} -rf /tmp/v"
    ], true)
    expectAll(["f=a.tar.gz; echo ${f%%.*}", "x=hello; echo ${x/l/L}"], false)
  })

  it("reads NAME=value words after the program as its environment once `set -k` is on", () => {
    expectAll([
      "set -k; bash ./ok.sh BASH_ENV=./evil.sh",
      "set -o keyword; make all LD_PRELOAD=./x.so",
      "set -ek; node app.js NODE_OPTIONS=--require=./hook.js"
    ], true)
    expectAll(["bash ./ok.sh BASH_ENV=./evil.sh"], false)
  })
})

describe("commands inside a ${…} expansion", () => {
  it("are read as commands: operands, patterns, subscripts, bash 5.3's ${ cmd; }", () => {
    expectAll([
      "echo ${x:-$(rm -rf /tmp/v)}",
      "echo \"${x:=`rm -rf /tmp/v`}\"",
      "echo ${x#$(rm -rf /tmp/v)}",
      "echo ${a[$(rm -rf /tmp/v)]}",
      "echo ${x:-${y:+$(rm -rf /tmp/v)}}",
      "echo ${ rm -rf /tmp/v; }",
      "echo ${| rm -rf /tmp/v; }"
    ], true)
    expect(detectCommand("echo ${x:-$(rm -rf /)}", ENV).hardline).toBe(true)
    expectAll(["echo ${HOME}/x ${x:-default} ${#x} ${x%.txt} ${x:-$(date +%s)}"], false)
  })
})

describe("text a shell reads again as commands after the line expanded it", () => {
  it("asks when a value only known when it runs is anywhere in it", () => {
    expectAll([
      "x=$(cat f); eval echo $x",
      "eval \"echo $(cat f)\"",
      "eval echo \\$$(cat f)",
      "read -r x < f; trap \"echo $x\" EXIT",
      "x=$(cat f); watch -n1 \"echo $x\"",
      "x=$(cat f); mapfile -C \"echo $x\" -c 1 l < g",
      "compgen -W \"$(cat f)\" x",
      "x=$(cat f); ssh -p 22 host \"ls $x\"",
      "x=$(cat f); tmux new -d \"echo $x\""
    ], true)
  })

  it("reads a known value as the commands it spells", () => {
    expect(detectCommand("x='$(rm -rf /)'; eval echo $x", ENV).hardline).toBe(true)
    expectAll(["x=hi; eval echo $x", "tmp=$(mktemp); trap \"rm -f $tmp\" EXIT", "x=$(cat f); ssh \"$x\" uptime", "compgen -W \"a b c\" a"], false)
  })
})

describe("code a shell runs around its later commands, and builtins replaced", () => {
  it("asks for DEBUG, RETURN and ERR traps, extdebug and tracing; for disabled builtins and functions named as builtins", () => {
    expectAll([
      "trap 'echo x' DEBUG",
      "trap -- f debug",
      "trap g RETURN; f",
      "trap 'log' ERR",
      "s=DEBUG; trap f $s",
      "shopt -s extdebug",
      "set -T",
      "set -Eo pipefail",
      "set -o functrace",
      "enable -n unset",
      "enable -n echo printf",
      "enable -d x",
      "n=unset; enable $n",
      "builtin() { :; }",
      "printf() { :; }",
      "function unset { :; }",
      "[() { :; }"
    ], true)
    expectAll(["trap 'echo bye' EXIT", "trap - DEBUG", "trap '' ERR", "trap -p", "set -euo pipefail", "shopt -s globstar nullglob", "cd() { builtin cd \"$@\" && ls; }", "enable -a"], false)
  })
})

describe("words bash spells otherwise than they are written", () => {
  it("decodes \\u, \\U and \\c in $'…' (a hidden rm is hardline too)", () => {
    for (const command of ["$'\\u0072m' -rf /", "eval $'\\u0072\\u006d -rf /'", "$'\\U00000072\\U0000006d' -rf /", "$'\\u006b\\u0069ll' -9 -1"]) {
      expect([command, detectCommand(command, ENV).hardline]).toEqual([command, true])
    }
    expectAll(["cp p $'repo/.g\\u0069t/hooks/commit-msg'"], true)
    expectAll(["echo $'caf\\u00e9 \\u2713'"], false)
  })

  it("reads $IFS as the value the line or the exports give it, and follows no nameref", () => {
    expectAll([
      "IFS=rm; \"$IFS\" -rf /tmp/v",
      "read -r IFS <<< rm; \"$IFS\" -rf /tmp/v",
      "for IFS in rm; do \"${IFS}\" -rf /tmp/v; done",
      "declare -n r=x; r=rm; \"$x\" -rf /tmp/v",
      "declare -n p=PATH; p=/tmp/planted; ls",
      "typeset -n r; r=IFS"
    ], true)
    expect(detectCommand("\"$IFS\" -rf /tmp/v", { ...ENV, variables: { IFS: "rm" } }).dangerous).toBe(true)
    expectAll(["IFS=, read -r a b <<< \"x,y\"; echo $a", "IFS=: ; for d in $PATH; do ls \"$d\"; done", "f() { local -n out=result; out=1; }"], false)
  })
})

describe("write targets only the running shell resolves", () => {
  const judged = (command: string) => [command, inspectCommand(command, ENV).detection.dangerous]
  it("asks for ~- and the directory stack, ~+ after PWD is set, paths through an open descriptor, globs under other glob options", () => {
    for (const command of [
      "cd /r/.git/hooks; cd /tmp; cp payload ~-/pre-commit",
      "OLDPWD=/r/.git/hooks; cp payload ~-/post-merge",
      "pushd -n /r/.git/hooks >/dev/null; cp payload ~1/pre-rebase",
      "PWD=/r/.git/hooks; cp payload ~+/pre-commit",
      "OLDPWD=/bin/rm; ~- -rf /tmp/v",
      "exec 3<repo/.git/hooks; cp payload /dev/fd/3/pre-push",
      "cp payload /proc/self/fd/4/hooks/x",
      "printf x >> /dev/fd/5",
      "echo x > /proc/1/fd/1",
      "GLOBIGNORE=x; cat cfg >> repo/*/config",
      "shopt -s dotglob; cat cfg >> repo/*/config",
      "shopt -s nocaseglob; cat cfg >> repo/.GI[T]/config"
    ]) {
      expect(judged(command)).toEqual([command, true])
    }
    for (const command of ["cp payload ~+/notes.txt", "echo hi > /dev/fd/2", "tee /dev/fd/1 < f", "cat a > out/*.txt", "ls ~-"]) {
      expect(judged(command)).toEqual([command, false])
    }
  })
})

describe("programs that start the program an option names", () => {
  it("asks for capsh --shell and start-stop-daemon --exec/--startas", () => {
    expectAll([
      "capsh --shell=/bin/rm -- -rf /tmp/v",
      "capsh --shell=./x --",
      "start-stop-daemon --start --exec ./x",
      "start-stop-daemon -S -x /bin/rm -- -rf /tmp/v",
      "start-stop-daemon --start --startas ./x --name y",
      "start-stop-daemon -S -p pid -a ./x"
    ], true)
  })
})
