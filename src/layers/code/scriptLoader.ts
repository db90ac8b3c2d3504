/**
 * How execute_code starts its script (red team 8). The script and `hermes_tools.py` are written to a run directory
 * the task's own processes can write too, and Approval judges `python3 <dir>/script.py` by reading them there; had
 * python then opened the files, a background job could swap the helper or the script between the judgement and the
 * run. So python reads neither file: this fixed loader takes both texts, exactly as the runtime wrote and Approval
 * read them, from its standard input, and runs them as `python3 script.py` would (same `__main__`, `sys.argv`,
 * `sys.path[0]`, file names in tracebacks; standard input then empty, as before).
 */
import { shellQuote } from "../terminal/shellScript.js"

const LOADER = [
  "import json, os, sys, types",
  "src = json.loads(sys.stdin.read())",
  "sys.stdin = open(os.devnull)",
  "script, helper = sys.argv[1], sys.argv[2]",
  "sys.argv = [script]",
  "if not getattr(sys.flags, \"safe_path\", False): sys.path[0] = os.path.dirname(script)",
  "module = types.ModuleType(\"hermes_tools\")",
  "module.__file__ = helper",
  "exec(compile(src[\"helper\"], helper, \"exec\"), module.__dict__)",
  "sys.modules[\"hermes_tools\"] = module",
  "try:",
  "    exec(compile(src[\"code\"], script, \"exec\"), {\"__name__\": \"__main__\", \"__file__\": script, \"__builtins__\": __builtins__})",
  "except SystemExit:",
  "    raise",
  // The traceback python would print, without the loader's own frame.
  "except BaseException as error:",
  "    import traceback",
  "    traceback.print_exception(type(error), error, error.__traceback__.tb_next)",
  "    sys.exit(130 if isinstance(error, KeyboardInterrupt) else 1)"
].join("\n")

export interface ScriptLaunch {
  /** What Approval judges: the script run by path, beside its helper. */
  readonly judged: string
  /** What runs: the loader, handed `stdin`. */
  readonly runs: string
  readonly stdin: string
}

export const scriptLaunch = (script: string, helper: string, stderrFile: string, code: string, helperSource: string): ScriptLaunch => ({
  judged: `python3 ${shellQuote(script)} 2>${shellQuote(stderrFile)}`,
  runs: `python3 -c ${shellQuote(LOADER)} ${shellQuote(script)} ${shellQuote(helper)} 2>${shellQuote(stderrFile)}`,
  stdin: JSON.stringify({ code, helper: helperSource })
})
