/**
 * The shell commands a skill would have the model run: the lines of shell
 * scripts, and of shell-tagged (or untagged) fenced blocks in Markdown, with
 * `\` continuations joined and `$ ` prompts dropped. The guard hands them to
 * the approval detector, so "is this command destructive" has one answer in
 * the whole runtime.
 */

export interface ShellLine {
  /** 1-based line where the command starts. */
  readonly line: number
  readonly command: string
}

const SHELL_FENCES = new Set(["", "bash", "sh", "shell", "zsh", "console", "terminal", "shell-session", "shellsession"])
const SHELL_EXTENSIONS = new Set([".sh", ".bash", ".zsh"])

const fence = (line: string): { readonly marker: string; readonly info: string } | undefined => {
  const m = /^\s{0,3}(`{3,}|~{3,})\s*([\w+-]*)/.exec(line)
  return m === null ? undefined : { marker: m[1] as string, info: (m[2] as string).toLowerCase() }
}

/** Join `\`-continued lines; skip blanks and comments. */
const commands = (lines: ReadonlyArray<readonly [number, string]>, prompts: boolean): Array<ShellLine> => {
  const out: Array<ShellLine> = []
  let pending: { line: number; text: string } | undefined
  for (const [n, raw] of lines) {
    let text = raw.trimEnd()
    if (pending === undefined) {
      const trimmed = text.trimStart()
      if (prompts && /^\$\s/.test(trimmed)) text = trimmed.replace(/^\$\s+/, "")
      else if (trimmed.length === 0 || trimmed.startsWith("#")) continue
    }
    const continued = text.endsWith("\\")
    const piece = continued ? text.slice(0, -1) : text
    pending = pending === undefined ? { line: n, text: piece } : { line: pending.line, text: `${pending.text} ${piece.trim()}` }
    if (!continued) {
      out.push({ line: pending.line, command: pending.text.trim() })
      pending = undefined
    }
  }
  if (pending !== undefined) out.push({ line: pending.line, command: pending.text.trim() })
  return out
}

export const shellLines = (file: string, lines: ReadonlyArray<string>): ReadonlyArray<ShellLine> => {
  const lower = file.toLowerCase()
  const ext = lower.includes(".") ? lower.slice(lower.lastIndexOf(".")) : ""
  const shebang = /^#!\s*\/(?:usr\/)?bin\/(?:env\s+)?(?:ba|z|da)?sh\b/.test(lines[0] ?? "")
  if (SHELL_EXTENSIONS.has(ext) || (shebang && !ext.endsWith("md"))) {
    return commands(lines.map((l, i) => [i + 1, l] as const).slice(shebang ? 1 : 0), false)
  }
  if (ext !== ".md" && ext !== ".markdown") return []
  const blocks: Array<Array<readonly [number, string]>> = []
  let open: { readonly marker: string; readonly shell: boolean } | undefined
  lines.forEach((line, i) => {
    const f = fence(line)
    if (open === undefined) {
      if (f !== undefined) {
        open = { marker: f.marker, shell: SHELL_FENCES.has(f.info) }
        if (open.shell) blocks.push([])
      }
      return
    }
    if (f !== undefined && line.trim().startsWith(open.marker[0] as string) && line.trim().replace(/[`~]/g, "").length === 0) {
      open = undefined
      return
    }
    if (open.shell) blocks[blocks.length - 1]?.push([i + 1, line])
  })
  return blocks.flatMap((block) => commands(block, true))
}
