/**
 * `patch` writes the files its diff names (`+++ repo/.git/hooks/pre-commit`), which the command line never shows.
 * The diff given inline (a heredoc, a here-string) is read here; one in a file is read by the judge, which knows
 * where the command starts (policy/patchTargets.ts). Both classify the names as written files.
 */
import type { View } from "./ruleInput.js"
import { argv, runs } from "./rules/operands.js"
import { namedByInput, valuesOf } from "./rules/outputFiles.js"

export interface PatchInput {
  /** The diff's file, as written (relative to where the command starts); null when read from a pipe or the terminal. */
  readonly diff: string | null
  /** The diff's text when the line holds it (heredoc, here-string). */
  readonly text: string | null
  /** `-pN`: leading components stripped from each name; null when not given. */
  readonly strip: number | null
  /** `-d dir`: where the names count from. */
  readonly dir: string | null
}

const NONE: ReadonlyArray<PatchInput> = []
const NO_NAMES: ReadonlyArray<string> = []
const CHANGES_DIR = new Set(["cd", "pushd", "popd"])
const PATCH_VALUED = new Set(["-p", "-i", "--input", "-o", "--output", "-d", "--directory", "-B", "-D", "-F", "-z", "-r", "-V", "-Y", "-g", "--strip"])

/** The non-option arguments (`patch [options] [original [patchfile]]`). */
const operandsOf = (args: ReadonlyArray<string>): string[] => {
  const out: string[] = []
  for (let k = 0; k < args.length; k++) {
    const a = args[k] ?? ""
    if (a.startsWith("-") && a.length > 1) {
      if (PATCH_VALUED.has(a)) k++
    } else out.push(a)
  }
  return out
}

/** Every `patch` of the line that writes what its diff names (not a dry run, not `-o`), with where the diff comes from. */
export const patchInputs = (view: View): ReadonlyArray<PatchInput> => {
  let out: PatchInput[] | null = null
  let moved = false
  for (const c of view.cmds) {
    if (!runs(c)) continue
    if (CHANGES_DIR.has(c.name)) moved = true
    if (c.name !== "patch") continue
    const args = argv(c)
    if (namedByInput("patch", args) === null) continue
    const strip = valuesOf(args, ["-p"], ["--strip"]).pop()
    const input = valuesOf(args, ["-i"], ["--input"]).pop() ?? operandsOf(args)[1]
    const redirect = c.cmd.redirs.find((r) => r.op === "<" || r.op === "<<" || r.op === "<<-" || r.op === "<<<")
    const text = redirect === undefined || redirect.op === "<" ? null : (redirect.body ?? (redirect.op === "<<<" ? (redirect.target?.value ?? null) : null))
    const file = input ?? (redirect?.op === "<" ? (redirect.target?.value ?? null) : null)
    // After a `cd` in the line, or a computed name, the diff is not where the judge would look.
    const diff = file === null || moved || /[$`]/.test(file) ? null : file
    out ??= []
    out.push({ diff: text === null ? diff : null, text, strip: strip === undefined || !/^\d+$/.test(strip) ? null : Number(strip), dir: valuesOf(args, ["-d"], ["--directory"]).pop() ?? null })
  }
  return out ?? NONE
}

const NAME_LINE = /^(?:\+\+\+ |--- |\*\*\* |Index: |rename to |copy to |diff --git )(.*)$/gm

/** The file names a diff names: `+++`/`---` headers, context diffs' `***`, `Index:`, git's `diff --git`, renames and copies. */
export const diffNames = (text: string): ReadonlyArray<string> => {
  const out = new Set<string>()
  for (const m of text.matchAll(NAME_LINE)) {
    const rest = (m[1] ?? "").replace(/\r$/, "")
    // `diff --git a/x b/y`: both names; elsewhere the name ends at a tab (a date follows).
    const names = m[0].startsWith("diff --git ") ? rest.split(" ") : [rest.split("\t")[0] ?? ""]
    for (const n of names) {
      const name = n.trim().replace(/^"(.*)"$/, "$1")
      if (name !== "" && name !== "/dev/null") out.add(name)
    }
  }
  return [...out]
}

/** Where `patch` may put a diff's name: `-pN` strips N components; without it, any of its tails may be chosen. */
export const patchedNames = (name: string, strip: number | null): ReadonlyArray<string> => {
  const parts = name.split("/").filter((p) => p !== "")
  const prefix = name.startsWith("/") ? "/" : ""
  if (strip !== null) return strip === 0 ? [name] : strip < parts.length ? [parts.slice(strip).join("/")] : []
  return parts.map((_p, k) => (k === 0 ? prefix : "") + parts.slice(k).join("/"))
}

/** The files an inline diff makes `patch` write (a diff in a file is the judge's to read). */
export const inlinePatchWrites = (view: View): ReadonlyArray<string> => {
  const inputs = patchInputs(view)
  if (inputs.length === 0) return NO_NAMES
  const out: string[] = []
  for (const input of inputs) {
    if (input.text === null) continue
    for (const name of diffNames(input.text)) {
      for (const p of patchedNames(name, input.strip)) out.push(input.dir === null || p.startsWith("/") ? p : `${input.dir.replace(/\/+$/, "")}/${p}`)
    }
  }
  return out
}
