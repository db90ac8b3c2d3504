/**
 * A persistent shell keeps the plain variables earlier calls set without exporting them, by any means the line of
 * that call did not make look like a setting (`for PIP_PYTHON in ./x; do :; done` once asked nothing). `export NAME`
 * (or `declare -x NAME`) alone then hands every later program a value no line showed: for a variable that makes
 * programs load or run code, that needs approval unless the task's exports already hold it (exporting it again
 * changes nothing).
 */
import type { Cmd } from "../shell/ast.js"
import { DECLARERS } from "./resolve/variableEffects.js"
import { codeVariableDescription } from "./rules/loaderVariables.js"

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

/**
 * The description and name when `cmd` exports, without a value, such a variable the exports do not hold; else null.
 * Without the exports (`exported` undefined) any such name counts: the caller asks for them (`unresolved`), and
 * judged again with them, one they hold is quiet.
 */
export const exportsHeldVariable = (cmd: Cmd, head: number, exported: Readonly<Record<string, string>> | undefined): { readonly description: string; readonly name: string } | null => {
  const program = cmd.words[head]?.value ?? ""
  if (cmd.cls !== "exec" || head < 0 || !DECLARERS.has(program)) return null
  const args = cmd.words.slice(head + 1).map((w) => w.value)
  const flags = args.filter((a) => /^[-+][a-zA-Z]+$/.test(a)).join("")
  // `export -n` takes the export away; a declarer other than export exports only with -x.
  if (program === "export" ? /-[a-zA-Z]*n/.test(flags) : !/-[a-zA-Z]*x/.test(flags)) return null
  for (const a of args) {
    if (!NAME.test(a) || (exported !== undefined && Object.hasOwn(exported, a))) continue
    const description = codeVariableDescription(a)
    if (description !== null) return { description, name: a }
  }
  return null
}
