/** Character codes and classes shared by the shell lexer and parser. */
export const NL = 10
export const SPACE = 32
export const TAB = 9
export const CR = 13
export const VT = 11
export const FF = 12
export const SEMI = 59
export const AMP = 38
export const PIPE = 124
export const LPAR = 40
export const RPAR = 41
export const LT = 60
export const GT = 62
export const SQ = 39
export const DQ = 34
export const BSL = 92
export const DOLLAR = 36
export const BQ = 96
export const HASH = 35
export const LBRACE = 123
export const RBRACE = 125

export const isBlank = (c: number): boolean => c === SPACE || c === TAB || c === CR || c === VT || c === FF
export const isMeta = (c: number): boolean =>
  isBlank(c) || c === NL || c === SEMI || c === AMP || c === PIPE || c === LPAR || c === RPAR || c === LT || c === GT
export const isDigit = (c: number): boolean => c >= 48 && c <= 57
export const isNameStart = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95
export const isNameChar = (c: number): boolean => isNameStart(c) || isDigit(c)
