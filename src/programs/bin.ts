#!/usr/bin/env node
/**
 * The entry: `hermes-effect acp` first answers the client's `initialize`
 * from a small module (editors wait for it), then loads the full program
 * (src/programs/main.ts) to serve the rest of the connection. Every other
 * command loads the full program at once.
 */
if (process.argv.length === 3 && process.argv[2] === "acp") {
  const { answerInitialize } = await import("./acp/fast.js")
  answerInitialize(() => import("./main.js"))
} else {
  await import("./main.js")
}
