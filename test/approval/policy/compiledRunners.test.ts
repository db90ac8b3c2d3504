/**
 * Red team 8: `cargo run` runs the binary `./target/debug/app` would (which asks), `cargo build` a package's build
 * script; they ask as a binary run by path does. A plain package builds quietly.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { COMPILED_RUN_DESCRIPTION, compiledRunVerdict, compiledRuns } from "../../../src/layers/approval/policy/compiledRunners.js"
import type { ProjectReads } from "../../../src/layers/approval/policy/compiledRunners.js"

const PLAIN = "[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\nserde = \"1\"\n"

/** A task's files: path → text (folders are implied). */
const reads = (files: Readonly<Record<string, string>>): ProjectReads => ({
  cwd: Effect.succeed("/w"),
  readText: (path) => Effect.succeed(path in files ? Option.some(files[path]!) : Option.none()),
  fileKind: (path) => Effect.succeed(path in files ? "file" : "missing")
})

describe("compiledRuns", () => {
  it("finds cargo and go commands that run the project's code, past wrappers, toolchains and options", () => {
    for (
      const command of [
        "cargo run",
        "cargo r --release",
        "cargo +nightly -q test",
        "cargo t",
        "cargo bench",
        "timeout 60 cargo run",
        "env RUST_LOG=debug cargo run",
        "cargo --config alias.b2=run b2",
        "cargo lint",
        "go test ./...",
        "go generate ./...",
        "go env -w GOFLAGS=-toolexec=./x",
        "ls && cargo run"
      ]
    ) expect([command, compiledRuns(command).map((r) => r.use)]).toEqual([command, ["runs"]])
    for (const command of ["cargo build", "cargo check", "cargo clippy", "cargo doc", "cargo b", "cargo install --path ."]) {
      expect([command, compiledRuns(command).map((r) => r.use)]).toEqual([command, ["builds"]])
    }
    for (const command of ["cargo --version", "cargo fmt", "cargo new x", "cargo add serde", "cargo tree", "go build", "go vet ./...", "go version", "ls"]) {
      expect([command, compiledRuns(command)]).toEqual([command, []])
    }
  })

  it("places the package after the line's literal cd, -C or --manifest-path", () => {
    expect(compiledRuns("cd app && cargo build")).toEqual([{ use: "builds", dir: "app", moved: false }])
    expect(compiledRuns("cargo -C /p build")).toEqual([{ use: "builds", dir: "/p", moved: false }])
    expect(compiledRuns("cargo build --manifest-path x/Cargo.toml")).toEqual([{ use: "builds", dir: "x", moved: false }])
    expect(compiledRuns("cd \"$(cat d)\" && cargo build")[0]?.moved).toBe(true)
  })
})

describe("compiledRunVerdict", () => {
  const verdict = (command: string, files: Readonly<Record<string, string>>) => Effect.runSync(compiledRunVerdict(command, reads(files)))

  it("a build asks when the package runs code of its own or cargo reads a config", () => {
    expect(verdict("cargo build", { "/w/Cargo.toml": PLAIN, "/w/build.rs": "fn main() {}" })).toBe(COMPILED_RUN_DESCRIPTION)
    expect(verdict("cargo build", { "/w/Cargo.toml": `${PLAIN}[lib]\nproc-macro = true\n` })).toBe(COMPILED_RUN_DESCRIPTION)
    expect(verdict("cargo build", { "/w/Cargo.toml": `${PLAIN}helper = { path = "../helper" }\n` })).toBe(COMPILED_RUN_DESCRIPTION)
    expect(verdict("cargo build", { "/w/Cargo.toml": "[workspace]\nmembers = [\"a\"]\n" })).toBe(COMPILED_RUN_DESCRIPTION)
    expect(verdict("cargo build", { "/w/Cargo.toml": PLAIN, "/.cargo/config.toml": "[alias]\n" })).toBe(COMPILED_RUN_DESCRIPTION)
    expect(verdict("cargo build", {})).toBe(COMPILED_RUN_DESCRIPTION)
    expect(verdict("cd app && cargo check", { "/w/app/Cargo.toml": PLAIN, "/w/app/build.rs": "" })).toBe(COMPILED_RUN_DESCRIPTION)
  })

  it("a plain package builds quietly; running it always asks", () => {
    expect(verdict("cargo build --release", { "/w/Cargo.toml": PLAIN })).toBeUndefined()
    expect(verdict("cd app && cargo clippy", { "/w/app/Cargo.toml": PLAIN })).toBeUndefined()
    expect(verdict("cargo run", { "/w/Cargo.toml": PLAIN })).toBe(COMPILED_RUN_DESCRIPTION)
    expect(verdict("cargo fmt", {})).toBeUndefined()
  })
})
