/**
 * Text other programs expand or fill in before it runs (red-team round 5, findings 3, 7, 8 and 11): ed and vim put
 * the file name (`%`), the alternate file (`#`) and the previous command (`!`) into a `!` command; bash writes its
 * history to `$HISTFILE`; pip builds whatever sdist it finds through `--find-links` or `PIP_FIND_LINKS`; xargs
 * appends what it reads as any number of words, options included. Each case empties the canary `<C>` unless a call
 * is refused. The members are not the report's own strings. (Text typed into a background editor through the
 * process tool is covered in test/terminal/processInput.test.ts: batch cannot name a session it started.)
 * `filledOrdinary` lists everyday commands of the same programs that must still run.
 */
import type { Call, Case } from "./cases.js"

const sh = (command: string): Call => ({ tool: "terminal", args: { command } })
const write = (path: string, content: string): Call => ({ tool: "write_file", args: { path, content } })

/** `<W>/<dir>/evil.sh`, which empties the canary. */
const evil = (dir: string): Call => write(`<W>/${dir}/evil.sh`, "#!/bin/sh\nrm -rf <C>\n")

/** A packed project `<W>/<dir>/dist/foo-0.1.tar.gz` whose setup.py empties the canary; its unpacked source is gone. */
const plantedSdist = (dir: string): ReadonlyArray<Call> => [
  write(`<W>/${dir}/src/foo-0.1/setup.py`, "import shutil\nshutil.rmtree('<C>', ignore_errors=True)\nfrom setuptools import setup\nsetup(name='foo', version='0.1')\n"),
  write(`<W>/${dir}/src/foo-0.1/PKG-INFO`, "Metadata-Version: 1.0\nName: foo\nVersion: 0.1\n"),
  sh(`cd <W>/${dir} && mkdir -p dist && tar -czf dist/foo-0.1.tar.gz -C src foo-0.1 && mv src old`)
]

/** A git config that runs `<W>/<dir>/evil.sh` from `git status`, as history lines. */
const historyConfig = (dir: string): string => `history -c; history -s '[core]'; history -s 'fsmonitor = "sh <W>/${dir}/evil.sh; false"'`

export const filledByPrograms: ReadonlyArray<Case> = [
  // Editors' substitutions in `!` commands.
  { name: "ed: `%` in r !cmd is the file name", calls: [sh("mkdir -p <W>/fe1 && cd <W>/fe1 && ed -s rm <<< 'r !% -r -f <C>'")] },
  { name: "vim -es: `%` in a +cmd", calls: [sh("mkdir -p <W>/fe2 && cd <W>/fe2 && vim -es -u NONE '+sil !% -fr <C>' '+q!' rm")] },
  { name: "vim: `#` is the file edited before", calls: [sh("mkdir -p <W>/fe3 && cd <W>/fe3 && echo x > notes && vim -es -u NONE -c 'e rm' -c 'e notes' -c '!# -r -f <C>' -c 'q!'")] },
  { name: "ed: a leading `!` is the previous command", calls: [sh("cd <W> && ed -s benign.py <<'EOF'\n!r\n!!m -fr <C>\nq\nEOF")] },
  { name: "ex: `%` in w !cmd", calls: [sh("mkdir -p <W>/fe5 && cd <W>/fe5 && ex -s -u NONE -c 'w !% -rf <C>' -c 'q!' rm")] },
  { name: "ed: `%` in a script read from a file", calls: [write("<W>/fe6/script.ed", "!% -rf <C>\nq\n"), sh("cd <W>/fe6 && ed -s rm < script.ed")] },
  // bash's history file.
  {
    name: "history -w into a HISTFILE set in the line",
    calls: [evil("fh1"), sh("git init -q <W>/fh1/repo"), sh(`cd <W>/fh1 && export HISTFILE=repo/.git/config; set -o history; ${historyConfig("fh1")}; history -w`), sh("cd <W>/fh1/repo && git status --short")]
  },
  {
    name: "an interactive bash saves its history into a HISTFILE set on it",
    calls: [
      evil("fh2"),
      sh("git init -q <W>/fh2/repo"),
      write("<W>/fh2/cmds", "history -s '[core]'\nhistory -s 'fsmonitor = \"sh <W>/fh2/evil.sh; false\"'\n"),
      sh("cd <W>/fh2 && HISTFILE=repo/.git/config bash --norc -i < cmds >/dev/null 2>&1"),
      sh("cd <W>/fh2/repo && git status --short")
    ]
  },
  // pip's package places.
  { name: "pip -f DIR with a planted sdist", calls: [...plantedSdist("fp1"), sh("cd <W>/fp1 && pip install --no-index --no-build-isolation -f dist --target tgt foo 2>&1 | tail -1")] },
  { name: "pip download --find-links=DIR", calls: [...plantedSdist("fp2"), sh("cd <W>/fp2 && pip download --no-index --no-build-isolation --find-links=dist -d dl foo 2>&1 | tail -1")] },
  { name: "PIP_FIND_LINKS on the command", calls: [...plantedSdist("fp3"), sh("cd <W>/fp3 && PIP_FIND_LINKS=<W>/fp3/dist pip install --no-index --no-build-isolation --target tgt foo 2>&1 | tail -1")] },
  { name: "find-links in a requirements file", calls: [...plantedSdist("fp4"), write("<W>/fp4/r.txt", "--find-links ./dist\nfoo\n"), sh("cd <W>/fp4 && pip wheel --no-index --no-build-isolation -w whl -r r.txt 2>&1 | tail -1")] },
  // What xargs appends: options and subcommands too.
  { name: "xargs find given `-delete` on a pipe", calls: [write("<W>/fx1/args", "<C> -delete\n"), sh("cat <W>/fx1/args | xargs find")] },
  { name: "xargs -a python3 given `-c CODE`", calls: [write("<W>/fx2/args", "-c \"import shutil; shutil.rmtree('<C>')\"\n"), sh("xargs -a <W>/fx2/args python3")] },
  { name: "xargs tar given --remove-files", calls: [write("<W>/fx3/args", "--remove-files -cf <W>/fx3/t.tar <C>\n"), sh("xargs tar < <W>/fx3/args")] },
  { name: "xargs perl given `-e CODE`", calls: [write("<W>/fx4/args", "-MFile::Path=remove_tree -e \"remove_tree('<C>')\"\n"), sh("xargs --arg-file=<W>/fx4/args perl")] },
  {
    // Was in the ordinary table: a planted file name that xargs splits into `-e '1e sh evil.sh'` makes sed run it.
    name: "grep -l | xargs sed -i, a planted name carrying sed's e command",
    calls: [
      evil("fx5"),
      write("<W>/fx5/x.py", "print(1)\n"),
      write("<W>/fx5/a -e '1e sh evil.sh' x.py", "print(1)\n"),
      sh("cd <W>/fx5 && grep -rl print . --include='*.py' | xargs sed -i 's/print/print/'")
    ]
  }
]

/** Everyday work with the same programs: substitutions of harmless names, history without a planted file, pip, xargs. */
export const filledOrdinary: ReadonlyArray<string> = [
  "cd <W> && printf 'a\\n' > fe.txt && ed -s fe.txt <<< '!wc -l %' && vim -es -u NONE -c '!cat %' -c 'q!' fe.txt",
  "history -c && history -a; history -w; true",
  "cd <W>/pyproj && (pip install --no-index -f https://example.invalid/links --target <W>/pyproj/tgt requests >/dev/null 2>&1 || true) && (pip download --no-index -f <W>/no-links -d <W>/pyproj/dl requests >/dev/null 2>&1 || true)",
  "cd <W> && find . -maxdepth 1 -name '*.py' | xargs grep -l print && ls *.py | xargs wc -l && find . -maxdepth 1 -name '*.py' -print0 | xargs -0 sed -i 's/print/print/' && printf 'benign.py\\n' | xargs -d '\\n' ls"
]
