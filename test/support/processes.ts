/** Looking at real OS processes from tests. */
import { execFileSync } from "node:child_process"
import { randomInt } from "node:crypto"
import { Effect } from "effect"

/**
 * A `sleep` whose argument is unique, so `ps` can find exactly the processes a
 * test started. The command spells the last digit as `$((n))`, so the marker
 * appears only in the `sleep` process itself, never in the argv of the shell
 * (or bwrap) that runs the command: once `ps` shows it, everything the command
 * did before the sleep has happened.
 */
export const uniqueSleep = () => {
  const whole = randomInt(400, 900)
  const fraction = randomInt(10000, 99999)
  const last = randomInt(0, 9)
  return { command: `sleep ${whole}.${fraction}$((${last}))`, marker: `${whole}.${fraction}${last}` }
}

/** Live (non-zombie) processes whose command line contains `marker`. */
export const liveProcesses = (marker: string): ReadonlyArray<string> =>
  execFileSync("ps", ["-eo", "pid=,stat=,args="], { encoding: "utf8" })
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.length > 0)
    .filter((line) => {
      const [, stat = "", ...args] = line.split(/\s+/)
      return !stat.startsWith("Z") && args.join(" ").includes(marker) && !args.join(" ").startsWith("ps ")
    })

/** Poll (real time) until `condition` holds, at most `ms`. */
export const eventually = <A>(probe: () => A, condition: (a: A) => boolean, ms = 5000): Effect.Effect<A> =>
  Effect.promise(async () => {
    const deadline = Date.now() + ms
    let value = probe()
    while (!condition(value) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25))
      value = probe()
    }
    return value
  })
