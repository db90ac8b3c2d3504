/**
 * How tool calls look in an editor: Hermes' tool → kind and title mapping,
 * start content (the command, a diff computed before the write) and the
 * completion text (cut for the UI; the model still gets the whole result).
 */
import { readFileSync } from "node:fs"
import { isAbsolute, resolve } from "node:path"
import type { SessionUpdate, ToolCallContent, ToolCallLocation, ToolKind } from "@agentclientprotocol/sdk"
import { lookupTable } from "../../lib/lookupTable.js"

const KINDS: Readonly<Record<string, ToolKind>> = lookupTable({
  read_file: "read",
  search_files: "search",
  write_file: "edit",
  patch: "edit",
  skill_manage: "edit",
  terminal: "execute",
  process: "execute",
  execute_code: "execute",
  delegate_task: "execute",
  browser_click: "execute",
  browser_type: "execute",
  browser_scroll: "execute",
  browser_press: "execute",
  browser_back: "execute",
  web_search: "fetch",
  web_extract: "fetch",
  browser_navigate: "fetch",
  skill_view: "read",
  skills_list: "read",
  browser_snapshot: "read",
  browser_get_images: "read",
  browser_vision: "read",
  vision_analyze: "read"
})

export const kindOf = (tool: string): ToolKind => KINDS[tool] ?? "other"

/** Text past this many characters is cut in the card (the model is not affected). */
export const UI_TEXT_LIMIT = 5000

export const truncate = (text: string, limit = UI_TEXT_LIMIT) =>
  text.length <= limit ? text : `${text.slice(0, limit - 100)}\n... (${text.length} chars total, truncated)`

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 3)}...` : text)

export const parseArgs = (raw: string): Record<string, unknown> => {
  try {
    const parsed: unknown = JSON.parse(raw.trim().length === 0 ? "{}" : raw)
    return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined)

export const titleOf = (tool: string, args: Record<string, unknown>): string => {
  switch (tool) {
    case "read_file":
      return `read: ${str(args["path"]) ?? "?"}`
    case "write_file":
      return `write: ${str(args["path"]) ?? "?"}`
    case "patch":
      return `patch (${str(args["mode"]) ?? "replace"}): ${str(args["path"]) ?? "?"}`
    case "search_files":
      return `search: ${str(args["pattern"]) ?? ""}`
    case "terminal":
      return `terminal: ${cut(str(args["command"]) ?? "", 80)}`
    case "process": {
      const id = str(args["session_id"])
      return `process ${str(args["action"]) ?? "manage"}${id === undefined ? "" : `: ${id}`}`
    }
    case "todo": {
      const todos = args["todos"]
      return Array.isArray(todos) ? `todo (${todos.length} item${todos.length === 1 ? "" : "s"})` : "todo"
    }
    case "web_search":
      return `web search: ${str(args["query"]) ?? ""}`
    case "delegate_task": {
      const goal = str(args["goal"])
      const tasks = args["tasks"]
      return goal !== undefined ? `delegate: ${cut(goal, 60)}` : Array.isArray(tasks) ? `delegate batch (${tasks.length} tasks)` : "delegate task"
    }
    case "memory":
      return `memory ${str(args["action"]) ?? ""}: ${str(args["target"]) ?? ""}`.trim()
    case "session_search": {
      const q = str(args["query"])
      return q === undefined || q.length === 0 ? "recent sessions" : `session search: ${q}`
    }
    default:
      return tool
  }
}

/** Absolute path of a tool's `path` argument, against the session cwd (not the server's). */
export const absolutePath = (path: string, cwd: string) => (isAbsolute(path) ? path : resolve(cwd, path))

export const locationsOf = (args: Record<string, unknown>, cwd: string): Array<ToolCallLocation> => {
  const path = str(args["path"])
  if (path === undefined || path.length === 0) return []
  const line = typeof args["offset"] === "number" ? args["offset"] : typeof args["line"] === "number" ? args["line"] : undefined
  return [{ path: absolutePath(path, cwd), ...(line === undefined ? {} : { line }) }]
}

const readText = (path: string): string | null => {
  try {
    return readFileSync(path, "utf8")
  } catch {
    return null
  }
}

const text = (value: string): ToolCallContent => ({ type: "content", content: { type: "text", text: value } })

/** The diff of a write_file / patch (replace mode), computed before the file changes. */
export const diffOf = (tool: string, args: Record<string, unknown>, cwd: string): ToolCallContent | undefined => {
  const path = str(args["path"])
  if (path === undefined) return undefined
  const abs = absolutePath(path, cwd)
  if (tool === "write_file") {
    const content = str(args["content"])
    if (content === undefined) return undefined
    return { type: "diff", path: abs, oldText: readText(abs), newText: content }
  }
  if (tool === "patch" && (str(args["mode"]) ?? "replace") === "replace") {
    const oldString = str(args["old_string"])
    const newString = str(args["new_string"])
    const old = readText(abs)
    if (oldString === undefined || newString === undefined || old === null || !old.includes(oldString)) return undefined
    const updated = args["replace_all"] === true ? old.split(oldString).join(newString) : old.replace(oldString, () => newString)
    return { type: "diff", path: abs, oldText: old, newText: updated }
  }
  return undefined
}

export const startContent = (tool: string, args: Record<string, unknown>, cwd: string): Array<ToolCallContent> => {
  const diff = diffOf(tool, args, cwd)
  if (diff !== undefined) return [diff]
  if (tool === "terminal") return [text(`$ ${str(args["command"]) ?? ""}`)]
  if (tool === "search_files") {
    const where = str(args["path"])
    return [text(`Searching for '${str(args["pattern"]) ?? ""}' (${str(args["target"]) ?? "content"})${where === undefined ? "" : ` in ${where}`}`)]
  }
  return []
}

const jsonObject = (result: string): Record<string, unknown> | undefined => {
  if (!result.startsWith("{")) return undefined
  try {
    const parsed: unknown = JSON.parse(result)
    return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

/** Failed: the executor said so, or the result says `success/ok: false`, a non-zero exit code or an error without content. */
export const failedResult = (status: string, result: string): boolean => {
  if (status !== "ok") return true
  const json = jsonObject(result)
  if (json === undefined) return result.startsWith("Error executing tool '")
  if (json["success"] === false || json["ok"] === false) return true
  for (const key of ["exit_code", "returncode"]) {
    const code = json[key]
    if (typeof code === "number" && code !== 0) return true
  }
  return typeof json["error"] === "string" && json["error"].length > 0 && json["content"] === undefined && json["output"] === undefined
}

/** Card text of a finished call. Terminal output is shown whole (up to the UI limit), not cut at a few hundred chars. */
export const completionContent = (tool: string, result: string): Array<ToolCallContent> => {
  const json = jsonObject(result)
  if (tool === "terminal" && json !== undefined) {
    const output = typeof json["output"] === "string" ? json["output"] : ""
    const code = json["exit_code"]
    const error = typeof json["error"] === "string" && json["error"].length > 0 ? `\n${json["error"]}` : ""
    return [text(truncate(`${output}${typeof code === "number" && code !== 0 ? `\n[exit code ${code}]` : ""}${error}`))]
  }
  if ((tool === "write_file" || tool === "patch") && json !== undefined && json["error"] === undefined) return []
  return result.length === 0 ? [] : [text(truncate(result))]
}

/** The todo list as an ACP plan (after a `todo` call). */
export const planOf = (result: string): SessionUpdate | undefined => {
  const json = jsonObject(result)
  const todos = json?.["todos"]
  if (!Array.isArray(todos)) return undefined
  const entries = todos.flatMap((t: unknown) => {
    if (t === null || typeof t !== "object") return []
    const item = t as Record<string, unknown>
    const content = str(item["content"]) ?? ""
    const status = str(item["status"])
    if (status === "cancelled") return [{ content: `[cancelled] ${content}`, priority: "medium" as const, status: "completed" as const }]
    const mapped = status === "completed" ? "completed" as const : status === "in_progress" ? "in_progress" as const : "pending" as const
    return [{ content, priority: "medium" as const, status: mapped }]
  })
  return { sessionUpdate: "plan", entries }
}
