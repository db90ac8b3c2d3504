/**
 * The system prompt of a new session: who the agent is and how to use tools,
 * a frozen snapshot of the memory stores (when the `memory` tool is offered),
 * an index of the skills (when `skill_view` is offered), where it runs, and
 * the operator's own text (`agent.system_prompt`). Built once per session and
 * stored as its first message, so a resumed session sees the same prompt.
 * Memory and skills are optional services; when one is missing or cannot be
 * read its section is left out.
 */
import { Clock, Effect, Option } from "effect"
import { MemoryStore } from "../../services/MemoryStore.js"
import type { MemoryStoreService } from "../../services/MemoryStore.js"
import { Skills } from "../../services/Skills.js"
import type { SkillsService, SkillSummary } from "../../services/Skills.js"

export interface PromptParts {
  readonly tools: ReadonlyArray<string>
  readonly cwd: string | undefined
  readonly startedAt: Date
  readonly memory?: ReadonlyArray<string> | undefined
  readonly userProfile?: ReadonlyArray<string> | undefined
  readonly skills?: ReadonlyArray<SkillSummary> | undefined
  readonly extra?: string | undefined
}

const IDENTITY = [
  "You are an AI agent that gets things done through tools. Work out what the user needs, act with the tools offered to you,",
  "check what they return, and keep going until the task is done; then answer the user directly.",
  "",
  "How to work:",
  "- Call tools rather than guessing: read files before describing them, run commands to see their real output.",
  "- Independent calls (several reads, several searches) can go in one turn; they run together.",
  "- A tool result of the form {\"error\": ...} means the call failed: read the message, fix the call and try again, or choose another way.",
  "- Keep answers short and concrete: what you did, what you found, what is left."
].join("\n")

const TOOL_HINTS: ReadonlyArray<readonly [string, string]> = [
  ["todo", "Use `todo` to plan multi-step work and keep the list current as you go."],
  ["memory", "Use `memory` to save durable facts (user preferences, project conventions) for future sessions; it is not a scratchpad."],
  ["session_search", "Use `session_search` to recall what was said or done in earlier sessions."],
  ["delegate_task", "Use `delegate_task` to hand self-contained subtasks to subagents; they see only what you put in the goal and context."],
  ["clarify", "Use `clarify` only when you cannot proceed without the user's decision."]
]

const section = (title: string, body: string) => `## ${title}\n${body}`

/** Everything before the environment section: fixed for a given tool list when no memory or skills are shown. */
const renderHead = (parts: Omit<PromptParts, "cwd" | "startedAt" | "extra">): string => {
  const offered = new Set(parts.tools)
  const out = [IDENTITY]
  const hints = TOOL_HINTS.filter(([tool]) => offered.has(tool)).map(([, hint]) => `- ${hint}`)
  if (hints.length > 0) out.push(section("Tools with special roles", hints.join("\n")))
  if (parts.memory !== undefined && parts.memory.length > 0) {
    out.push(section("Memory (your notes from earlier sessions, as of the start of this one)", parts.memory.join("\n§\n")))
  }
  if (parts.userProfile !== undefined && parts.userProfile.length > 0) {
    out.push(section("User profile (what you know about the user)", parts.userProfile.join("\n§\n")))
  }
  if (parts.skills !== undefined && parts.skills.length > 0) {
    const lines = parts.skills.map((s) => `- ${s.name}: ${s.description}`)
    out.push(section(
      "Skills",
      `Before starting a task that one of these covers, load it with skill_view(name) and follow it.\n${lines.join("\n")}`
    ))
  }
  return out.join("\n\n")
}

const renderWithHead = (head: string, parts: PromptParts): string => {
  const where = [`Session started: ${parts.startedAt.toISOString()}`]
  if (parts.cwd !== undefined) where.push(`Working directory: ${parts.cwd}`)
  const out = [head, section("Environment", where.join("\n"))]
  if (parts.extra !== undefined && parts.extra.trim().length > 0) out.push(parts.extra.trim())
  return out.join("\n\n")
}

export const renderSystemPrompt = (parts: PromptParts): string => renderWithHead(renderHead(parts), parts)

/** Heads without memory or skills, by tool list (the loop passes one array per toolset selection). */
const plainHeads = new WeakMap<ReadonlyArray<string>, string>()

const plainHead = (tools: ReadonlyArray<string>): string => {
  const hit = plainHeads.get(tools)
  if (hit !== undefined) return hit
  const head = renderHead({ tools })
  plainHeads.set(tools, head)
  return head
}

/** Skills in the index at most; the rest are reachable through skills_list. */
export const SKILLS_INDEX_LIMIT = 100

const quietly = <A, E>(effect: Effect.Effect<A, E>): Effect.Effect<A | undefined> =>
  Effect.catchAllCause(effect, (cause) => Effect.as(Effect.logDebug("system prompt: a section was left out", cause), undefined))

export interface PromptServices {
  readonly memory: Option.Option<MemoryStoreService>
  readonly skills: Option.Option<SkillsService>
}

export const buildSystemPrompt = (
  input: { readonly tools: ReadonlyArray<string>; readonly cwd: string | undefined; readonly extra: string | undefined },
  services: PromptServices
) =>
  Effect.gen(function*() {
    const offered = new Set(input.tools)
    const memory = offered.has("memory") ? Option.getOrUndefined(services.memory) : undefined
    const skills = offered.has("skill_view") ? Option.getOrUndefined(services.skills) : undefined
    const notes = memory === undefined ? undefined : yield* quietly(memory.entries("memory"))
    const profile = memory === undefined ? undefined : yield* quietly(memory.entries("user"))
    const listing = skills === undefined ? undefined : yield* quietly(skills.list())
    const now = yield* Clock.currentTimeMillis
    const parts: PromptParts = {
      tools: input.tools,
      cwd: input.cwd,
      startedAt: new Date(now),
      memory: notes,
      userProfile: profile,
      skills: listing?.skills.slice(0, SKILLS_INDEX_LIMIT),
      extra: input.extra
    }
    return memory === undefined && skills === undefined ? renderWithHead(plainHead(input.tools), parts) : renderSystemPrompt(parts)
  })

/** The optional services, looked up once where the loop is built. */
export const promptServices: Effect.Effect<PromptServices> = Effect.all({
  memory: Effect.serviceOption(MemoryStore),
  skills: Effect.serviceOption(Skills)
})
