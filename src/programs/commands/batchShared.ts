/** What both kinds of batch (tool calls, prompts) share. */
import { Data } from "effect"

/** The batch file cannot be read, or the options do not fit together: a usage problem (exit 2). */
export class BatchInputError extends Data.TaggedError("BatchInputError")<{ readonly message: string }> {}

export const progressBar = (done: number, total: number) => {
  const width = 30
  const filled = total === 0 ? width : Math.min(width, Math.round((done / total) * width))
  return `\r[${"#".repeat(filled)}${".".repeat(width - filled)}] ${done}/${total}`
}
