/**
 * Session modes of the ACP server: how much file editing is asked about.
 * As in Hermes' adapter: `default` asks before every edit; `accept_edits`
 * lets edits inside the session's folder (and the temp folder) through;
 * `dont_ask` lets every edit through. In every mode, edits to credentials
 * and repository internals are asked about, and planted-file protection
 * (shell start-up files, git hooks …) asks as it does everywhere.
 */
import { tmpdir } from "node:os"
import { basename, isAbsolute, relative, resolve, sep } from "node:path"
import type { SessionModeState } from "@agentclientprotocol/sdk/unstable"

export type EditMode = "default" | "accept_edits" | "dont_ask"

export const EDIT_MODES: ReadonlyArray<{ readonly id: EditMode; readonly name: string; readonly description: string }> = [
  { id: "default", name: "Default", description: "Ask before every file edit" },
  { id: "accept_edits", name: "Accept Edits", description: "Edit files in the session's folder without asking" },
  { id: "dont_ask", name: "Don't Ask", description: "Edit files without asking (credentials and .git still ask)" }
]

export const isEditMode = (id: string): id is EditMode => EDIT_MODES.some((m) => m.id === id)

export const modeState = (current: EditMode): SessionModeState => ({
  currentModeId: current,
  availableModes: EDIT_MODES.map((m) => ({ id: m.id, name: m.name, description: m.description }))
})

/** The key under which the ACP runtime asks about an ordinary edit (see editApproval.ts). */
export const ACP_EDIT_KEY = "acp:edit"

const SENSITIVE_DIRS = new Set([".git", ".ssh", ".gnupg", ".aws"])
const SENSITIVE_NAMES = new Set(["id_rsa", "id_ed25519", "id_ecdsa", "id_dsa", "authorized_keys", ".netrc", ".npmrc", ".pypirc"])

/** Credentials and repository internals: asked about in every mode. */
export const isSensitivePath = (path: string): boolean => {
  const parts = path.split(/[\\/]+/)
  if (parts.slice(0, -1).some((p) => SENSITIVE_DIRS.has(p))) return true
  const name = basename(path)
  return SENSITIVE_DIRS.has(name) || SENSITIVE_NAMES.has(name) || name === ".env" || name.startsWith(".env.")
}

const within = (root: string, path: string) => {
  const rel = relative(resolve(root), resolve(path))
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel))
}

/** Whether an ordinary edit of `path` (absolute, symlinks resolved) goes through without asking in `mode`. */
export const editAllowed = (mode: EditMode, path: string, roots: ReadonlyArray<string>): boolean => {
  if (isSensitivePath(path)) return false
  if (mode === "dont_ask") return true
  if (mode === "accept_edits") return [...roots, tmpdir()].some((root) => within(root, path))
  return false
}
