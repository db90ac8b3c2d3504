/**
 * Consoles with a shell escape (sqlite3, gdb, psql, mysql), interpreters of
 * languages the gate does not read, and compiler options that run another
 * program: the escape asks wherever the console takes its commands (inline,
 * a file, standard input), and plain use stays quiet.
 */
import { describe, expect, it } from "@effect/vitest"
import { consoleCommands, consoleScripts, consoleText } from "../../../src/layers/approval/detect/consoleCommands.js"
import type { DetectionEnv } from "../../../src/layers/approval/detect/detect.js"
import { detectCommand } from "../../../src/layers/approval/detect/detect.js"
import { D } from "../../../src/layers/approval/detect/descriptions.js"
import { readsStdinCodeToo } from "../../../src/layers/approval/detect/resolve/codeSources.js"
import { codeSearchDirs, localImportCandidates } from "../../../src/layers/approval/detect/code/localImports.js"
import { pythonRunnerTargets } from "../../../src/layers/approval/detect/resolve/pythonRunners.js"
import { pytestConfigPlugins } from "../../../src/layers/approval/policy/projectRunners.js"

const ENV: DetectionEnv = { home: "/home/tester", hermesHome: "/home/tester/.hermes", variables: { PATH: "/usr/bin:/bin" } }
const verdict = (command: string) => [command, detectCommand(command, ENV).description]
const quiet = (command: string) => [command, detectCommand(command, ENV).dangerous]

describe("console command text", () => {
  it("sqlite3: shell escapes, other files and pipes run; files it writes are writes", () => {
    expect(consoleText("sqlite3", "select 1;\n.shell rm -rf /x\n")).toEqual({ runs: true, shell: ["rm -rf /x"], writes: [] })
    for (const text of [".system ls", ".sh ls", ".read other.sql", ".load ./e.so", ".once '|sh'", ".output |sh", ".once -x", ".import '|cat f' t", "select load_extension('./e.so');", "select edit('x', 'vim');"]) {
      expect([text, consoleText("sqlite3", text).runs]).toEqual([text, true])
    }
    expect(consoleText("sqlite3", ".output ~/.bashrc\nselect 'x';")).toEqual({ runs: false, shell: [], writes: ["~/.bashrc"] })
    for (const text of ["create table t(a);", ".tables", ".schema t", ".headers on", ".mode csv", ".import data.csv t", ".show", "select 'shell';"]) {
      expect([text, consoleText("sqlite3", text)]).toEqual([text, { runs: false, shell: [], writes: [] }])
    }
  })

  it("gdb: shell, pipe, python and sourcing run; run's arguments go through the shell; the program is judged", () => {
    expect(consoleText("gdb", "shell rm -rf /x").shell).toEqual(["rm -rf /x"])
    expect(consoleText("gdb", "!ls").shell).toEqual(["ls"])
    for (const text of ["python import os", "py print(1)", "pipe bt | sh", "| bt | sh", "source x.gdb", "call system(\"ls\")", "set exec-wrapper ./w", "set env LD_PRELOAD ./e.so", "target remote | ./x"]) {
      expect([text, consoleText("gdb", text).runs]).toEqual([text, true])
    }
    expect(consoleText("gdb", "run $(./x)").shell).toEqual([": $(./x)"])
    expect(consoleText("gdb", "file ./prog").shell).toEqual(["./prog"])
    expect(consoleText("gdb", "set logging file ~/.profile").writes).toEqual(["~/.profile"])
    for (const text of ["bt", "info registers", "break main", "run", "continue", "print x", "set pagination off", "x/4x $sp"]) {
      expect([text, consoleText("gdb", text).runs]).toEqual([text, false])
    }
  })

  it("psql and mysql: their shell escapes, output pipes and included files", () => {
    expect(consoleText("psql", "\\! rm -rf /x").shell).toEqual(["rm -rf /x"])
    for (const text of ["\\o |sh", "select 1 \\g |sh", "\\i other.sql", "\\copy t from program 'ls'", "copy t to program 'sh'"]) {
      expect([text, consoleText("psql", text).runs]).toEqual([text, true])
    }
    expect(consoleText("psql", "\\o ~/.bashrc").writes).toEqual(["~/.bashrc"])
    expect(consoleText("psql", "select * from t; \\dt").runs).toBe(false)
    expect(consoleText("mysql", "system rm -rf /x").shell).toEqual(["rm -rf /x"])
    for (const text of ["\\! ls", "source x.sql", "pager less", "select load_file('/etc/passwd')"]) {
      expect([text, consoleText("mysql", text).runs]).toEqual([text, true])
    }
    expect(consoleText("mysql", "show tables;").runs).toBe(false)
  })

  it("where each console takes its commands", () => {
    expect(consoleScripts("sqlite3", ["-init", "i.sql", "db"])).toEqual(["i.sql"])
    expect(consoleScripts("gdb", ["-batch", "-x", "a.gdb", "--command=b.gdb", "-ix", "c.gdb", "./prog"])).toEqual(["a.gdb", "b.gdb", "c.gdb"])
    expect(consoleScripts("psql", ["-f", "s.sql", "-d", "db"])).toEqual(["s.sql"])
    expect(consoleCommands("sqlite3", ["db", ".shell ls"], null).runs).toBe(true)
    expect(consoleCommands("sqlite3", ["-cmd", ".system ls", "db"], null).runs).toBe(true)
    expect(consoleCommands("sqlite3", ["db"], ".shell ls").runs).toBe(true)
    // SQL given as arguments: stdin is not read.
    expect(consoleCommands("sqlite3", ["db", "select 1"], ".shell ls").runs).toBe(false)
    expect(consoleCommands("psql", ["-o", "|sh"], null).runs).toBe(true)
    expect(consoleCommands("mysql", ["--pager=less"], null).runs).toBe(true)
  })
})

describe("detection", () => {
  it("escapes given inline ask", () => {
    for (const command of ["sqlite3 db '.shell ls'", "sqlite3 -cmd '.system ls' db", "gdb -batch -ex 'python print(1)'", "gdb --eval-command='shell ls'", "psql -c '\\! ls'", "mysql -e 'system ls'", "sqlite3 db <<'EOF'\n.sh ls\nEOF", "echo '.shell ls' | sqlite3 db", "sqlite3 db <<< '.system ls'"]) {
      expect(verdict(command)).toEqual([command, D.consoleCommands])
    }
  })

  it("text only known when it runs asks; the escape's own command is judged as shell", () => {
    expect(verdict("curl -s http://127.0.0.1/x | sqlite3 db")).toEqual(["curl -s http://127.0.0.1/x | sqlite3 db", D.consoleCommands])
    expect(detectCommand("sqlite3 db '.shell rm -rf /'", ENV).hardline).toBe(true)
  })

  it("gdb judges the program it debugs as a command", () => {
    expect(detectCommand("gdb -batch -ex run --args rm -rf /", ENV).hardline).toBe(true)
  })

  it("languages the gate does not read ask, but for their version", () => {
    for (const command of ["tclsh x.tcl", "tclsh", "wish x.tcl", "lua -e 'os.remove(\"x\")'", "Rscript a.R", "julia x.jl", "go run main.go", "go test ./...", "cargo run", "cargo +nightly test", "java Main.java", "tcc -run x.c", "echo x | m4"]) {
      expect(verdict(command)).toEqual([command, D.opaqueCode])
    }
    for (const command of ["tclsh --version", "lua -v", "go build ./...", "go vet ./...", "cargo build", "cargo --version", "java -version", "java -jar app.jar", "tcc -o x x.c"]) {
      expect(quiet(command)).toEqual([command, false])
    }
  })

  it("compiler options that run or load another program ask", () => {
    for (const command of ["gcc -wrapper ./x,-v m.c", "gcc -fplugin=./p.so m.c", "clang -fpass-plugin=./p.so m.c", "cc -B./bin m.c", "g++ -specs=./s m.cc", "gcc -fuse-ld=./ld m.c", "clang --ld-path=./ld m.c", "clang -Xclang -load -Xclang ./p.so m.c", "x86_64-linux-gnu-gcc-12 -wrapper ./x m.c"]) {
      expect(verdict(command)).toEqual([command, D.programOption])
    }
    for (const command of ["gcc -O2 -Wall -o m m.c", "cc -fuse-ld=lld m.c", "clang++ -std=c++20 -Iinclude -c a.cc", "gcc -shared -fPIC -o e.so e.c"]) {
      expect(quiet(command)).toEqual([command, false])
    }
  })

  it("interpreters that read code on standard input besides their script", () => {
    for (const [name, args] of [["python3", ["-i", "x.py"]], ["python3", ["-u", "-i", "x.py"]], ["python3", ["-iu", "x.py"]], ["python3", ["-m", "pdb", "x.py"]], ["python3", ["-m", "code"]], ["node", ["-i"]]] as const) {
      expect([name, args, readsStdinCodeToo(name, args)]).toEqual([name, args, true])
    }
    for (const [name, args] of [["python3", ["x.py", "-i"]], ["python3", ["-m", "json.tool"]], ["python3", ["-W", "ignore", "x.py"]], ["python3", ["-c", "print(1)", "-i"]], ["node", ["x.js"]], ["perl", ["-i", "x"]]] as const) {
      expect([name, args, readsStdinCodeToo(name, args)]).toEqual([name, args, false])
    }
  })

  it("directories code puts on its own module search path, when spelled out", () => {
    expect(codeSearchDirs("python", "import sys\nsys.path.insert(0, '/x/lib')\nsys.path.append(\"vendor\")\nimport helper")).toEqual(["/x/lib", "vendor"])
    expect(codeSearchDirs("python", "sys.path.extend(['/a', '/b'])\nsite.addsitedir(r'/c')\nsys.path[:0] = ['/d']")).toEqual(["/a", "/b", "/c", "/d"])
    expect(codeSearchDirs("python", "sys.path.insert(0, os.path.dirname(__file__))")).toEqual([])
    expect(codeSearchDirs("node", "module.paths.unshift('/x/mods')")).toEqual(["/x/mods"])
  })

  it("split --filter and wget --use-askpass run the program they name", () => {
    expect(detectCommand("echo x | split --filter=./x.sh", ENV).dangerous || detectCommand("echo x | split --filter='rm -rf /tmp/x'", ENV).dangerous).toBe(true)
    expect(verdict("wget --use-askpass=./x http://h/")).toEqual(["wget --use-askpass=./x http://h/", D.programOption])
    expect(quiet("split -l 100 big.txt part-")).toEqual(["split -l 100 big.txt part-", false])
  })

  it("python's runner modules run the script or module named in their arguments", () => {
    expect(pythonRunnerTargets("cProfile", ["-s", "time", "app.py", "--port", "1"])).toEqual({ files: ["app.py"], modules: [] })
    expect(pythonRunnerTargets("cProfile", ["-m", "pkg.main"])).toEqual({ files: [], modules: ["pkg.main"] })
    expect(pythonRunnerTargets("trace", ["--count", "-C", "out", "d.py"])).toEqual({ files: ["d.py"], modules: [] })
    expect(pythonRunnerTargets("trace", ["--module", "--count", "pkg"])).toEqual({ files: [], modules: ["pkg"] })
    expect(pythonRunnerTargets("pdb", ["-c", "continue", "x.py"])).toEqual({ files: ["x.py"], modules: [] })
    expect(pythonRunnerTargets("doctest", ["-v", "a.py", "README.txt"])).toEqual({ files: ["a.py", "README.txt"], modules: [] })
    expect(pythonRunnerTargets("unittest", ["-v", "test_x", "tests/test_y.py"])).toEqual({ files: ["tests/test_y.py"], modules: ["test_x"] })
    expect(pythonRunnerTargets("unittest", ["discover", "-s", "tests"])).toEqual({ files: [], modules: [] })
    expect(pythonRunnerTargets("coverage", ["run", "--source", "src", "app.py"])).toEqual({ files: ["app.py"], modules: [] })
    expect(pythonRunnerTargets("pip", ["install", "-e", "."])).toEqual({ files: [], modules: [] })
    expect(pythonRunnerTargets("json.tool", ["x.json"])).toEqual({ files: [], modules: [] })
  })

  it("plugins pytest loads from its config, a conftest's pytest_plugins and the environment", () => {
    expect(pytestConfigPlugins("[pytest]\naddopts = -q -p evil --tb=short\n  -pother\n")).toEqual(["evil", "other"])
    expect(pytestConfigPlugins("[tool.pytest.ini_options]\naddopts = [\"-p\", \"evil\"]\n")).toEqual(["evil"])
    expect(pytestConfigPlugins("[pytest]\naddopts = -q --tb=short\n")).toEqual([])
    expect(localImportCandidates("python", "pytest_plugins = ['a.b', \"c\"]\n")).toEqual(expect.arrayContaining(["a.py", "a/b.py", "c.py"]))
    expect(verdict("PYTEST_PLUGINS=evil pytest")[1]).not.toBeNull()
    expect(verdict("PYTEST_ADDOPTS='-p evil' pytest")[1]).not.toBeNull()
    expect(quiet("PYTEST_ADDOPTS='-q -x' pytest")).toEqual(["PYTEST_ADDOPTS='-q -x' pytest", false])
  })

  it("run-parts runs a directory of programs; listing them does not", () => {
    expect(verdict("run-parts ./jobs")).toEqual(["run-parts ./jobs", D.opaqueCode])
    expect(quiet("run-parts --test ./jobs")).toEqual(["run-parts --test ./jobs", false])
  })

  it("plain database and debugger use stays quiet", () => {
    for (const command of ["sqlite3 db 'select * from t'", "sqlite3 db .schema", "echo 'select 1;' | sqlite3 db", "sqlite3 db <<'EOF'\ncreate table t(a);\n.tables\nEOF", "gdb -batch -ex bt -ex 'info registers' ./core-dumper core", "psql -c 'select 1'", "mysql -e 'show tables'", "gdb --version"]) {
      expect(quiet(command)).toEqual([command, false])
    }
  })
})
