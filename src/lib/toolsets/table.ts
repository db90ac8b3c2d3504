/**
 * The static toolset table, matching Hermes' `toolsets.TOOLSETS` (57 entries)
 * name for name and tool for tool, so `enabled_toolsets` / `disabled_toolsets`
 * written for Hermes select the same tools here. Descriptions are our own.
 *
 * The live registry can add tools to these toolsets (and register toolsets of
 * its own); see `resolve.ts`.
 */

export interface ToolsetDef {
  readonly description: string
  /** Tools listed directly by this toolset. */
  readonly tools: ReadonlyArray<string>
  /** Other toolsets whose tools this one also contains. */
  readonly includes: ReadonlyArray<string>
  /**
   * A posture toolset (a per-session working mode such as `coding`). Disabling
   * one removes only its non-core tools, like a `hermes-*` bundle.
   */
  readonly posture?: boolean
}

const list = (...names: ReadonlyArray<string>): ReadonlyArray<string> => Object.freeze([...names])

const HA_TOOLS = list("ha_list_entities", "ha_get_state", "ha_list_services", "ha_call_service")

const BROWSER_TOOLS = list(
  "browser_navigate", "browser_snapshot", "browser_click", "browser_type", "browser_scroll",
  "browser_back", "browser_press", "browser_get_images", "browser_vision", "browser_console",
  "browser_cdp", "browser_dialog"
)

const KANBAN_TOOLS = list(
  "kanban_show", "kanban_list", "kanban_complete", "kanban_block", "kanban_heartbeat",
  "kanban_comment", "kanban_create", "kanban_link", "kanban_unblock", "kanban_attach",
  "kanban_attach_url", "kanban_attachments"
)

const FEISHU_DRIVE_TOOLS = list(
  "feishu_drive_list_comments", "feishu_drive_list_comment_replies",
  "feishu_drive_reply_comment", "feishu_drive_add_comment"
)

const YUANBAO_TOOLS = list(
  "yb_query_group_info", "yb_query_group_members", "yb_send_dm", "yb_search_sticker", "yb_send_sticker"
)

/**
 * The tools every full `hermes-*` platform bundle shares (52). Disabling a
 * bundle or posture toolset never removes these (Hermes #33924 / #57315).
 */
export const HERMES_CORE_TOOLS: ReadonlyArray<string> = list(
  "web_search", "web_extract",
  "terminal", "process", "read_terminal", "close_terminal",
  "read_file", "write_file", "patch", "search_files",
  "vision_analyze", "image_generate",
  "skills_list", "skill_view", "skill_manage",
  ...BROWSER_TOOLS,
  "text_to_speech",
  "todo", "memory", "session_search", "clarify",
  "execute_code", "delegate_task",
  "cronjob",
  ...HA_TOOLS,
  ...KANBAN_TOOLS,
  "computer_use"
)

/** Webhook payloads come from third parties: no file or command execution. */
export const HERMES_WEBHOOK_SAFE_TOOLS: ReadonlyArray<string> = list(
  "web_search", "web_extract", "vision_analyze", "clarify"
)

/** Core tools minus `excluded`, keeping core order. */
const coreWithout = (excluded: ReadonlyArray<string>): ReadonlyArray<string> => {
  const drop = new Set(excluded)
  return Object.freeze(HERMES_CORE_TOOLS.filter((t) => !drop.has(t)))
}

/** The coding posture: core minus media, home automation, scheduling, kanban and desktop control. */
const CODING_TOOLS = coreWithout([
  "image_generate", "text_to_speech", "cronjob", "computer_use", ...HA_TOOLS, ...KANBAN_TOOLS
])

const leaf = (description: string, tools: ReadonlyArray<string>): ToolsetDef =>
  Object.freeze({ description, tools: Object.freeze([...tools]), includes: list() })

const composite = (
  description: string,
  tools: ReadonlyArray<string>,
  includes: ReadonlyArray<string>
): ToolsetDef => Object.freeze({ description, tools: Object.freeze([...tools]), includes: Object.freeze([...includes]) })

const bundle = (description: string, extras: ReadonlyArray<string> = []): ToolsetDef =>
  leaf(description, [...HERMES_CORE_TOOLS, ...extras])

export const STATIC_TOOLSETS: Readonly<Record<string, ToolsetDef>> = Object.freeze({
  // Single-purpose toolsets.
  web: leaf("Search the web and extract page content", ["web_search", "web_extract"]),
  search: leaf("Web search only, without page extraction", ["web_search"]),
  x_search: leaf("Search public X (Twitter) posts through xAI; needs xAI credentials, off by default", ["x_search"]),
  vision: leaf("Analyse images", ["vision_analyze"]),
  video: leaf("Analyse video (opt-in)", ["video_analyze"]),
  image_gen: leaf("Generate images", ["image_generate"]),
  video_gen: leaf("Generate video from text or images, plus provider edit/extend tools", [
    "video_generate", "xai_video_edit", "xai_video_extend"
  ]),
  computer_use: leaf("Control a desktop in the background: screenshots, mouse, keyboard", ["computer_use"]),
  terminal: leaf("Run shell commands and manage background processes", ["terminal", "process"]),
  skills: leaf("List, read, create and edit skill documents", ["skills_list", "skill_view", "skill_manage"]),
  browser: leaf("Drive a web browser: navigate, inspect, click, type, scroll; web search to find pages", [
    ...BROWSER_TOOLS, "web_search"
  ]),
  cronjob: leaf("Create, list, update, pause, resume, remove and trigger scheduled jobs", ["cronjob"]),
  file: leaf("Read, write, patch and search files", ["read_file", "write_file", "patch", "search_files"]),
  tts: leaf("Turn text into speech audio", ["text_to_speech"]),
  todo: leaf("Plan and track multi-step work", ["todo"]),
  memory: leaf("Notes and a user profile that persist across sessions", ["memory"]),
  context_engine: leaf("Tools contributed at runtime by the active context engine", []),
  session_search: leaf("Search and summarise past conversations", ["session_search"]),
  project: leaf("Desktop projects: list, create and switch workspaces (GUI sessions only)", [
    "project_list", "project_create", "project_switch"
  ]),
  clarify: leaf("Ask the user a clarifying question", ["clarify"]),
  code_execution: leaf("Run scripts that call tools directly, saving model round trips", ["execute_code"]),
  delegation: leaf("Hand subtasks to subagents with their own context", ["delegate_task"]),
  homeassistant: leaf("Monitor and control a Home Assistant installation", HA_TOOLS),
  kanban: leaf("Kanban coordination for agents started by the kanban dispatcher", KANBAN_TOOLS),
  discord: leaf("Read and take part in Discord: messages, members, threads", ["discord"]),
  discord_admin: leaf("Administer a Discord server: channels, roles, pins", ["discord_admin"]),
  yuanbao: leaf("Yuanbao platform: group info, members, direct messages, stickers", YUANBAO_TOOLS),
  feishu_doc: leaf("Read Feishu/Lark documents", ["feishu_doc_read"]),
  feishu_drive: leaf("Feishu/Lark document comments: list, reply, add", FEISHU_DRIVE_TOOLS),
  spotify: leaf("Spotify playback, search, playlists, albums and library", [
    "spotify_playback", "spotify_devices", "spotify_queue", "spotify_search",
    "spotify_playlists", "spotify_albums", "spotify_library"
  ]),

  // Scenario toolsets.
  debugging: composite("Troubleshooting kit: terminal plus web and file tools", ["terminal", "process"], ["web", "file"]),
  safe: composite("No terminal: web, vision and image generation", [], ["web", "vision", "image_gen"]),

  // Posture: chosen per session (e.g. in a code workspace).
  coding: Object.freeze({
    description: "Coding work: files, terminal, web, skills, browser, vision, todo, memory, delegation",
    tools: CODING_TOOLS,
    includes: list(),
    posture: true
  }),

  // Front-end presets.
  "hermes-acp": leaf(
    "Editor integrations (ACP): the coding tools without clarify or the GUI terminal pane",
    CODING_TOOLS.filter((t) => t !== "clarify" && t !== "read_terminal" && t !== "close_terminal")
  ),
  "hermes-api-server": leaf(
    "HTTP API server: core tools minus interactive and UI-only ones",
    coreWithout(["text_to_speech", "clarify", "computer_use", "read_terminal", "close_terminal", ...KANBAN_TOOLS])
  ),
  "hermes-cli": bundle("Interactive CLI: every core tool"),
  "hermes-cron": bundle("Scheduled jobs: the CLI's core tools"),
  "hermes-telegram": bundle("Telegram bot: core tools"),
  "hermes-discord": bundle("Discord bot: core tools plus Discord tools", ["discord", "discord_admin"]),
  "hermes-whatsapp": bundle("WhatsApp bot: core tools"),
  "hermes-slack": bundle("Slack bot: core tools"),
  "hermes-signal": bundle("Signal bot: core tools"),
  "hermes-bluebubbles": bundle("iMessage via BlueBubbles: core tools"),
  "hermes-homeassistant": bundle("Home Assistant bot: core tools"),
  "hermes-email": bundle("Email (IMAP/SMTP) bot: core tools"),
  "hermes-mattermost": bundle("Mattermost bot: core tools"),
  "hermes-matrix": bundle("Matrix bot: core tools"),
  "hermes-dingtalk": bundle("DingTalk bot: core tools"),
  "hermes-feishu": bundle("Feishu/Lark bot: core tools plus document tools", ["feishu_doc_read", ...FEISHU_DRIVE_TOOLS]),
  "hermes-weixin": bundle("Weixin (WeChat) bot: core tools"),
  "hermes-qqbot": bundle("QQ bot: core tools"),
  "hermes-wecom": bundle("WeCom bot: core tools"),
  "hermes-wecom-callback": bundle("WeCom callback app: core tools"),
  "hermes-yuanbao": bundle("Yuanbao bot: core tools plus Yuanbao tools", YUANBAO_TOOLS),
  "hermes-sms": bundle("SMS (Twilio) bot: core tools"),
  "hermes-webhook": leaf("Incoming webhooks: read-only web and vision tools plus clarify", HERMES_WEBHOOK_SAFE_TOOLS),
  "hermes-gateway": composite("Messaging gateway: every platform bundle", [], [
    "hermes-telegram", "hermes-discord", "hermes-whatsapp", "hermes-slack", "hermes-signal",
    "hermes-bluebubbles", "hermes-homeassistant", "hermes-email", "hermes-sms", "hermes-mattermost",
    "hermes-matrix", "hermes-dingtalk", "hermes-feishu", "hermes-wecom", "hermes-wecom-callback",
    "hermes-weixin", "hermes-qqbot", "hermes-webhook", "hermes-yuanbao"
  ])
})

/**
 * Old `*_tools` names, accepted in enabled/disabled lists only after a name
 * fails validation. They are not toolsets: `validateToolset` rejects them.
 */
export const LEGACY_TOOLSETS: Readonly<Record<string, ReadonlyArray<string>>> = Object.freeze({
  web_tools: list("web_search", "web_extract"),
  terminal_tools: list("terminal"),
  vision_tools: list("vision_analyze"),
  image_tools: list("image_generate"),
  skills_tools: list("skills_list", "skill_view", "skill_manage"),
  browser_tools: list(
    "browser_navigate", "browser_snapshot", "browser_click", "browser_type", "browser_scroll",
    "browser_back", "browser_press", "browser_get_images", "browser_vision", "browser_console"
  ),
  cronjob_tools: list("cronjob"),
  file_tools: list("read_file", "write_file", "patch", "search_files"),
  tts_tools: list("text_to_speech")
})
