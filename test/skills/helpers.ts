/** Fixtures for the skills tests: skill folders on disk, and the Skills service on a temp home. */
import { chmodSync, mkdirSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { gzipSync } from "node:zlib"
import * as NodeContext from "@effect/platform-node/NodeContext"
import { Layer } from "effect"
import { ConfigTest } from "../../src/layers/ConfigTest.js"
import { makeSkillsLive } from "../../src/layers/SkillsLive.js"
import type { SkillsOptions } from "../../src/layers/SkillsLive.js"
import type { HermesConfigInput } from "../../src/services/Config.js"
import { tempHome } from "../support/runtime.js"

export const skillMd = (name: string, description: string, extra = "", body = `# ${name}\n\nStep 1: do the thing.\n`) =>
  `---\nname: ${name}\ndescription: ${description}\n${extra}---\n\n${body}`

/** Write `files` (relative path → text) into `dir`; paths ending in .sh are made executable. */
export const writeSkill = (dir: string, files: Readonly<Record<string, string>>) => {
  for (const [rel, text] of Object.entries(files)) {
    const file = join(dir, rel)
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, text)
    if (rel.endsWith(".sh")) chmodSync(file, 0o755)
  }
  return dir
}

export interface SkillsHome {
  readonly root: string
  readonly skillsDir: string
  readonly layer: Layer.Layer<import("../../src/services/Skills.js").Skills | import("../../src/services/Config.js").Config>
}

/** The Skills service alone on a fresh temp home (no bundled skills unless given). */
export const skillsHome = (config: HermesConfigInput = {}, options: SkillsOptions = {}): SkillsHome => {
  const root = tempHome("hermes-skills-")
  const configLayer = ConfigTest(config, { root, workspaceDir: join(root, "workspace"), pluginsDir: join(root, "plugins") })
  const layer = makeSkillsLive({ bundled: [], hasCommand: () => true, ...options }).pipe(Layer.provideMerge(configLayer), Layer.provide(NodeContext.layer))
  return { root, skillsDir: join(root, "skills"), layer }
}

export type TarMember =
  | { readonly name: string; readonly type?: "file"; readonly content: string; readonly mode?: number }
  | { readonly name: string; readonly type: "dir" }
  | { readonly name: string; readonly type: "symlink" | "hardlink"; readonly target: string }

/** A ustar archive written by hand, so tests can put in it what `tar` would refuse to create. */
export const makeTar = (members: ReadonlyArray<TarMember>, gzip = true): Buffer => {
  const blocks: Array<Buffer> = []
  for (const m of members) {
    const header = Buffer.alloc(512)
    const body = m.type === undefined || m.type === "file" ? Buffer.from(m.content) : Buffer.alloc(0)
    header.write(m.name, 0, 100, "utf8")
    const mode = m.type === undefined || m.type === "file" ? (m.mode ?? 0o644) : m.type === "dir" ? 0o755 : 0o777
    header.write(`${mode.toString(8).padStart(7, "0")}\0`, 100, "ascii")
    header.write("0000000\0", 108, "ascii")
    header.write("0000000\0", 116, "ascii")
    header.write(`${body.length.toString(8).padStart(11, "0")}\0`, 124, "ascii")
    header.write("00000000000\0", 136, "ascii")
    header.write("        ", 148, "ascii")
    header.write(m.type === "dir" ? "5" : m.type === "symlink" ? "2" : m.type === "hardlink" ? "1" : "0", 156, "ascii")
    if (m.type === "symlink" || m.type === "hardlink") header.write(m.target, 157, 100, "utf8")
    header.write("ustar\0", 257, "ascii")
    header.write("00", 263, "ascii")
    let sum = 0
    for (const byte of header) sum += byte
    header.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, "ascii")
    blocks.push(header, body, Buffer.alloc((512 - (body.length % 512)) % 512))
  }
  blocks.push(Buffer.alloc(1024))
  const tar = Buffer.concat(blocks)
  return gzip ? gzipSync(tar) : tar
}
