import { Effect } from "effect"
import { stdioEntry } from "./helpers.js"
import { mcpSuite } from "./suite.js"

mcpSuite({ transport: "stdio", entry: (extra = {}) => Effect.succeed(stdioEntry([], extra)) })
