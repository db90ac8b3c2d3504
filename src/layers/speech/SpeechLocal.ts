/**
 * The local speech provider: espeak-ng on this machine writes a WAV file. No
 * key and no network, so text_to_speech works offline. The text goes on
 * stdin (never on the command line, where other users could read it).
 */
import * as Command from "@effect/platform/Command"
import * as CommandExecutor from "@effect/platform/CommandExecutor"
import { Effect, Layer } from "effect"
import { onPath } from "../../lib/executables.js"
import { Config } from "../../services/Config.js"
import { Speech, SpeechError } from "../../services/Speech.js"

const PROGRAM = "espeak-ng"

export const SpeechLocal = Layer.effect(
  Speech,
  Effect.gen(function*() {
    const config = yield* Config
    const executor = yield* CommandExecutor.CommandExecutor
    const cfg = (yield* config.current).tts
    const run = <A, E>(effect: Effect.Effect<A, E, CommandExecutor.CommandExecutor>) => Effect.provideService(effect, CommandExecutor.CommandExecutor, executor)
    // Installed means on PATH: looked up, not run (`espeak-ng --version` takes hundreds of ms loading its voices).
    const available = Effect.sync(() => onPath(PROGRAM))
    return Speech.of({
      provider: "local",
      format: "wav",
      maxChars: cfg.max_text_length ?? 5000,
      available,
      synthesize: Effect.fn("Speech.local")(function*(request) {
        if (!(yield* available)) {
          return yield* new SpeechError({ kind: "dependency", provider: "local", message: `${PROGRAM} is not installed (Debian/Ubuntu: apt-get install espeak-ng)` })
        }
        const command = Command.make(PROGRAM, "-v", cfg.local.voice, "-s", String(Math.round(cfg.local.speed)), "-w", request.outputPath, "--stdin").pipe(
          Command.feed(request.text)
        )
        const code = yield* run(Command.exitCode(command)).pipe(
          Effect.mapError((e) => new SpeechError({ kind: "generation", provider: "local", message: e.message }))
        )
        if (code !== 0) return yield* new SpeechError({ kind: "generation", provider: "local", message: `${PROGRAM} exited with ${code}` })
      })
    })
  })
)
