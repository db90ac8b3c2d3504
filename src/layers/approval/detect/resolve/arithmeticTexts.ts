/**
 * Where bash evaluates text as arithmetic inside a command's words: array
 * subscripts, substring and slice offsets, `$((…))` (also in double quotes
 * and `${…}` operands), the old `$[…]`, and names read indirectly (`${!x}`),
 * whose subscript is evaluated too. Pure text work; the resolver judges what
 * the names there hold.
 */
import type { Part, Word } from "../../shell/ast.js"
import { closing, INTEGER_SHELL_VARIABLES } from "./numericValues.js"

/**
 * An expression bash evaluates as arithmetic, and the array it indexes (`a[X]`: an associative array's key is
 * not); or (`reference`) a variable named at run time (`${!x}`): a name there may carry a subscript, evaluated too.
 */
interface ArithmeticText {
  readonly array: string | undefined
  readonly text: string
  readonly reference?: boolean
}

const subscript = (m: RegExpExecArray | null, out: ArithmeticText[]): void => {
  if (m !== null && m[2] !== "@" && m[2] !== "*" && m[2] !== "") out.push({ array: m[1], text: m[2] ?? "" })
}

/** Array subscripts, substring offsets and indirections of one `${…}` body (`a[X]`, `s:X:Y`, `a[@]:X`, `!x`). */
const paramArithmetic = (body: string, out: ArithmeticText[]): void => {
  subscript(/^[!#]?([A-Za-z_][A-Za-z0-9_]*)\[([^\]]*)\]/.exec(body), out)
  const offset = /^(?:[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?|[@*]|[0-9]+):(?![-=+?])(.*)$/s.exec(body)
  if (offset !== null) out.push({ array: undefined, text: (offset[1] ?? "").replace(/:/g, " ") })
  // `${!x}` (not `${!x[@]}` or `${!prefix*}`, which list names): the value of x names the variable read.
  const indirect = /^!([A-Za-z_][A-Za-z0-9_]*)(?![[*@A-Za-z0-9_])/.exec(body)
  if (indirect !== null) out.push({ array: undefined, text: `$${indirect[1] ?? ""}`, reference: true })
}

const partsArithmetic = (parts: ReadonlyArray<Part>, out: ArithmeticText[]): void => {
  for (const p of parts) {
    if (p.kind === "bracedParam") paramArithmetic(p.text, out)
    else if (p.kind === "doubleQuoted") partsArithmetic(p.parts, out)
  }
}

/**
 * What bash evaluates as arithmetic in a word: array subscripts (`${a[X]}`, `a[X]=v`) and substring offsets
 * (`${s:X:Y}`). Quoted text is not looked at: `'a[$(x)]'` is only text.
 */
export const subscriptsAndOffsets = (w: Word): ReadonlyArray<ArithmeticText> => {
  const out: ArithmeticText[] = []
  partsArithmetic(w.parts, out)
  subscript(/^([A-Za-z_][A-Za-z0-9_]*)\[([^\]]*)\]\+?=/.exec(w.raw), out)
  return out
}

/** Builtins that set the variables they name from input: into an integer, the input is evaluated as arithmetic. */
export const INPUT_SETTERS = new Set(["read", "mapfile", "readarray", "printf", "getopts", "select", "wait"])

/** An assignment to a variable bash itself keeps integer: the value is evaluated as arithmetic. */
export const SHELL_INTEGER_ASSIGNMENT = new RegExp(`^(?:${INTEGER_SHELL_VARIABLES.join("|")})\\+?=`)

/** The `$((…))` of a word, also inside double quotes and `${…}` operands (`"${x:-$((n))}"`); not in single quotes. */
export const arithmeticExpansions = (parts: ReadonlyArray<Part>, out: string[] = []): ReadonlyArray<string> => {
  for (const p of parts) {
    if (p.kind === "raw" && p.text.startsWith("$((")) out.push(p.text)
    else if (p.kind === "doubleQuoted") arithmeticExpansions(p.parts, out)
    else if (p.kind === "bracedParam") {
      for (let at = p.text.indexOf("$(("); at >= 0; at = p.text.indexOf("$((", at + 3)) {
        out.push(p.text.slice(at, closing(p.text, at + 1, "(", ")") + 1))
      }
    }
  }
  return out
}

/** The expressions of `$[…]` in a word's text (brackets balanced: `$[a[1]+2]`). */
export const oldArithmetic = (raw: string): ReadonlyArray<string> => {
  const out: string[] = []
  for (let at = raw.indexOf("$["); at >= 0; at = raw.indexOf("$[", at + 2)) out.push(raw.slice(at + 2, closing(raw, at + 1, "[", "]")))
  return out
}

/** `[[ … ]]` operators that compare their operands as arithmetic. */
export const ARITH_TESTS = new Set(["-eq", "-ne", "-lt", "-le", "-gt", "-ge"])
