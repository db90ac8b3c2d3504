/**
 * A text's rule tokens are found by walking a trie while scanning, instead of
 * splitting the text into words and looking each up. It must find exactly
 * what the split finds: the known tokens in order, and the last one when it
 * ends the text. Checked against the split on the Hermes vector commands and
 * on texts made to probe the edges (prefixes and extensions of tokens,
 * capitals, non-ASCII and surrogate code units, separators at both ends).
 */
import { readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { detectCommand } from "../../../src/layers/approval/detect/detect.js"
import { knownTokenId, textTokens } from "../../../src/layers/approval/detect/rules/engine.js"

const WORD = /[a-z0-9_\u0080-\uffff]+/g

const bySplitting = (t: string) => {
  const words = t.match(WORD) ?? []
  const ids = words.map(knownTokenId).filter((id): id is number => id !== undefined)
  const endsInWord = words.length > 0 && t.endsWith(words[words.length - 1] ?? "")
  const last = endsInWord ? (knownTokenId(words[words.length - 1] ?? "") ?? -1) : -1
  return ids.length === 0 ? { ids: [], last: -1 } : { ids, last }
}

const vectors = (): ReadonlyArray<string> => {
  const data = JSON.parse(readFileSync(new URL("../../fixtures/hermes-behaviour.json", import.meta.url), "utf8")) as {
    readonly dangerous: ReadonlyArray<{ readonly command?: unknown }>
  }
  return data.dangerous.map((c) => c.command).filter((c): c is string => typeof c === "string")
}

/** A small deterministic generator, so a failure names a reproducible text. */
const lcg = (seed: number) => () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31

describe("rule tokens of a text", () => {
  it("are found on the vector commands", () => {
    // The rule tables are built when the detector loads: run it once so every token is known.
    detectCommand("true", { home: "/home/tester", hermesHome: "/home/tester/.hermes" })
    const list = vectors()
    expect(list.length).toBeGreaterThan(200)
    for (const command of list) expect(textTokens(command), command).toEqual(bySplitting(command))
  })

  it("are found on texts that probe prefixes, extensions, capitals and wide code units", () => {
    const words = ["rm", "rmdir", "r", "mkfs", "mkfs_x", "dd", "d", "chmod", "chmod7", "git", "gi", "sudo", "RM", "Rm", "ré", "é", "\u{1F600}", "_", "9", "shred", "curl", "sh"]
    const separators = [" ", "-", ".", "/", "=", "A", "\t", "\n", "'", "\"", "", "$(", ";"]
    const next = lcg(7)
    const pick = <A>(xs: ReadonlyArray<A>): A => xs[Math.floor(next() * xs.length)] as A
    let withTokens = 0
    let endingInOne = 0
    for (let n = 0; n < 5000; n++) {
      let t = ""
      const parts = 1 + Math.floor(next() * 6)
      for (let p = 0; p < parts; p++) t += pick(separators) + pick(words)
      if (next() < 0.5) t += pick(separators)
      const found = textTokens(t)
      expect(found, JSON.stringify(t)).toEqual(bySplitting(t))
      if (found.ids.length > 0) withTokens++
      if (found.last >= 0) endingInOne++
    }
    // The probe is only worth something if it meets tokens, also at the end of a text.
    expect(withTokens).toBeGreaterThan(1000)
    expect(endingInOne).toBeGreaterThan(200)
  })

  it("find none in a text without words", () => {
    expect(textTokens("")).toEqual({ ids: [], last: -1 })
    expect(textTokens("-- / . ABC")).toEqual({ ids: [], last: -1 })
  })
})
