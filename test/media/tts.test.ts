/**
 * text_to_speech through the CLI: the local engine (espeak-ng) writes a real
 * WAV file; the OpenAI provider is exercised against a loopback server that
 * answers as /audio/speech does; output paths that are not audio files are
 * refused.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { runCliAsync } from "../support/cli.js"
import { tempHome } from "../support/runtime.js"
import { describeNeeding, programProblem } from "../support/systemPrograms.js"

const homeWith = (config: string) => {
  const home = tempHome("hermes-tts-")
  mkdirSync(home, { recursive: true })
  writeFileSync(join(home, "config.yaml"), config)
  return home
}

const call = async (home: string, args: object, env?: Record<string, string>) => {
  const r = await runCliAsync(["call", "text_to_speech", JSON.stringify(args)], { home, ...(env === undefined ? {} : { env }) })
  return JSON.parse(r.stdout) as Record<string, unknown>
}

/** Seconds of audio in a PCM WAV file, from its header. */
const wavSeconds = (bytes: Buffer) => {
  expect(bytes.subarray(0, 4).toString("latin1")).toBe("RIFF")
  expect(bytes.subarray(8, 12).toString("latin1")).toBe("WAVE")
  const byteRate = bytes.readUInt32LE(28)
  let at = 12
  while (at + 8 <= bytes.length) {
    const id = bytes.subarray(at, at + 4).toString("latin1")
    const size = bytes.readUInt32LE(at + 4)
    // espeak-ng streams: the data chunk may declare 0x7fffffff; what follows is the audio.
    if (id === "data") return Math.min(size, bytes.length - at - 8) / byteRate
    at += 8 + size
  }
  throw new Error("no data chunk")
}

describeNeeding(programProblem("espeak-ng"), "text_to_speech, local engine", () => {
  it("writes a real WAV file to the audio cache, with Hermes' result keys", async () => {
    const home = homeWith("tts:\n  provider: local\n")
    const result = await call(home, { text: "Hello from hermes effect. This is a test of the local speech engine." })
    expect(result).toMatchObject({ success: true, provider: "local", voice_compatible: false })
    const path = String(result["file_path"])
    expect(path.startsWith(join(home, "cache", "audio", "tts_"))).toBe(true)
    expect(path.endsWith(".wav")).toBe(true)
    expect(result["media_tag"]).toBe(`MEDIA:${path}`)
    const seconds = wavSeconds(readFileSync(path))
    expect(seconds).toBeGreaterThan(1)
    expect(seconds).toBeLessThan(30)
  })

  it("writes to an output_path that names an audio file, with the provider's extension; says when the text was cut", async () => {
    const home = homeWith("tts:\n  provider: local\n  max_text_length: 20\n")
    const dir = tempHome("hermes-tts-out-")
    const result = await call(home, { text: "This sentence is longer than twenty characters.", output_path: join(dir, "sub", "greeting.mp3") })
    expect(result["file_path"]).toBe(join(dir, "sub", "greeting.wav"))
    expect(String(result["truncated"])).toContain("20 of 47")
    expect(wavSeconds(readFileSync(join(dir, "sub", "greeting.wav")))).toBeGreaterThan(0.3)
  })

  it("refuses paths that are not audio files, relative paths, '..' and system paths, before any synthesis", async () => {
    const home = homeWith("tts:\n  provider: local\n")
    const dir = tempHome("hermes-tts-out-")
    writeFileSync(join(dir, ".bashrc"), "alias ll='ls -l'\n")
    for (const output_path of [join(dir, ".bashrc"), join(dir, "run.sh"), "out.wav", `${dir}/../x.wav`, "/etc/cron.d/job.wav", join(home, "config.yaml")]) {
      const result = await call(home, { text: "hi", output_path })
      expect(result["success"], output_path).toBe(false)
    }
    expect(readFileSync(join(dir, ".bashrc"), "utf8")).toBe("alias ll='ls -l'\n")
    expect((await call(home, { text: "   " }))).toEqual({ success: false, error: "Text is required" })
  })
})

describe("text_to_speech, keyed providers", () => {
  it("posts model, voice and input with the key and saves the MP3 it gets back", async () => {
    const seen: Array<{ path: string; auth: string | undefined; body: Record<string, unknown> }> = []
    const server = createServer((req, res) => {
      let body = ""
      req.on("data", (d: Buffer) => void (body += d.toString()))
      req.on("end", () => {
        seen.push({ path: req.url ?? "", auth: req.headers.authorization, body: JSON.parse(body) as Record<string, unknown> })
        res.writeHead(200, { "content-type": "audio/mpeg" })
        res.end(Buffer.from([0xff, 0xfb, 0x90, 0x64, 1, 2, 3, 4]))
      })
    })
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r))
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
      const home = homeWith(`tts:\n  provider: openai\n  openai:\n    base_url: ${url}\n    voice: nova\n`)
      const result = await call(home, { text: "Read this aloud." }, { VOICE_TOOLS_OPENAI_KEY: "sk-voice-test" })
      expect(result).toMatchObject({ success: true, provider: "openai" })
      expect(String(result["file_path"]).endsWith(".mp3")).toBe(true)
      expect([...readFileSync(String(result["file_path"])).subarray(0, 2)]).toEqual([0xff, 0xfb])
      expect(seen).toEqual([{ path: "/v1/audio/speech", auth: "Bearer sk-voice-test", body: { model: "gpt-4o-mini-tts", voice: "nova", input: "Read this aloud.", response_format: "mp3" } }])
    } finally {
      await new Promise<void>((r) => server.close(() => r()))
    }
  })

  it("elevenlabs: posts text and model to the voice's path with xi-api-key and saves the MP3", async () => {
    const seen: Array<{ path: string; key: unknown; body: unknown }> = []
    const server = createServer((req, res) => {
      let body = ""
      req.on("data", (d: Buffer) => void (body += d.toString()))
      req.on("end", () => {
        seen.push({ path: req.url ?? "", key: req.headers["xi-api-key"], body: JSON.parse(body) })
        res.writeHead(200, { "content-type": "audio/mpeg" })
        res.end(Buffer.from([0xff, 0xf3, 0x44, 0xc4]))
      })
    })
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r))
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      const home = homeWith(`tts:\n  provider: elevenlabs\n  elevenlabs:\n    base_url: ${url}\n`)
      const result = await call(home, { text: "Bonjour." }, { ELEVENLABS_API_KEY: "el-test" })
      expect(result).toMatchObject({ success: true, provider: "elevenlabs" })
      expect([...readFileSync(String(result["file_path"])).subarray(0, 2)]).toEqual([0xff, 0xf3])
      expect(seen).toEqual([{ path: "/v1/text-to-speech/pNInz6obpgDQGcFmaJgB?output_format=mp3_44100_128", key: "el-test", body: { text: "Bonjour.", model_id: "eleven_multilingual_v2" } }])
    } finally {
      await new Promise<void>((r) => server.close(() => r()))
    }
  })

  it("is not offered without a key, nor with provider none", async () => {
    const names = async (config: string) => {
      const r = await runCliAsync(["tools", "list", "--json"], { home: homeWith(config), env: { VOICE_TOOLS_OPENAI_KEY: undefined, OPENAI_API_KEY: undefined } as unknown as Record<string, string> })
      return (JSON.parse(r.stdout) as ReadonlyArray<{ function: { name: string } }>).map((t) => t.function.name)
    }
    expect(await names("tts:\n  provider: openai\n")).not.toContain("text_to_speech")
    expect(await names("tts:\n  provider: none\n")).not.toContain("text_to_speech")
  })
})
