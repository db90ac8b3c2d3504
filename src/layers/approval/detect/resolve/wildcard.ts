/**
 * The hardline rules with the program word as a wildcard: a command word
 * computed at run time may be any program, so when its arguments would make
 * one of the programs the hardline rules know about a hardline command, the
 * command is hardline. Arguments must carry the danger (`-rf /`, `-9 -1`, a
 * block device), not the name alone (`$x` is not a reboot).
 */
import { isBlockDevice } from "../pathClasses.js"
import type { RuleEnv } from "../rules/engine.js"
import { firstMatch } from "../rules/engine.js"
import { HARDLINE_PROGRAMS, hardlineSet } from "../rules/hardline.js"
import type { CmdView, View } from "../ruleInput.js"
import { basename } from "../../shell/words.js"
import type { Wildcard } from "./resolver.js"
import { lookupTable } from "../../../../lib/lookupTable.js"

const unquote = (t: string): string => t.replace(/^["']|["']$/g, "")

const recursive = (args: ReadonlyArray<string>): boolean =>
  args.some((a) => /^-[a-z]*r/i.test(a) || a === "--recursive")

/** chmod/chown/chgrp: only -R (their -r is not recursion). */
const recursiveR = (args: ReadonlyArray<string>): boolean => args.some((a) => /^-[a-zA-Z]*R/.test(a) || a === "--recursive")

/**
 * Arguments that could make each program hardline: a cheap filter before the
 * rules run, and the reason the word alone never counts. Programs missing
 * here (shutdown, reboot, init 0…) are hardline by name or by an argument
 * any program might get, so an unknown word with them is only dangerous.
 */
const FITS: Readonly<Record<string, (args: ReadonlyArray<string>) => boolean>> = lookupTable({
  rm: recursive,
  mkfs: (args) => args.some((a) => isBlockDevice(unquote(a))),
  dd: (args) => args.some((a) => a.includes("of=")),
  kill: (args) => args.some((a) => a.startsWith("-1")),
  systemctl: (args) => args.some((a) => /poweroff|reboot|halt|kexec/.test(a)),
  chmod: recursiveR,
  chown: recursiveR,
  chgrp: recursiveR
})

const hardlineOf = (c: CmdView, t: ReadonlyArray<string>, head: number, name: string, env: RuleEnv): string | null => {
  // Its own texts: the memos of `c` (tokens, argv) describe the words as written, not this candidate.
  const view: CmdView = { ...c, texts: t, base: 0, head, name, tokens: [], argvMemo: undefined }
  const bySeq: Array<CmdView | undefined> = []
  bySeq[c.cmd.seq] = view
  const v: View = { cmds: [view], bySeq, flat: [...t, ...c.redirectTexts], funcs: [] }
  const hit = firstMatch(hardlineSet, v, env)
  return hit >= 0 ? (hardlineSet.rules[hit]?.description ?? null) : null
}

const isHardlineProgram = (word: string): boolean => {
  const name = basename(unquote(word))
  return HARDLINE_PROGRAMS.includes(name) || name.startsWith("mkfs")
}

export const wildcardHardline = (one: View, spots: ReadonlyArray<Wildcard>, env: RuleEnv): string | null => {
  for (const spot of spots) {
    const c = one.bySeq[spot.seq]
    if (c === undefined) continue
    const before = c.texts.slice(0, spot.head)
    const args = c.texts.slice(spot.head + 1)
    for (const program of HARDLINE_PROGRAMS) {
      const fits = FITS[program]
      if (fits === undefined || !fits(args)) continue
      const hit = hardlineOf(c, [...before, program, ...args], spot.head, program, env)
      if (hit === null) continue
      if (program !== "mkfs" && hardlineOf(c, [...before, program], spot.head, program, env) === hit) continue
      return hit
    }
    // The unknown word may be a wrapper (sudo, env, nohup…) of the next one.
    const next = args[0]
    if (next !== undefined && isHardlineProgram(next)) {
      const hit = hardlineOf(c, [...before, ...args], spot.head, basename(unquote(next)), env)
      if (hit !== null) return hit
    }
  }
  return null
}
