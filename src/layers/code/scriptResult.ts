/**
 * Hermes' execute_code result from what the run left: stdout capped by bytes
 * (40% head, 60% tail, with counts beside the marker), stderr's head, the
 * status and its messages. Escape sequences stripped, secrets masked.
 */
import type { CapturedOutput } from "../../services/TerminalBackend.js"
import type { ScriptResult } from "../../services/CodeExecution.js"
import { redactToolOutput, stripAnsiOutput } from "../../lib/text.js"

export interface ScriptEnd {
  readonly stdout: CapturedOutput
  readonly stderr: string
  readonly exitCode: number
  readonly timedOut: boolean
  readonly interrupted: boolean
  readonly timeoutSeconds: number
  readonly toolCalls: number
  readonly durationSeconds: number
}

const clean = (text: string): string => redactToolOutput(stripAnsiOutput(text))

const grouped = (n: number): string => n.toLocaleString("en-US")

const TRUNCATED_WARNING =
  "execute_code stdout was truncated: the script ran to its end, but only the head and tail of its output are shown. " +
  "If the omitted part matters, run again printing less (a summary, or the part you need)."

/** Seconds with two decimals, as a number. */
export const seconds = (ms: number): number => Math.round(ms / 10) / 100

export const scriptResult = (end: ScriptEnd): ScriptResult => {
  const { stdout } = end
  const total = stdout.totalBytes
  const captured = total - stdout.omittedBytes
  const truncated = stdout.omittedBytes > 0
  let output = truncated
    ? `${stdout.head}\n\n... [OUTPUT TRUNCATED - ${grouped(stdout.omittedBytes)} bytes omitted out of ${grouped(total)} total] ...\n\n${stdout.tail}`
    : stdout.head + stdout.tail
  output = clean(output)
  const stderr = clean(end.stderr)
  let status: ScriptResult["status"] = "success"
  let error: string | undefined
  if (end.timedOut) {
    status = "timeout"
    error = `Script timed out after ${end.timeoutSeconds}s and was killed.`
    output = `${output}\n\n⏰ ${error}`
  } else if (end.interrupted) {
    status = "interrupted"
    output = `${output}\n[execution interrupted — user sent a new message]`
  } else if (end.exitCode !== 0) {
    status = "error"
    error = stderr.trim().length > 0 ? stderr.trim() : `Script exited with code ${end.exitCode}`
    if (stderr.length > 0) output = `${output}\n--- stderr ---\n${stderr}`
  }
  return {
    status,
    output,
    exit_code: end.exitCode,
    tool_calls_made: end.toolCalls,
    duration_seconds: end.durationSeconds,
    stdout_truncated: truncated,
    stdout_bytes_captured: captured,
    stdout_bytes_total: total,
    stdout_bytes_omitted: stdout.omittedBytes,
    ...(truncated ? { warning: TRUNCATED_WARNING } : {}),
    ...(error === undefined ? {} : { error })
  }
}
