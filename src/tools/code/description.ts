/** The execute_code description: what a script can import, and the limits it runs under. */
import { CODE_EXECUTION_LIMITS } from "../../services/CodeExecution.js"

const SIGNATURES: Readonly<Record<string, string>> = {
  web_search: "web_search(query, limit=5)",
  web_extract: "web_extract(urls, char_limit=None)",
  read_file: "read_file(path, offset=1, limit=500)",
  write_file: "write_file(path, content)",
  search_files: "search_files(pattern, target=\"content\", path=\".\", file_glob=None, limit=50, offset=0, output_mode=\"content\", context=0)",
  patch: "patch(path=None, old_string=None, new_string=None, replace_all=False, mode=\"replace\", patch=None)",
  terminal: "terminal(command, timeout=None, workdir=None)"
}

export const scriptToolsDescription = (tools: ReadonlyArray<string>): string => {
  const listed = tools.flatMap((tool) => SIGNATURES[tool] === undefined ? [] : [`  ${SIGNATURES[tool]}`])
  return [
    "Run a Python script that calls tools directly, when a task needs several tool calls with processing in between " +
    "(search then read the hits, loop over files, filter large results). Only what the script prints comes back, so intermediate results never fill the context. " +
    "Use ordinary tool calls for a single step.",
    "",
    "`from hermes_tools import ...` offers:",
    ...(listed.length === 0 ? ["  (no tools are enabled for scripts in this session)"] : listed),
    "Each returns the tool's JSON result as a dict (terminal: {\"output\", \"exit_code\", \"error\"}; terminal runs in the foreground only). " +
    "Also json_parse(text), shell_quote(value) and retry(fn, max_attempts=3, delay=2).",
    "",
    "The script runs with python3 in this task's environment, in the session's working directory. " +
    `Limits: ${CODE_EXECUTION_LIMITS.timeoutSeconds / 60}-minute timeout, ${CODE_EXECUTION_LIMITS.maxStdoutBytes / 1000}KB of stdout (head and tail kept), ` +
    `${CODE_EXECUTION_LIMITS.maxToolCalls} tool calls per script. ` +
    "Approval reads the script before it starts, as it would for `python3 script.py` in the terminal (code that deletes files or runs programs needs it), " +
    "and each terminal command the script sends is checked like a direct call."
  ].join("\n")
}
