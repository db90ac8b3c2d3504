/**
 * Shell aliases defined in the text being judged. `alias x=rm` then `x -rf d`
 * runs rm wherever aliases expand (dash always; bash with expand_aliases or
 * -i), so a use of a name defined earlier is judged as the alias text plus
 * its arguments, and the alias text itself is judged where it is defined
 * (it runs as soon as the name is used, perhaps from a later script).
 */
import type { Cmd, Origin } from "../shell/ast.js"
import type { ParseCtx } from "../shell/parser.js"
import { parseInto } from "../shell/parser.js"

const DEFINITION = /^([^\s=/$`'"\\]+)=([\s\S]*)$/
/** Alias text is re-read at most this deep (`alias a=b b=a` cannot loop). */
const MAX_DEPTH = 8

export class ShellAliases {
  private readonly defined = new Map<string, string>()

  /** Called for every completed exec command whose program word index is `head`. */
  command(ctx: ParseCtx, cmd: Cmd, head: number, origin: Origin): void {
    if (head < 0 || cmd.depth >= MAX_DEPTH) return
    const program = cmd.words[head]
    if (program === undefined || program.expands) return
    if (program.value === "alias") {
      for (const w of cmd.words.slice(head + 1)) {
        const m = DEFINITION.exec(w.value)
        if (m === null) continue
        const text = m[2] ?? ""
        this.defined.set(m[1] ?? "", text)
        parseInto(ctx, text, "exec", origin, cmd.depth + 1, true)
      }
      return
    }
    if (this.defined.size === 0 || program.quoted) return
    const text = this.defined.get(program.value)
    if (text === undefined) return
    // An alias ending in a blank lets the next word be an alias too; the rest is passed as written.
    const rest = cmd.words.slice(head + 1).map((w) => w.raw)
    // Input reaching the aliased command is unknown here: `cat |` stands for it, so a shell behind the alias is fed computed text.
    const fed = cmd.pipePrev !== null || cmd.redirs.some((r) => r.op.startsWith("<"))
    parseInto(ctx, `${fed ? "cat | " : ""}${[text, ...rest].join(" ")}`, "exec", origin, cmd.depth + 1, true)
  }
}
