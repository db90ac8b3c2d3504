/**
 * The seam between the environment engine (`execEnvironment.ts`) and a
 * backend: how to run an argv on the target. A backend that can say this
 * (ssh over a master connection, `docker|podman exec`) gets commands, cwd and
 * exports carried over, kills, and file access from the engine for free.
 */

/** A program and its arguments. */
export interface Invocation {
  readonly file: string
  readonly args: ReadonlyArray<string>
}

export interface Transport {
  /** How to run `argv` on the target. `done` is called once that client has exited. */
  readonly open: (
    argv: ReadonlyArray<string>,
    options: { readonly tty: boolean; readonly stdin: boolean }
  ) => Invocation & { readonly done: () => void }
  /** Environment of the local client processes. */
  readonly env: Readonly<Record<string, string>>
  /** Why a client's exit is a transport failure (not the command's), or undefined. */
  readonly failure: (code: number, diagnostics: string) => string | undefined
}
