/** A runtime on test layers: in-memory config in a fresh temp home, nothing read from the user's home. */
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Layer } from "effect"
import { ConfigTest } from "../../src/layers/ConfigTest.js"
import { layer } from "../../src/layers/HermesRuntime.js"
import type { RuntimeOptions } from "../../src/layers/HermesRuntime.js"
import type { HermesConfigInput } from "../../src/services/Config.js"

export const tempHome = (prefix = "hermes-effect-test-") => mkdtempSync(join(tmpdir(), prefix))

export const testRuntime = (config: HermesConfigInput = {}, options: Omit<RuntimeOptions, "config"> = {}) => {
  const root = tempHome()
  return layer({ plugins: false, ...options, config: ConfigTest(config, { root, workspaceDir: join(root, "workspace"), pluginsDir: join(root, "plugins") }) })
}

export type TestRuntime = ReturnType<typeof testRuntime> extends Layer.Layer<infer A, infer _E> ? A : never
