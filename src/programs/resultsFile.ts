/** JSONL results files that a killed batch leaves behind, read back for `--resume`. */
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs"

/**
 * The complete, readable lines of a results file that `keep` accepts (called
 * in file order); the file is rewritten (atomically) without the rest: a line
 * cut short by a crash, or one that is about to be answered again.
 */
export const keptLines = (path: string, keep: (value: Record<string, unknown>) => boolean): Array<Record<string, unknown>> => {
  if (!existsSync(path)) return []
  const text = readFileSync(path, "utf8")
  const complete = text.endsWith("\n") ? text : text.slice(0, text.lastIndexOf("\n") + 1)
  const kept: Array<Record<string, unknown>> = []
  const lines: Array<string> = []
  for (const line of complete.split("\n")) {
    if (line.trim().length === 0) continue
    try {
      const value: unknown = JSON.parse(line)
      if (value !== null && typeof value === "object" && !Array.isArray(value) && keep(value as Record<string, unknown>)) {
        kept.push(value as Record<string, unknown>)
        lines.push(line)
      }
    } catch {
      // a damaged line: dropped
    }
  }
  const rewritten = lines.map((l) => `${l}\n`).join("")
  if (rewritten !== text) {
    writeFileSync(`${path}.tmp`, rewritten)
    renameSync(`${path}.tmp`, path)
  }
  return kept
}
