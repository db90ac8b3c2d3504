/**
 * A command another program runs on the line's behalf (xargs, `find -exec`, `su -s PROG`, the shell a wrapper
 * starts), added to the line's commands and judged as one of its own: same depth and frame, what the parent reads
 * from a pipe, and only the redirects given.
 */
import type { Cmd, Redir, Word } from "../shell/ast.js"
import type { ParseCtx } from "../shell/parser.js"

export const judgeThrough = (ctx: ParseCtx, parent: Cmd, words: Array<Word>, redirs: Array<Redir>): void => {
  const cmd: Cmd = {
    seq: ctx.cmds.length,
    words,
    redirs,
    cls: "exec",
    origin: "through",
    depth: parent.depth,
    prevOp: "",
    nextOp: "",
    pipeNext: null,
    ampSemi: false,
    bgEnd: false,
    funcDef: false,
    frame: parent.frame,
    nested: parent.nested,
    pipePrev: parent.pipePrev,
    heredocOf: parent.heredocOf,
    parenNext: false
  }
  ctx.cmds.push(cmd)
  ctx.hooks.complete(cmd, ctx)
}
