/**
 * Slash commands an editor offers in its prompt box (`available_commands_update`)
 * and the server answers itself, without a model call. A `/word` that is not
 * one of them goes to the model as typed.
 */
import type { AvailableCommand } from "@agentclientprotocol/sdk/unstable"
import { EDIT_MODES, isEditMode } from "./editModes.js"
import type { EditMode } from "./editModes.js"

export const SLASH_COMMANDS: ReadonlyArray<AvailableCommand> = [
  { name: "help", description: "List these commands" },
  { name: "model", description: "Show the session's model, or switch it", input: { hint: "model name to switch to" } },
  { name: "mode", description: "Show the edit mode, or switch it (default, accept_edits, dont_ask)", input: { hint: "mode to switch to" } },
  { name: "tools", description: "List the tools this session offers the model" },
  { name: "context", description: "Count the session's messages by role" },
  { name: "title", description: "Name this session (shown in the session list)", input: { hint: "new title" } },
  { name: "version", description: "Show the agent's version" }
]

/** What a command may look at or change; the server supplies it per session. */
export interface SlashContext {
  readonly model: string
  readonly provider: string | undefined
  readonly models: ReadonlyArray<string>
  readonly mode: EditMode
  readonly version: string
  readonly setModel: (name: string) => Promise<void>
  readonly setMode: (mode: EditMode) => void
  readonly setTitle: (title: string) => Promise<void>
  readonly tools: () => Promise<ReadonlyArray<{ readonly name: string; readonly description: string }>>
  readonly roles: () => Promise<Readonly<Record<string, number>>>
}

/** `/name rest` when `name` is one of ours. */
export const parseSlash = (text: string): { readonly name: string; readonly arg: string } | undefined => {
  const match = /^\/([a-z]+)(?:\s+([\s\S]*))?$/.exec(text.trim())
  if (match === null || !SLASH_COMMANDS.some((c) => c.name === match[1])) return undefined
  return { name: match[1]!, arg: (match[2] ?? "").trim() }
}

const cut = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`)

/** The command's answer, as the text shown to the user. */
export const runSlash = async (command: { readonly name: string; readonly arg: string }, ctx: SlashContext): Promise<string> => {
  switch (command.name) {
    case "help":
      return SLASH_COMMANDS.map((c) => `/${c.name}${c.input === undefined || c.input === null ? "" : ` <${c.input.hint}>`} — ${c.description}`).join("\n")
    case "model": {
      if (command.arg.length === 0) return `Current model: ${ctx.model}\nProvider: ${ctx.provider ?? "none configured"}\nChoices: ${ctx.models.join(", ")}`
      if (ctx.provider === undefined) return "No model is configured: set model.provider in config.yaml."
      if (!ctx.models.includes(command.arg)) return `'${command.arg}' is not offered. Choices: ${ctx.models.join(", ")} (add more under model.choices in config.yaml).`
      await ctx.setModel(command.arg)
      return `Model switched to: ${command.arg}\nProvider: ${ctx.provider}`
    }
    case "mode": {
      if (command.arg.length === 0) return `Edit mode: ${ctx.mode}\n${EDIT_MODES.map((m) => `${m.id} — ${m.description}`).join("\n")}`
      if (!isEditMode(command.arg)) return `Unknown mode '${command.arg}'. Modes: ${EDIT_MODES.map((m) => m.id).join(", ")}`
      ctx.setMode(command.arg)
      return `Edit mode: ${command.arg}`
    }
    case "tools": {
      const tools = await ctx.tools()
      return tools.length === 0 ? "No tools are offered." : tools.map((t) => `${t.name} — ${cut(t.description.split("\n")[0] ?? "", 80)}`).join("\n")
    }
    case "context": {
      const roles = await ctx.roles()
      const total = Object.values(roles).reduce((a, b) => a + b, 0)
      return [`Messages: ${total}`, ...Object.entries(roles).map(([role, n]) => `  ${role}: ${n}`), `Model: ${ctx.model}`, `Provider: ${ctx.provider ?? "none"}`].join("\n")
    }
    case "title": {
      if (command.arg.length === 0) return "Usage: /title <new title>"
      await ctx.setTitle(command.arg)
      return `Title: ${command.arg}`
    }
    case "version":
      return `hermes-effect ${ctx.version}`
    default:
      return `Unknown command /${command.name}`
  }
}
