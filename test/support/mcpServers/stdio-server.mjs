#!/usr/bin/env node
/**
 * The demo MCP server over stdio. Flags:
 *   --name <n>         server name in `initialize`
 *   --pid-file <path>  write our pid there first (tests check it is gone after shutdown)
 *   --no-extras        no resources or prompts
 *   --hang             read stdin, never answer (not even `initialize`)
 *   --exit-on-start    print to stderr and exit 1 at once
 */
import { writeFileSync } from "node:fs"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js"
import { createDemoServer } from "./demoServer.mjs"

const argv = process.argv.slice(2)
const flag = (f) => argv.includes(f)
const value = (f) => {
  const i = argv.indexOf(f)
  return i >= 0 ? argv[i + 1] : undefined
}

const pidFile = value("--pid-file")
if (pidFile !== undefined) writeFileSync(pidFile, String(process.pid))

if (flag("--exit-on-start")) {
  process.stderr.write("boom: cannot start without a license file\n")
  process.exit(1)
} else if (flag("--hang")) {
  process.stderr.write("hanging on purpose\n")
  process.stdin.resume()
} else {
  const server = createDemoServer({
    name: value("--name") ?? "demo",
    extras: !flag("--no-extras"),
    onCrash: () => {
      process.stderr.write("crashing on purpose\n")
      process.exit(3)
    }
  })
  await server.connect(new StdioServerTransport())
}
