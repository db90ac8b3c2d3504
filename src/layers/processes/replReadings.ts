/**
 * The readings a REPL's own commands add to text typed into it (see replEscapes.ts): the shell commands they run,
 * judged as shell where the REPL stands; the text again, to ask for, when one runs what the gate cannot read; and on
 * a terminal, when a pager may be showing, the text as a pager's keys and vi's (its `v` opens vi).
 */
import type { JudgedText } from "./typedInput.js"
import { REPL_LANGUAGE, replEscapes } from "./replEscapes.js"
import type { Repl } from "./replEscapes.js"

export const replReadings = (repls: ReadonlyArray<Repl>, judged: ReadonlyArray<JudgedText>, terminal: boolean): ReadonlyArray<JudgedText> =>
  repls.flatMap((repl) =>
    judged
      .filter((reading) => reading.language === REPL_LANGUAGE[repl])
      .flatMap((reading): ReadonlyArray<JudgedText> => {
        const found = replEscapes(repl, reading.text, terminal)
        return [
          ...(found.shell.length > 0 ? [{ language: "shell" as const, text: `${found.shell.join("\n")}\n` }] : []),
          ...(found.asks === undefined ? [] : [{ language: reading.language, text: reading.text, uncertain: found.asks }]),
          ...(found.pager ? [{ language: "pager-keys" as const, text: reading.text }, { language: "vim-keys" as const, text: reading.text }] : [])
        ]
      })
  )
