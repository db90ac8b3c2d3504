/**
 * Input bounds checked before any parsing (Hermes' limits). Crossing one
 * fails closed: the command is reported as needing approval rather than
 * letting an uninspected suffix run. Separators inside quotes count too, on
 * purpose — over-counting only ever errs towards asking.
 */
export const MAX_COMMAND_CHARS = 128_000
export const MAX_SEPARATOR_FREE_CHARS = 4_096
export const MAX_SEPARATORS = 25_000

export const exceedsParserLimits = (command: string): boolean => {
  if (command.length > MAX_COMMAND_CHARS) return true
  let separators = 0
  for (let i = 0; i < command.length; i++) {
    const c = command.charCodeAt(i)
    if (c === 59 || c === 38 || c === 124 || c === 10) separators++ // ; & | \n
  }
  if (separators === 0 && command.length > MAX_SEPARATOR_FREE_CHARS) return true
  return separators >= MAX_SEPARATORS
}
