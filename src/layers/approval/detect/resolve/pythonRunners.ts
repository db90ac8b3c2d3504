/**
 * Modules that, given to `python -m`, run a script or module named in their
 * own arguments: the profilers and tracer (`-m cProfile x.py`), the debugger,
 * doctest (which imports the files it checks and runs their examples),
 * unittest with test names, coverage and IPython. What they run is read like
 * `python3 x.py` would be. unittest's `discover` walks directories, which the
 * gate cannot list (as for pytest). (`-m pip` is read in pipBuilds.ts.)
 */
import { lookupTable } from "../../../../lib/lookupTable.js"

export interface PythonRun {
  /** Script files it runs (paths as written). */
  readonly files: ReadonlyArray<string>
  /** Modules it imports or runs by name. */
  readonly modules: ReadonlyArray<string>
}

const NONE: PythonRun = { files: [], modules: [] }

/** Options taking the next word, per runner (a `--long=value` needs no table). */
const VALUED: Readonly<Record<string, ReadonlySet<string>>> = lookupTable({
  cProfile: new Set(["-o", "-s"]),
  profile: new Set(["-o", "-s"]),
  trace: new Set(["-f", "--file", "-C", "--coverdir", "--ignore-module", "--ignore-dir"]),
  pdb: new Set(["-c", "--command"]),
  IPython: new Set(["-c", "-m", "--profile", "--ipython-dir"]),
  coverage: new Set(["--rcfile", "--source", "--omit", "--include", "--data-file", "--context", "--concurrency", "--debug"])
})

/** The first operand (a script, or a module after `-m`/`--module`), past the runner's options. */
const firstTarget = (runner: string, args: ReadonlyArray<string>): PythonRun => {
  const valued = VALUED[runner] ?? new Set<string>()
  let asModule = false
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? ""
    if (a === "-m") {
      const mod = args[i + 1]
      return mod === undefined ? NONE : { files: [], modules: [mod] }
    }
    if (a === "--module") asModule = true
    else if (a === "--") continue
    else if (a.startsWith("-")) {
      if (valued.has(a)) i++
    } else return asModule ? { files: [], modules: [a] } : { files: [a], modules: [] }
  }
  return NONE
}

/** What runner module `mod`, run by `python -m mod args…`, runs from the project. */
export const pythonRunnerTargets = (mod: string, args: ReadonlyArray<string>): PythonRun => {
  switch (mod) {
    case "cProfile":
    case "profile":
    case "trace":
    case "pdb":
    case "IPython":
      return firstTarget(mod, args)
    case "coverage":
      return args[0] === "run" ? firstTarget("coverage", args.slice(1)) : NONE
    case "doctest":
      return { files: args.filter((a, i) => !a.startsWith("-") && args[i - 1] !== "-o"), modules: [] }
    case "unittest": {
      const names = args.filter((a) => !a.startsWith("-"))
      if (names[0] === "discover") return NONE
      return {
        files: names.filter((n) => n.endsWith(".py") || n.includes("/")),
        modules: names.filter((n) => !n.endsWith(".py") && !n.includes("/"))
      }
    }
    default:
      return NONE
  }
}
