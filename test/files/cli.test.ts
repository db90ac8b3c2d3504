/** The file tools from the built binary, as a user runs them (`npm run build` first; `npm test` does). */
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { runCli } from "../support/cli.js"
import { tempHome } from "../support/runtime.js"

describe("hermes-effect call with the file tools", () => {
  const home = tempHome("hermes-effect-files-cli-")
  const cwd = tempHome("hermes-effect-files-cwd-")
  writeFileSync(join(cwd, "notes.txt"), "alpha\nbeta\n")

  it("call read_file prints exactly the model's string, paths relative to the working directory", () => {
    const r = runCli(["call", "read_file", JSON.stringify({ path: "notes.txt" })], { home, cwd })
    expect(r.code).toBe(0)
    expect(r.stdout.endsWith("}\n")).toBe(true)
    expect(JSON.parse(r.stdout)).toEqual({ content: "1|alpha\n2|beta", total_lines: 2, file_size: 11, truncated: false, is_binary: false, is_image: false })
  })

  it("a refusal is a result, not a failure", () => {
    const r = runCli(["call", "read_file", "{\"path\": \"/dev/zero\"}"], { home, cwd })
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout)).toEqual({ error: "Cannot read '/dev/zero': this is a device file that would block or produce infinite output." })
  })
})
