/**
 * Programs whose typed input is a language REPL's, under a name of their own (red team 8): read as shell, which is
 * the cautious way for data, `import shutil; shutil.rmtree(d)` typed into `flask shell` or `FileUtils.rm_rf d` into
 * `rails c` passed. Framework shells read their language (Django's and Flask's may be IPython: see replEscapes.ts);
 * REPLs of languages nothing here reads, and full-screen programs whose keys run commands (`!cmd` in ranger, w3m,
 * mutt, tig, vifm), read what nothing here judges: any input asks.
 */
import type { InputReader } from "../../services/Approval.js"

/** Full-screen programs and REPLs of languages the gate does not read. */
const OPAQUE = new Set([
  "utop", "sbt", "lein", "swift", "duckdb", "ranger", "vifm", "mc", "nnn", "lf", "tig", "lazygit", "mutt", "neomutt",
  "w3m", "lynx", "elinks", "links", "ts-node", "tsx", "fsharpi", "coffee", "ipdb3"
])

const RAILS_CONSOLE = new Set(["console", "c", "dbconsole", "db"])

/** The readers of a REPL known under another name than its language's, or undefined. */
export const replUnderAnotherName = (name: string, args: ReadonlyArray<string>): ReadonlyArray<InputReader> | undefined => {
  const first = args[0]
  if (OPAQUE.has(name) || (name === "dotnet" && first === "fsi")) return ["opaque"]
  if (name === "pry" || name === "racksh") return ["ruby"]
  if (name === "rails" && first !== undefined && RAILS_CONSOLE.has(first)) return first.startsWith("d") ? ["opaque"] : ["ruby"]
  if (name === "bundle" && first === "console") return ["ruby"]
  if (name === "bundle" && first === "exec" && args[1] !== undefined) return replUnderAnotherName(args[1].split("/").pop() ?? "", args.slice(2))
  if (name === "flask" && first === "shell") return ["python"]
  if ((name === "django-admin" || name === "manage.py") && (first === "shell" || first === "shell_plus")) return ["python"]
  if (name === "manage.py" || name === "django-admin") return first === "dbshell" ? ["opaque"] : undefined
  if (name === "mongosh" || name === "mongo") return ["node"]
  return undefined
}
