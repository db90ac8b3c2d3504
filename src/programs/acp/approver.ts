/**
 * The ACP server's Approver: each prompt installs an asker for its session
 * (a `session/request_permission` to that session's client) and removes it
 * when the prompt ends, so concurrent sessions never see each other's
 * questions. With no asker for the calling session the answer is no.
 */
import { Effect } from "effect"
import { ApproverCallback } from "../../layers/approval/approvers/ApproverCallback.js"
import type { Askers } from "./server.js"

export const ApproverAcp = (askers: Askers) =>
  ApproverCallback((prompt) => {
    const ask = prompt.context.sessionId === undefined ? undefined : askers.get(prompt.context.sessionId)
    return ask === undefined ? Effect.succeed("deny" as const) : ask(prompt)
  })
