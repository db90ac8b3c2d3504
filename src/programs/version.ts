/** The package version, read without loading the runtime (the ACP fast path needs it too). */
import { readFileSync } from "node:fs"

/** Our package.json, found upward from this file (dist/programs/cli.js or the bundled dist/bin.mjs). */
export const version = (() => {
  for (const up of ["../package.json", "../../package.json"]) {
    try {
      const pkg: unknown = JSON.parse(readFileSync(new URL(up, import.meta.url), "utf8"))
      if (typeof pkg === "object" && pkg !== null && "name" in pkg && pkg.name === "hermes-effect" && "version" in pkg) {
        return String(pkg.version)
      }
    } catch {
      // not there; try the next level up
    }
  }
  return "0.0.0"
})()
