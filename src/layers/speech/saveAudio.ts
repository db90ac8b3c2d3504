/** What the HTTP speech providers share: post a JSON request, then write the audio they answer with to the output file. */
import type { FileSystem, HttpClient, HttpClientRequest } from "@effect/platform"
import { Effect } from "effect"
import { SpeechError } from "../../services/Speech.js"

export const postForAudio = (
  http: HttpClient.HttpClient,
  fs: FileSystem.FileSystem,
  provider: string,
  request: HttpClientRequest.HttpClientRequest,
  outputPath: string
): Effect.Effect<void, SpeechError> => {
  const failed = (message: string) => new SpeechError({ kind: "generation", provider, message })
  return Effect.gen(function*() {
    const response = yield* Effect.mapError(http.execute(request), (e) => failed(e.message))
    if (response.status !== 200) {
      const body = yield* Effect.orElseSucceed(response.text, () => "")
      return yield* failed(`HTTP ${response.status}: ${body.slice(0, 300)}`)
    }
    const bytes = yield* Effect.mapError(response.arrayBuffer, (e) => failed(e.message))
    yield* Effect.mapError(fs.writeFile(outputPath, new Uint8Array(bytes)), (e) => failed(e.message))
  }).pipe(Effect.scoped)
}
