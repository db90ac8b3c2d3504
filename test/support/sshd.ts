/**
 * A real OpenSSH server for tests and benchmarks: `sshd -D` as a child of this
 * process on a free loopback port, with its own config, a generated host key
 * and user key, authorized_keys and known_hosts in a temp directory. The
 * remote $HOME is a temp directory too (`SetEnv HOME`), so tests never touch
 * the real home and its shell startup files.
 *
 * Only node builtins are imported: bench/remote.mjs loads this file as well.
 */
import { execFileSync, spawn } from "node:child_process"
import type { ChildProcess } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createServer, connect } from "node:net"
import type { AddressInfo } from "node:net"
import { tmpdir, userInfo } from "node:os"
import { join } from "node:path"

export const SSHD = "/usr/sbin/sshd"

/** Why a test sshd cannot run here, or undefined when it can. */
export const sshdProblem = (): string | undefined => {
  if (!existsSync(SSHD)) return `${SSHD} is missing (apt-get install openssh-server)`
  try {
    execFileSync("ssh", ["-V"], { stdio: "ignore" })
    execFileSync("ssh-keygen", ["-?"], { stdio: "ignore" })
  } catch (error) {
    // ssh-keygen -? exits 1 after printing its usage; only a missing binary matters.
    if (typeof error === "object" && error !== null && "code" in error && error.code === "ENOENT") {
      return "the OpenSSH client is missing (apt-get install openssh-client)"
    }
  }
  return undefined
}

export interface TestSshd {
  readonly host: string
  readonly port: number
  readonly user: string
  /** Private key the server accepts. */
  readonly key: string
  /** A key the server does not know. */
  readonly strangerKey: string
  /** The remote user's $HOME. */
  readonly home: string
  readonly knownHosts: string
  readonly dir: string
  readonly pid: number
  /** `terminal.*` keys that reach this server (host key checked against our known_hosts). */
  readonly terminal: {
    readonly ssh_host: string
    readonly ssh_port: number
    readonly ssh_user: string
    readonly ssh_key: string
    readonly ssh_options: ReadonlyArray<string>
  }
  /** Successful logins so far (one per TCP connection that authenticated). */
  readonly logins: () => number
  readonly log: () => string
  readonly stop: () => Promise<void>
}

const keygen = (path: string) => execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "hermes-effect-test", "-f", path])

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo
      server.close(() => resolve(port))
    })
  })

/** Resolves once the server greets (its banner), or rejects when it died or never did. */
const awaitBanner = (port: number, child: ChildProcess, deadline: number) =>
  new Promise<void>((resolve, reject) => {
    const attempt = () => {
      if (child.exitCode !== null || child.signalCode !== null) return reject(new Error("sshd exited"))
      if (Date.now() > deadline) return reject(new Error("sshd did not start in time"))
      const socket = connect(port, "127.0.0.1")
      socket.once("data", (data) => {
        socket.destroy()
        if (data.toString().startsWith("SSH-")) resolve()
        else setTimeout(attempt, 25)
      })
      socket.once("error", () => {
        socket.destroy()
        setTimeout(attempt, 25)
      })
    }
    attempt()
  })

/** The `terminal:` section of a config.yaml that reaches this server (indented two spaces under `terminal:`). */
export const sshTerminalYaml = (sshd: TestSshd): ReadonlyArray<string> => {
  const t = sshd.terminal
  return [
    "terminal:",
    "  backend: ssh",
    `  ssh_host: ${t.ssh_host}`,
    `  ssh_port: ${t.ssh_port}`,
    `  ssh_user: ${t.ssh_user}`,
    `  ssh_key: ${t.ssh_key}`,
    "  ssh_options:",
    ...t.ssh_options.map((o) => `    - ${JSON.stringify(o)}`)
  ]
}

export const startSshd = async (): Promise<TestSshd> => {
  const problem = sshdProblem()
  if (problem !== undefined) throw new Error(problem)
  const dir = mkdtempSync(join(tmpdir(), "hermes-sshd-"))
  const home = join(dir, "home")
  mkdirSync(home)
  const hostKey = join(dir, "host_ed25519")
  const key = join(dir, "user_ed25519")
  const strangerKey = join(dir, "stranger_ed25519")
  for (const path of [hostKey, key, strangerKey]) keygen(path)
  writeFileSync(join(dir, "authorized_keys"), readFileSync(`${key}.pub`), { mode: 0o600 })
  // sshd's privilege separation directory (normally made by systemd-tmpfiles).
  if (process.getuid?.() === 0) mkdirSync("/run/sshd", { recursive: true, mode: 0o755 })
  const user = userInfo().username
  const logFile = join(dir, "sshd.log")

  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort()
    const config = join(dir, "sshd_config")
    writeFileSync(config, [
      `Port ${port}`,
      "ListenAddress 127.0.0.1",
      `HostKey ${hostKey}`,
      "PidFile none",
      "UsePAM no",
      "StrictModes no",
      "PermitRootLogin prohibit-password",
      "PubkeyAuthentication yes",
      "PasswordAuthentication no",
      "KbdInteractiveAuthentication no",
      `AuthorizedKeysFile ${join(dir, "authorized_keys")}`,
      `SetEnv HOME=${home}`,
      "PrintMotd no",
      "PrintLastLog no",
      "X11Forwarding no",
      "MaxStartups 100:30:200",
      "LogLevel INFO",
      ""
    ].join("\n"))
    const out = openSync(logFile, "a")
    const child = spawn(SSHD, ["-D", "-e", "-f", config], { stdio: ["ignore", out, out] })
    try {
      await awaitBanner(port, child, Date.now() + 10_000)
    } catch {
      child.kill("SIGKILL")
      continue
    }
    const knownHosts = join(dir, "known_hosts")
    writeFileSync(knownHosts, `[127.0.0.1]:${port} ${readFileSync(`${hostKey}.pub`, "utf8").trim()}\n`)
    const log = () => (existsSync(logFile) ? readFileSync(logFile, "utf8") : "")
    return {
      host: "127.0.0.1",
      port,
      user,
      key,
      strangerKey,
      home,
      knownHosts,
      dir,
      pid: child.pid ?? -1,
      terminal: {
        ssh_host: "127.0.0.1",
        ssh_port: port,
        ssh_user: user,
        ssh_key: key,
        ssh_options: [`UserKnownHostsFile=${knownHosts}`, "GlobalKnownHostsFile=/dev/null", "StrictHostKeyChecking=yes"]
      },
      logins: () => log().split("\n").filter((line) => line.includes("Accepted publickey")).length,
      log,
      stop: () =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve()
          child.once("exit", () => resolve())
          child.kill("SIGTERM")
        }).then(() => rmSync(dir, { recursive: true, force: true }))
    }
  }
  throw new Error(`sshd did not start: ${existsSync(logFile) ? readFileSync(logFile, "utf8") : "no log"}`)
}
