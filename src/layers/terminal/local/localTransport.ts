/**
 * The local backend's transport: `bash` on this machine as the runtime's
 * user, seeing the host's own files (`../hostTransport.ts`). With a home
 * guard (`terminal.protect_home`) each bash is started inside its namespace,
 * where the runtime's home is read-only (`homeGuard.ts`).
 */
import { Effect } from "effect"
import type { Scope } from "effect"
import type { TerminalError } from "../../../services/TerminalBackend.js"
import { makeHostTransport } from "../hostTransport.js"
import type { Transport } from "../transport.js"
import type { HomeGuard } from "./homeGuard.js"

export interface LocalTransportConfig {
  /** Starting directory. */
  readonly home: string
  /** The environment's state and report directories (`../runState.ts`). */
  readonly dirs: { readonly state: string; readonly out: string }
  readonly env: Readonly<Record<string, string>>
  /** null: the home stays writable. */
  readonly guard: HomeGuard | null
  /** `terminal.local_persistent`: one long-lived bash for foreground commands (inside the guard's namespace). */
  readonly persistent: boolean
}

export const makeLocalTransport = ({ dirs, env, guard, home, persistent }: LocalTransportConfig): Effect.Effect<Transport, TerminalError, Scope.Scope> =>
  makeHostTransport({
    home,
    stateDir: dirs.state,
    outDir: dirs.out,
    env,
    launch: (args) => (guard === null ? Effect.succeed({ file: "bash", args }) : guard.launch(args)),
    hostPath: (path) => path,
    hostPathIsIdentity: true,
    writeDenied: () => undefined,
    persistent
  })
