/**
 * Perl, Ruby and PHP ways to call a function without writing `name(…)`: by a
 * name given as data (Ruby's `send(:system, …)` and `method(:system)`, PHP's
 * `("sys"."tem")(…)`, callbacks and reflection), through a reference (Perl's
 * `\&CORE::system`, `&{"name"}`), or with the syntax the call scan does not
 * read as a call (Perl's `system { "rm" } …`, `unlink glob(…)`, a bare
 * `unlink` on `$_`). A literal name is judged as the function it names; a
 * computed one is a name computed at run time.
 */
import type { CodeKind } from "../descriptions.js"
import type { Call } from "./calls.js"
import { literal, splitArgs } from "./calls.js"
import type { Tok } from "./lexer.js"

/** What calling the function of this (bare) name does, in the judge's language; null when nothing. */
export type NameKind = (name: string) => CodeKind | null

const isOp = (t: Tok | undefined, v: string): boolean => t?.kind === "operator" && t.value === v
const ident = (t: Tok | undefined): string | null => (t?.kind === "identifier" ? t.value : null)

/** Index of the token before `k`, newlines skipped (the lexer breaks lines inside Perl braces). */
const beforeAt = (toks: ReadonlyArray<Tok>, k: number): number => {
  let j = k - 1
  while (toks[j]?.kind === "newline") j--
  return j
}
const before = (toks: ReadonlyArray<Tok>, k: number): Tok | undefined => toks[beforeAt(toks, k)]
const after = (toks: ReadonlyArray<Tok>, k: number): Tok | undefined => {
  let j = k + 1
  while (toks[j]?.kind === "newline") j++
  return toks[j]
}

const byLiteral = (name: string | null, kindOf: NameKind): CodeKind | null => (name === null ? "load" : kindOf(name))

// ---------------------------------------------------------------------------
// ruby
// ---------------------------------------------------------------------------

/** Methods that call, or hand out, another method named by their first argument. */
const RUBY_BY_NAME = new Set(["send", "public_send", "__send__", "method", "public_method", "instance_method", "singleton_method"])
/** Modules whose methods run programs or delete files: held in a variable, their methods are called under it. */
const RUBY_CAPABLE = new Set(["Kernel", "Process", "IO", "Open3", "FileUtils", "PTY", "ObjectSpace"])
/** Methods that run a program whatever they are called on (`k.system`, `const_get("Kernel").system`). */
const RUBY_RUN_MEMBERS = new Set(["system", "popen", "popen2", "popen2e", "popen3", "capture2", "capture2e", "capture3", "pipeline"])
const RUBY_DELETE_MEMBERS = new Set(["rm_rf", "rm_r", "remove_dir", "remove_entry", "remove_entry_secure"])

export const rubyByName = (toks: ReadonlyArray<Tok>, calls: ReadonlyArray<Call>, kindOf: NameKind): CodeKind[] => {
  const out: CodeKind[] = []
  for (const call of calls) {
    if (RUBY_BY_NAME.has(call.member)) {
      const kind = byLiteral(literal(splitArgs(call.args)[0]), kindOf)
      if (kind !== null) out.push(kind)
    } else if (!call.bare && RUBY_RUN_MEMBERS.has(call.member)) out.push("run")
    else if (!call.bare && RUBY_DELETE_MEMBERS.has(call.member)) out.push("delete")
  }
  // `k = Kernel`: the module as a value.
  for (let k = 1; k < toks.length; k++) {
    const name = ident(toks[k])
    if (name !== null && RUBY_CAPABLE.has(name) && isOp(toks[k - 1], "=") && !isOp(toks[k + 1], ".") && !isOp(toks[k + 1], "::")) out.push("load")
  }
  return out
}

// ---------------------------------------------------------------------------
// perl
// ---------------------------------------------------------------------------

/** Perl builtins' core names: `CORE::system` and `CORE::GLOBAL::system` are `system`. */
export const perlName = (name: string): string => name.replace(/^CORE\.(?:GLOBAL\.)?/, "")

export const perlByName = (toks: ReadonlyArray<Tok>, kindOf: NameKind): CodeKind[] => {
  const out: CodeKind[] = []
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k]
    if (isOp(t, "&")) {
      const next = toks[k + 1]
      const prev = before(toks, k)
      // `&{"name"}(…)`, `&$name(…)`: a sub named at run time. (`a & b` is a bit operation: a value before it.)
      const operand = prev === undefined || prev.kind === "newline" || (prev.kind === "operator" && prev.value !== ")" && prev.value !== "]")
      if (!operand) continue
      if (isOp(next, "{") || (next?.kind === "identifier" && next.value.startsWith("$"))) {
        out.push("load")
        continue
      }
      // `\&CORE::system`, `&system(…)`: a named sub, taken as a reference or called with `&`.
      const names: string[] = []
      let j = k + 1
      while (ident(toks[j]) !== null) {
        names.push(ident(toks[j]) ?? "")
        if (!isOp(toks[j + 1], "::")) break
        j += 2
      }
      if (names.length > 0) {
        const kind = kindOf(perlName(names.join(".")))
        if (kind !== null) out.push(kind)
      }
      continue
    }
    // `*{"main::x"} = …`: a glob named at run time.
    if (isOp(t, "*") && isOp(toks[k + 1], "{") && (before(toks, k) === undefined || before(toks, k)?.kind === "newline")) {
      out.push("load")
      continue
    }
    const name = ident(t)
    if (name === null) continue
    const kind = kindOf(name)
    if (kind === null) continue
    const p = beforeAt(toks, k)
    const prev = toks[p]
    if (isOp(prev, "->") || isOp(prev, "::") || isOp(prev, "&") || ident(prev) === "sub") continue
    const next = after(toks, k)
    // A hash key (`$h{unlink}`, `$h->{unlink}`, `unlink => 1`) names nothing.
    const subscripted = (o: Tok | undefined): boolean => /^[$@%]/.test(ident(o) ?? "") || isOp(o, "->") || isOp(o, "}") || isOp(o, "]")
    if (isOp(next, "=>") || (isOp(prev, "{") && isOp(next, "}") && subscripted(before(toks, p)))) continue
    // `system { "rm" } …` (the program in a block), `unlink glob(…)`, `map { unlink } …` (on `$_`): calls the scan
    // does not read as one.
    if (isOp(next, "{") || isOp(next, "}") || isOp(next, ";") || next?.kind === "identifier" || next === undefined) out.push(kind)
  }
  return out
}

// ---------------------------------------------------------------------------
// php
// ---------------------------------------------------------------------------

/** Functions that call the callable given as one of their arguments (index of that argument). */
export const PHP_CALLBACK_AT: ReadonlyMap<string, number> = new Map([
  ["call_user_func", 0], ["call_user_func_array", 0], ["forward_static_call", 0], ["forward_static_call_array", 0],
  ["register_shutdown_function", 0], ["register_tick_function", 0], ["array_map", 0], ["array_filter", 1], ["array_walk", 1],
  ["array_walk_recursive", 1], ["array_reduce", 1], ["usort", 1], ["uasort", 1], ["uksort", 1], ["iterator_apply", 1],
  ["preg_replace_callback", 1], ["ob_start", 0], ["set_error_handler", 0], ["set_exception_handler", 0],
  ["spl_autoload_register", 0], ["header_register_callback", 0]
])

/** The callable an argument gives: its literal name, "" for a closure or a method pair, null when computed. */
const callableName = (arg: ReadonlyArray<Tok> | undefined): string | null => {
  if (arg === undefined) return ""
  const lit = literal(arg)
  if (lit !== null) return lit
  const first = arg[0]
  if (first?.kind === "identifier" && (first.value === "function" || first.value === "fn" || first.value === "static")) return ""
  if (isOp(first, "[")) return ""
  return first?.kind === "identifier" && first.value.startsWith("$") ? null : first?.kind === "string" ? null : ""
}

export const phpByName = (toks: ReadonlyArray<Tok>, calls: ReadonlyArray<Call>, kindOf: NameKind): CodeKind[] => {
  const out: CodeKind[] = []
  for (const call of calls) {
    const lower = call.name.toLowerCase()
    const parts = splitArgs(call.args)
    const at = PHP_CALLBACK_AT.get(lower)
    if (call.bare && at !== undefined) {
      const name = callableName(parts[at])
      const kind = name === "" ? null : byLiteral(name, (n) => kindOf(n.toLowerCase()))
      if (kind !== null) out.push(kind)
    } else if (lower === "reflectionfunction" || lower === "closure.fromcallable") {
      const kind = byLiteral(literal(parts[0]), (n) => kindOf(n.toLowerCase()))
      if (kind !== null) out.push(kind)
    } else if (call.bare && lower === "assert" && parts[0] !== undefined && literal(parts[0]) === null) {
      // Before PHP 8 a string given to assert() is evaluated as code.
      out.push("load")
    }
  }
  // `"system"(…)`, `("sys"."tem")(…)`: a function called by a string.
  for (let k = 0; k + 1 < toks.length; k++) {
    const t = toks[k]
    if (t?.kind !== "string") continue
    const wrapped = isOp(toks[k - 1], "(") && isOp(toks[k + 1], ")") && isOp(toks[k + 2], "(")
    if (!wrapped && !isOp(toks[k + 1], "(")) continue
    const kind = t.literal ? kindOf(t.value.toLowerCase()) : "load"
    if (kind !== null) out.push(kind)
  }
  return out
}
