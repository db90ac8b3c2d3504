/**
 * `hermes-effect approval check`: detection only (no prompt, no config change).
 * `hermes-effect approvals list | allow <key> | revoke <key>`: the permanent allowlist.
 */
import { homedir } from "node:os"
import { resolve } from "node:path"
import { Args, Command, Options } from "@effect/cli"
import { Data, Effect, Layer, Option } from "effect"
import { ApprovalAudit } from "../../services/ApprovalAudit.js"
import { Config } from "../../services/Config.js"
import { operatorOnly } from "../operatorOnly.js"
import { jsonOption, table, writeOut } from "./shared.js"
import { configLayer, stateDatabaseLayer } from "./lazy.js"
import { readStdinText } from "./stdinText.js"

export class ApprovalInputError extends Data.TaggedError("ApprovalInputError")<{ readonly message: string }> {}

/** stdin lines: a JSON string or {"command": "..."} (commands may contain newlines). */
const commandsFromStdin = (text: string) =>
  Effect.forEach(
    text.split("\n").map((l, i) => [l.trim(), i + 1] as const).filter(([l]) => l.length > 0),
    ([line, n]) =>
      Effect.try({
        try: () => {
          const value: unknown = JSON.parse(line)
          if (typeof value === "string") return value
          if (value !== null && typeof value === "object" && typeof (value as { command?: unknown }).command === "string") {
            return (value as { command: string }).command
          }
          throw new Error("expected a JSON string or an object with a \"command\" string")
        },
        catch: (e) => new ApprovalInputError({ message: `stdin line ${n}: ${e instanceof Error ? e.message : String(e)}` })
      })
  )

const check = Command.make(
  "check",
  {
    json: jsonOption,
    cwd: Options.text("cwd").pipe(
      Options.withDescription("Judge relative paths as if the command started here (default: the current directory)"),
      Options.optional
    ),
    commands: Args.text({ name: "command" }).pipe(Args.withDescription("Commands to check (else JSON lines on stdin)"), Args.repeated)
  },
  (opts) =>
    Effect.gen(function*() {
      const commands = opts.commands.length > 0
        ? opts.commands
        : yield* commandsFromStdin(yield* readStdinText((message) => new ApprovalInputError({ message: `cannot read commands from stdin: ${message}` })))
      const [{ detectCommand }, { resolveHome }] = yield* Effect.promise(() =>
        Promise.all([import("../../layers/approval/detect/detect.js"), import("../../layers/ConfigLive.js")])
      )
      // Where the command would start decides what a relative delete reaches (`rm -rf *` in `/`).
      const cwd = resolve(Option.getOrElse(opts.cwd, () => process.cwd()))
      const env = { home: homedir(), hermesHome: resolveHome().root, cwd }
      const rows = commands.map((command) => ({ command, ...detectCommand(command, env) }))
      if (opts.json) return yield* writeOut(rows.map((r) => JSON.stringify(r)).join("\n"))
      yield* writeOut(table([
        ["VERDICT", "RULE", "COMMAND"],
        ...rows.map((r) => [
          r.hardline ? "hardline" : r.dangerous ? "dangerous" : "ok",
          r.hardline_description ?? r.description ?? "-",
          r.command.replace(/\n/g, "⏎")
        ])
      ]))
    })
).pipe(Command.withDescription("Detect dangerous and hardline commands (arguments, or JSON lines on stdin); no prompt, no config change"))

export const approvalCommand = Command.make("approval").pipe(
  Command.withDescription("Dangerous-command detection"),
  Command.withSubcommands([check])
)

const configOnly = <A, E>(program: Effect.Effect<A, E, Config | ApprovalAudit>) =>
  Effect.provide(
    program,
    Layer.unwrapEffect(Effect.promise(() => import("../../layers/approval/audit/ApprovalAuditSql.js")).pipe(Effect.map((m) => m.ApprovalAuditSql))).pipe(
      Layer.provide(stateDatabaseLayer),
      Layer.provideMerge(configLayer)
    )
  )

const list = Command.make("list", { json: jsonOption }, (opts) =>
  configOnly(Effect.gen(function*() {
    const config = yield* Config
    const cfg = yield* config.current
    const allowlist = cfg.command_allowlist
    const rules = cfg.approvals.rules
    const recent = yield* Effect.flatMap(ApprovalAudit, (a) => a.recent(10))
    if (opts.json) return yield* writeOut(JSON.stringify({ command_allowlist: allowlist, rules, recent }, null, 2))
    const ruleRows = rules.map((r) => [r.action, r.prefix !== undefined ? `prefix:${r.prefix}` : r.glob !== undefined ? `glob:${r.glob}` : `regex:${r.regex ?? ""}`, r.reason ?? ""])
    yield* writeOut([
      `command_allowlist (${config.home.configFile}):`,
      ...(allowlist.length === 0 ? ["  (empty)"] : allowlist.map((k) => `  ${k}`)),
      "",
      "rules (strictest match wins):",
      ruleRows.length === 0 ? "  (none)" : table([["ACTION", "MATCH", "REASON"], ...ruleRows]).replace(/^/gm, "  "),
      "",
      "recent decisions:",
      ...(recent.length === 0 ? ["  (none)"] : recent.map((r) => `  ${r.at}  ${r.outcome.padEnd(7)} ${r.decidedBy.padEnd(15)} ${r.command.slice(0, 60)}`))
    ].join("\n"))
  }))
).pipe(Command.withDescription("Show the permanent allowlist, the policy rules and recent decisions"))

const keyArg = Args.text({ name: "key" }).pipe(Args.withDescription("A rule description (e.g. 'recursive delete'), a command, or a glob"))

const allow = Command.make("allow", { key: keyArg }, operatorOnly("approvals allow", ({ key }) =>
  configOnly(Effect.gen(function*() {
    const config = yield* Config
    const current = (yield* config.current).command_allowlist
    if (current.includes(key)) return yield* writeOut(`already allowed: ${key}`)
    yield* config.set(["command_allowlist"], [...current, key])
    yield* writeOut(`allowed: ${key}`)
  }))
)).pipe(Command.withDescription("Add a key to command_allowlist in config.yaml (comments kept); refused inside a tool call"))

const revoke = Command.make("revoke", { key: keyArg }, operatorOnly("approvals revoke", ({ key }) =>
  configOnly(Effect.gen(function*() {
    const config = yield* Config
    const current = (yield* config.current).command_allowlist
    if (!current.includes(key)) return yield* Effect.fail(new ApprovalInputError({ message: `not in command_allowlist: ${key}` }))
    yield* config.set(["command_allowlist"], current.filter((k) => k !== key))
    yield* writeOut(`revoked: ${key}`)
  }))
)).pipe(Command.withDescription("Remove a key from command_allowlist in config.yaml; refused inside a tool call"))

export const approvalsCommand = Command.make("approvals").pipe(
  Command.withDescription("The permanent command allowlist and approval rules"),
  Command.withSubcommands([list, allow, revoke])
)
