/**
 * Approval: the one gate every command passes before it reaches a shell
 * (terminal foreground, background, PTY, process write/submit, execute_code,
 * every backend). Fail-closed: with nobody to ask, a dangerous command is denied.
 */
import { Context, Schema } from "effect"
import type { Effect, Option } from "effect"
import type { ToolCallContext } from "./ToolContext.js"

/** Pure detection verdict for one command (Hermes' shape and rule descriptions). */
export interface Detection {
  readonly dangerous: boolean
  /** Rule description when dangerous: also the key stored in `command_allowlist`. */
  readonly description: string | null
  readonly hardline: boolean
  readonly hardline_description: string | null
}

/** How the command would reach the shell; recorded in the audit log. */
export type CommandPath = "foreground" | "background" | "pty" | "process-write" | "execute_code"

/** How the text is read: as shell (the default) or as source code for an interpreter (a REPL's input, a script). */
export type CodeLanguage = "shell" | "python" | "node" | "perl" | "ruby" | "php"

/** A console with a shell escape, whose commands (typed or read) are judged for it: sqlite3, gdb, psql, mysql, the `!cmd` lines of sftp, ftp and mail (bang-lines), and the `~` escapes of a message mail composes. */
export type ConsoleName = "sqlite3" | "gdb" | "psql" | "mysql" | "bang-lines" | "mail-compose"

/**
 * An editor reading typed text: ed's commands, ex commands (`ex`, `vim -e`), or vim's keys on a terminal, where `:`
 * opens a command line, or a pager's keys (less, more), where `!` and `|` run shell text. Judged like a console: its `!`
 * commands are shell.
 */
export type EditorReader = "ed-commands" | "ex-commands" | "vim-keys" | "pager-keys"

/** What reads text typed into a process: a shell or interpreter, a console, an editor, or a language nothing here reads. */
export type InputReader = CodeLanguage | ConsoleName | EditorReader | "opaque"

/**
 * What approval may look at in the task's environment to judge a command. Every
 * member is lazy: it is read only when the command needs it (a command word held
 * in a variable, a local script it runs, a path that may lead into the runtime's home).
 */
/** A path's modification time in ms; "missing" when nothing is there, "unknown" when the backend cannot tell. */
export type ModifiedAt = number | "missing" | "unknown"

export interface CommandSurroundings {
  /** The directory the command starts in. */
  readonly cwd: Effect.Effect<string>
  /** Variables the command starts with (the task's exports). */
  readonly variables: Effect.Effect<Readonly<Record<string, string>>>
  /**
   * The functions the command's shell already holds when it is a persistent shell that earlier commands ran
   * in (it keeps their plain variables too, so a name not exported may hold anything); undefined otherwise.
   */
  readonly shellFunctions?: Effect.Effect<ReadonlyArray<string> | undefined> | undefined
  /** A file's text as the command would read it (`..` climbing from where a symlink points); none when absent, not a regular file, or larger than `maxBytes`. */
  readonly readText: (path: string, maxBytes: number) => Effect.Effect<Option.Option<string>>
  /**
   * The first `length` bytes of a regular file (fewer when it is shorter); none when absent or unreadable. Without
   * it, a file whose header decides what runs (a Python bytecode cache) counts as unreadable.
   */
  readonly readHead?: ((path: string, length: number) => Effect.Effect<Option.Option<Uint8Array>>) | undefined
  /** The path with symlinks resolved, as the command would see it (never fails). */
  readonly realPath: (path: string) => Effect.Effect<string>
  /**
   * A directory's entries as the command would see them (symlinks not followed; empty when unreadable). Without
   * it, the test files a runner finds by walking directories (`pytest`) are not read.
   */
  readonly listDir?: ((path: string) => Effect.Effect<ReadonlyArray<{ readonly name: string; readonly type: "file" | "directory" | "symlink" | "other" }>>) | undefined
  /**
   * When the path last changed (ms since the epoch; a folder changes when a name is added to it or removed), following
   * symlinks. Without it, a folder the judge keeps a listing of across requests (installed packages) is listed anew.
   */
  readonly modifiedAt?: ((path: string) => Effect.Effect<ModifiedAt>) | undefined
  /** What the path is, as the command would see it, following symlinks (never fails: "missing" when unknown). */
  readonly fileKind: (path: string) => Effect.Effect<"file" | "directory" | "other" | "missing">
  /**
   * How many names (hard links) the regular file at the path has, following symlinks; 1 when it is missing, not a
   * regular file, or the backend cannot tell. A write through one name changes the file under every other.
   */
  readonly linkCount?: ((path: string) => Effect.Effect<number>) | undefined
  /** Commands see the host's own filesystem (local, pty; not ssh/container/sandbox-with-private-root). */
  readonly sharesHostFiles: boolean
  /**
   * The runtime's own process, where commands share its process table (the local backend): a signal, a debugger or
   * a write through /proc aimed at it is judged as one aimed at the agent itself.
   */
  readonly runtimeProcess?: RuntimeProcess | undefined
}

/** How commands on this machine can name the runtime's process. */
export interface RuntimeProcess {
  /** Its pid and its parent's (the program that started it: a shell, an editor). */
  readonly pids: ReadonlyArray<number>
  /** Its process names as `pkill`/`killall` match them (`/proc/<pid>/comm`, the executable's name). */
  readonly names: ReadonlyArray<string>
  /** Its command line as `pkill -f` matches it (arguments joined by spaces). */
  readonly commandLine: string
}

export interface CommandApprovalRequest {
  readonly command: string
  readonly context: ToolCallContext
  /** The backend's kind (local, sandbox, ssh, …) and whether it is fully isolated from the host. */
  readonly backend: { readonly kind: string; readonly isolated: boolean }
  readonly path: CommandPath
  /**
   * Default "shell". Text typed into an interpreter (python3 -i, node) is judged by that language's rules, into a
   * console (sqlite3, gdb) for its shell escapes; into a language nothing here reads ("opaque") it needs approval.
   */
  readonly language?: InputReader | undefined
  /** Without it, anything that would need a look at the environment is judged as unknown (fail-closed). */
  readonly surroundings?: CommandSurroundings | undefined
  /**
   * What the caller could not settle about how the text will be read (typed into a shell whose working directory
   * is not known, or whose keys were rebound): the text needs approval under this description, whatever it says.
   */
  readonly uncertain?: string | undefined
}

/** A file tool (write_file, patch) is about to write this path. */
export interface FileWriteApprovalRequest {
  /** Absolute path as the environment sees it, symlinks resolved. */
  readonly path: string
  readonly tool: string
  readonly context: ToolCallContext
  readonly backend: { readonly kind: string; readonly isolated: boolean }
}

export type DecidedBy =
  | "not-dangerous"
  | "isolation"
  | "mode-off"
  | "allowlist"
  | "rule"
  | "session"
  | "smart"
  | "human"
  | "non-interactive"

export interface ApprovalGranted {
  readonly decidedBy: DecidedBy
  /** The rule description or allowlist key that applied, if any. */
  readonly key?: string | undefined
}

/** The command must not run. The message tells the model not to retry. */
export class CommandDenied extends Schema.TaggedError<CommandDenied>()("CommandDenied", {
  command: Schema.String,
  /** Rule description (approval key), or null for a policy denial without one. */
  description: Schema.NullOr(Schema.String),
  hardline: Schema.Boolean,
  decidedBy: Schema.String,
  reason: Schema.String
}) {
  override get message(): string {
    return this.reason
  }
}

export interface ApprovalService {
  readonly detect: (command: string) => Detection
  /** Decide for one command; succeeds only when it may run. */
  readonly check: (request: CommandApprovalRequest) => Effect.Effect<ApprovalGranted, CommandDenied>
  /**
   * Decide for one file write by a file tool. Writes to files other programs run
   * implicitly (shell start-up files, git config and hooks, .envrc, ssh config,
   * crontabs, the runtime's own home) go through the same flow as a dangerous command.
   */
  readonly checkFileWrite: (request: FileWriteApprovalRequest) => Effect.Effect<ApprovalGranted, CommandDenied>
}

export class Approval extends Context.Tag("hermes-effect/Approval")<Approval, ApprovalService>() {}
