/**
 * A throwaway PostgreSQL server for the cluster tests and bench: initdb into a
 * temp directory, started on a free loopback port, stopped (immediate) and
 * removed at the end. Postgres refuses to run as root, so as root the server
 * runs as `nobody` (runuser) in a directory owned by it. Debian keeps the
 * binaries in /usr/lib/postgresql/<version>/bin, which is not always on PATH.
 */
import { execFileSync, spawnSync } from "node:child_process"
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"

const binDir = (): string | undefined => {
  const onPath = spawnSync("sh", ["-c", "command -v initdb"], { encoding: "utf8" })
  if (onPath.status === 0 && onPath.stdout.trim().length > 0) return join(onPath.stdout.trim(), "..")
  const base = "/usr/lib/postgresql"
  if (!existsSync(base)) return undefined
  const versions = readdirSync(base).filter((v) => existsSync(join(base, v, "bin", "initdb"))).sort((a, b) => Number(b) - Number(a))
  return versions[0] === undefined ? undefined : join(base, versions[0], "bin")
}

const NOBODY = 65534
const asRoot = () => typeof process.getuid === "function" && process.getuid() === 0

/** Why no Postgres server can be started here, or undefined. */
export const postgresProblem = (): string | undefined => {
  const bin = binDir()
  if (bin === undefined) return "postgresql is not installed (initdb not found)"
  if (asRoot() && spawnSync("runuser", ["--help"], { stdio: "ignore" }).error !== undefined) return "running as root without runuser to start postgres"
  return undefined
}

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = address !== null && typeof address === "object" ? address.port : 0
      server.close(() => resolve(port))
    })
  })

export interface Postgres {
  readonly url: string
  readonly stop: () => void
}

export const startPostgres = async (): Promise<Postgres> => {
  const bin = binDir()
  if (bin === undefined) throw new Error("initdb not found")
  const dir = mkdtempSync(join(tmpdir(), "hermes-effect-pg-"))
  chmodSync(dir, 0o755)
  if (asRoot()) chownSync(dir, NOBODY, NOBODY)
  const as = (program: string, args: ReadonlyArray<string>) =>
    asRoot() ? execFileSync("runuser", ["-u", "nobody", "--", join(bin, program), ...args], { stdio: "pipe", cwd: dir }) : execFileSync(join(bin, program), [...args], { stdio: "pipe", cwd: dir })
  const data = join(dir, "data")
  as("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"])
  const port = await freePort()
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`
  as("pg_ctl", ["-D", data, "-o", opts, "-l", join(dir, "log"), "-w", "-t", "60", "start"])
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => {
      try {
        as("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"])
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    }
  }
}
