/**
 * Values only known when a command runs, evaluated as arithmetic. Bash reads a
 * variable in `$((…))`, `[[ a -eq b ]]`, `let`, an array subscript, a
 * substring offset or an integer assignment as an expression in turn, and
 * expands an array subscript there: a file holding `a[$(cmd)]` runs cmd once
 * its text is read and evaluated. Table-driven by how the text arrives and
 * where it is evaluated; counts, sizes, times and loop indexes stay quiet.
 */
import { describe, expect, it } from "@effect/vitest"
import type { DetectionEnv } from "../../../src/layers/approval/detect/detect.js"
import { detectCommand } from "../../../src/layers/approval/detect/detect.js"
import { APPENDED_ARGUMENTS_DESCRIPTION } from "../../../src/layers/approval/detect/filledWords.js"
import { numericOutput } from "../../../src/layers/approval/detect/resolve/numericValues.js"

const ENV: DetectionEnv = { home: "/home/tester", hermesHome: "/home/tester/.hermes", variables: { PATH: "/usr/bin:/bin", HOME: "/home/tester" } }
const COMPUTED = "evaluates as arithmetic a value only known when it runs (a file's text, a command's output: a value such as a[$(…)] runs commands)"

const verdict = (command: string) => [command, detectCommand(command, ENV).description]

describe("arithmetic on a value only known when the command runs", () => {
  it("asks, however the text arrives", () => {
    for (const command of [
      "v=$(cat f); echo $((v))",
      "v=`cat f`; echo $((v + 1))",
      "v=\"$(head -n1 f)\"; (( v ))",
      "read n < f; echo $((n))",
      "read -r a b < f; echo $((b + 1))",
      "while read n; do (( n > 0 )); done < f",
      "mapfile -t l < f; echo $(( l[0] ))",
      "for x in $(cat f); do echo $((x)); done",
      "x=$(cat f); y=$x; echo $((y))",
      "source ./env.sh; echo $((N))",
      // The wrong counting program, or its output mixed with names.
      "n=$(wc -l f); echo $((n))",
      "n=$(wc -l < f 2>&1); echo $((n))",
      "n=$(stat -c %n f); echo $((n))",
      "n=$(grep -c x a b); echo $((n))",
      "n=$(wc $opts < f); echo $((n))"
    ]) {
      expect(verdict(command)).toEqual([command, COMPUTED])
    }
  })

  it("asks, wherever bash evaluates it", () => {
    for (const command of [
      "echo $(( $(cat f) ))",
      "echo $[ $(cat f) ]",
      "x=$(cat f); echo $[x]",
      "[[ $(cat f) -eq 1 ]]",
      "v=$(cat f); [[ \"$v\" -eq 1 ]]",
      "let n=$(cat f)",
      "v=$(< f); b=(1 2); echo ${b[$v]}",
      "v=$(< f); echo \"${s:$v}\"",
      "x=$(cat f); a[$x]=1",
      "a[$(cat f)]=1",
      "declare -i n; read n < f",
      "declare -i n; n=$(cat f)",
      "OPTIND=$(cat f)",
      "RANDOM=$(< f)",
      "read OPTIND < f",
      "printf -v OPTIND %s \"$(cat f)\"",
      // A name read from the text: bash evaluates a subscript in it.
      "v=$(cat f); echo ${!v}",
      "v=$(cat f); echo \"${!v:-default}\"",
      "v=$(cat f); [[ -v \"$v\" ]]",
      "v=$(cat f); test -v a[$v]",
      "v=$(cat f); a=(1 2); unset \"a[$v]\"",
      // Offsets of positional parameters and array slices, array literals' indexes.
      "v=$(cat f); echo ${@:$v}",
      "v=$(cat f); a=(1); echo ${a[@]:1:$v}",
      "v=$(cat f); a=([$v]=1)",
      "v=$(cat f); declare -a b=([$v]=1)",
      "v=$(cat f); x+=([$v]=1)",
      // Inside double quotes and ${…} operands, and positional parameters set to the text.
      "v=$(cat f); echo \"total: $((v))\"",
      "read -r x < f; echo \"${x:-$((x))}\"",
      "set -- \"$(cat f)\"; echo $(( $1 ))"
    ]) {
      expect(verdict(command)).toEqual([command, COMPUTED])
    }
  })

  it("counts, sizes, times, lengths and indexes stay quiet", () => {
    for (const command of [
      "n=$(wc -l < f); echo $((n + 1))",
      "count=$(ls | wc -l); if (( count > 3 )); then echo many; fi",
      "total=0; for f in *.txt; do n=$(wc -l < \"$f\"); total=$((total + n)); done; echo $total",
      "start=$(date +%s); sleep 1; echo $(( $(date +%s) - start ))",
      "size=$(stat -c %s file); echo $((size / 1024))",
      "n=$(nproc); make -j$((n + 1))",
      "n=$(git rev-list --count HEAD); echo $((n))",
      "c=$(grep -c TODO src/main.ts); [[ $c -gt 0 ]]",
      "echo $[ $(wc -l < f) + 1 ]",
      "for i in $(seq 1 5); do echo $((i * 2)); done",
      "for ((i = 0; i < 3; i++)); do echo $i; done",
      "(( i++ )); echo $((i))",
      "let i=i+1; echo $((i))",
      "x=$((1 + 2)); y=$((x * 3)); echo $y",
      "len=${#s}; echo $((len + 1))",
      "while getopts ab o; do :; done; shift $((OPTIND - 1))",
      "declare -i n=5; n=n+1; echo $n",
      "[[ $# -eq 0 ]] && echo none",
      "echo $((RANDOM % 10))",
      // Associative keys are strings; quoted text is only text.
      "declare -A seen; k=$(cat f); seen[$k]=1; echo ${seen[$k]}",
      "echo 'a[$(x)]'; grep 'arr[$(i)]' f",
      "arr[0]=x; echo ${arr[0]}",
      "x=PATH; echo ${!x}; echo ${!BASH*} ${!arr[@]}; [[ -v HOME ]]",
      "declare -A m; k=$(cat f); m+=([$k]=2); unset \"m[$k]\"; a=([0]=x [1]=y); unset a[0]",
      "n=$(wc -l < f); echo \"total: $((n + 1))\" \"${y:-$((3))}\"; echo '$((v))'",
      "set -- 1 2; echo $(( $1 + $2 + $# ))"
    ]) {
      expect([command, detectCommand(command, ENV).dangerous]).toEqual([command, false])
    }
  })
})

describe("substitutions that can only print numbers", () => {
  it("counting programs whose output is a number, whatever they read", () => {
    for (const source of ["wc -l < f", "ls | wc -l", "wc -c", "nproc", "id -u", "date +%s", "date +%Y%m%d", "seq 1 5", "stat -c %s f", "stat --format=%Y f", "grep -c x f", "grep -c -e x", "git rev-list --count HEAD", "tput cols", "getconf _NPROCESSORS_ONLN",
      // Trimmed, first field taken, or with a fallback that prints a number or nothing.
      "ls | wc -l | tr -d ' '", "wc -l < f | xargs", "wc -l f | awk '{print $1}'", "wc -l f | cut -d' ' -f1", "grep -c x f || true", "git rev-list --count HEAD 2>/dev/null || echo 0", "seq 5 | sort -rn | head -1"]) {
      expect([source, numericOutput(source)]).toEqual([source, true])
    }
  })

  it("anything that may print names or text", () => {
    for (const source of ["cat f", "wc -l f", "wc -l < f 2>&1", "wc $opts", "date", "date +%A", "stat -c %n f", "stat f", "grep -c x a b", "grep -cH x f", "git log", "seq -f '%g' 1 5", "id", "echo 5", "wc -l < f; cat f", "< f",
      "cat f || true", "grep -c x f || cat g", "wc -l f | awk '{print $2}'", "wc -l < f | tr a-z A-Z", "cut -d' ' -f1 < f", "wc -l $f | awk '{print $1}'"]) {
      expect([source, numericOutput(source)]).toEqual([source, false])
    }
  })
})

describe("code that xargs or find fills in when it runs", () => {
  const SUBSTITUTED = "runs as code text that xargs or find fills in when it runs (an input line or a file name holding $(…) runs it)"
  it("asks when an input line or a file name becomes part of a script", () => {
    for (const command of [
      "xargs -I{} sh -c 'echo {}' < f",
      "cat f | xargs -I % bash -c 'wc -l %'",
      "xargs -i sh -c 'echo {}' < f",
      "xargs --replace=@ sh -c 'echo @' < f",
      "find . -name '*.txt' -exec sh -c 'echo {}' \\;",
      "find . -execdir timeout 5 bash -c 'cat {}' \\;",
      "find . -exec sh -c {} \\;",
      "find . -exec python3 -c 'print(\"{}\")' \\;",
      "xargs -I{} env sh -c 'echo {}' < f",
      // No script given: the input is the script.
      "xargs sh -c < f",
      "xargs -d '\\n' python3 -c < f",
      "fd -e txt -x sh -c 'cat {/}'",
      "fdfind -X bash -c"
    ]) {
      expect([command, detectCommand(command, ENV).description]).toEqual([command, SUBSTITUTED])
    }
  })

  it("names passed as arguments, and programs that are not shells, stay quiet", () => {
    for (const command of [
      "xargs -I{} sh -c 'echo \"$1\"' _ {} < f",
      "find . -exec sh -c 'wc -l \"$1\"' _ {} \\;",
      "find . -exec sh -c 'for f; do wc -l \"$f\"; done' sh {} +",
      "xargs -n1 sh -c 'echo $0' < f",
      "xargs -I{} cp {} /tmp/ < f",
      "find . -name '*.py' -exec wc -l {} \\;"
    ]) {
      expect([command, detectCommand(command, ENV).dangerous]).toEqual([command, false])
    }
  })
})

describe("what xargs appends is any number of words, options and subcommands too", () => {
  it("a program whose options or subcommands delete, write or run code asks, whatever it reads from", () => {
    for (const command of [
      "xargs find < args", "xargs python3 < args", "xargs git < args", "cat args | xargs rsync -a", "xargs -a list tar", "xargs --arg-file=l dd", "xargs ln -sf < a",
      "xargs install < a", "xargs bash < a", "xargs perl < a", "xargs make < a", "xargs sed -n p < a", "xargs ed -s < a", "xargs vim -c < a", "xargs -n2 mv < a",
      "xargs nice -n 5 find < a", "printf 'x\\n' | xargs git -C repo", "xargs perl -pi -e s/a/b/ < a", "xargs node -e 1 < a", "xargs python3 -W ignore < a", "xargs -0 sed -i s/a/b/ < a"
    ]) {
      expect([command, detectCommand(command, ENV).description]).toEqual([command, APPENDED_ARGUMENTS_DESCRIPTION])
    }
    // Already flagged the stronger way.
    expect(detectCommand("xargs rm < a", ENV).description).toBe("xargs with rm")
  })

  it("programs whose every argument is read, code given in the line, or whole names from find: quiet", () => {
    for (const command of [
      "find . -name '*.py' | xargs grep -l foo", "find . | xargs wc -l", "ls | xargs cat", "xargs -d '\\n' ls < a", "git ls-files | xargs git add", "xargs -n1 sh -c 'echo $0' < f",
      "find . -name '*.sh' | xargs chmod +x", "xargs python3 tools/check.py < a", "find src -name '*.ts' -print0 | xargs -0 sed -i s/a/b/", "xargs -a list md5sum", "echo x | xargs"
    ]) {
      expect([command, detectCommand(command, ENV).dangerous]).toEqual([command, false])
    }
  })
})

describe("red team 6: what xargs fills in reaches options through -I words and a shell's \"$@\"", () => {
  it("a word beginning with the -I string is one input line, an option too; a shell's code hands its arguments on", () => {
    for (const command of [
      "xargs -I{} find d {} < args", "xargs -I % python3 % < a", "xargs -i git {} < a", "xargs --replace=@ tar -cf t.tar @ < a", "xargs -I{} sort {}.txt < a",
      "xargs sh -c 'find \"$@\"' _ < args", "xargs bash -c 'for f; do git \"$f\"; done' _ < a", "xargs -n2 sh -c 'python3 $0 $1' < a",
      "cat a | xargs sh -c 'cd d && tar \"$@\"' sh", "xargs -I{} sh -c 'find \"$1\"' _ {} < a",
      // Names are whole only split at NULs from find -print0: a newline inside a name splits it, -printf prints bare names.
      "find . -name 'z*' | xargs -d '\\n' find d", "find . -name '-*' -printf '%f\\0' | xargs -0 find d", "find . -printf '%P\\0' | xargs -0 git"
    ]) {
      expect([command, detectCommand(command, ENV).description]).toEqual([command, APPENDED_ARGUMENTS_DESCRIPTION])
    }
  })

  it("read-only programs, a name inside a word, plain copies and find's whole names stay quiet", () => {
    for (const command of [
      "xargs -I{} wc -l {} < a", "xargs -I{} cp {} /tmp/ < a", "xargs -I{} find d -name {} < a", "xargs -I{} sh -c 'head -1 \"$1\"' _ {} < a",
      "xargs sh -c 'for f; do wc -l \"$f\"; done' _ < a", "xargs -n1 sh -c 'echo $0' < a", "xargs sh -c 'git add \"$@\"' _ < a",
      "find . -name '*.txt' -print0 | xargs -0 -I{} sed -i s/a/b/ {}", "find . -print0 | xargs -0 sh -c 'sed -i s/a/b/ \"$@\"' _", "xargs sh -c 'make all' < a"
    ]) {
      expect([command, detectCommand(command, ENV).dangerous]).toEqual([command, false])
    }
  })
})
