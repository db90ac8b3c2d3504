/**
 * Podman for tests and benchmarks, without an image registry: a containers.conf
 * for this machine (no default ulimits: raising RLIMIT_NOFILE is not permitted
 * here; the cgroupfs manager: there is no systemd; the runc runtime) and a tiny
 * image imported from a root filesystem made on the spot: busybox-static with
 * its applet links, plus bash and the libraries it needs, copied from the host.
 *
 * Equivalent shell, for a machine where the CLI itself should work the same way:
 *   mkdir -p /etc/containers && printf '[containers]\ndefault_ulimits = []\n[engine]\ncgroup_manager = "cgroupfs"\nruntime = "runc"\n' \
 *     > /etc/containers/containers.conf
 *
 * Only node builtins are imported: bench/remote.mjs loads this file as well.
 */
import { execFileSync, spawnSync } from "node:child_process"
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"

export const TEST_IMAGE = "localhost/hermes-effect-test:busybox-bash-1"
const BUSYBOX = "/bin/busybox"

const CONTAINERS_CONF = `[containers]
default_ulimits = []

[engine]
cgroup_manager = "cgroupfs"
runtime = "runc"
`

const run = (args: ReadonlyArray<string>) => spawnSync("podman", [...args], { encoding: "utf8", env: process.env })

/** Point podman at our containers.conf (unless the caller already chose one). */
export const configurePodman = (): string => {
  const existing = process.env["CONTAINERS_CONF"]
  if (existing !== undefined && existsSync(existing)) return existing
  const dir = join(tmpdir(), "hermes-effect-podman")
  mkdirSync(dir, { recursive: true })
  const file = join(dir, "containers.conf")
  writeFileSync(file, CONTAINERS_CONF)
  process.env["CONTAINERS_CONF"] = file
  return file
}

/** Shared libraries a binary loads, from ldd. */
const librariesOf = (binary: string): ReadonlyArray<string> =>
  execFileSync("ldd", [binary], { encoding: "utf8" })
    .split("\n")
    .map((line) => /(?:=>\s*)?(\/\S+)\s+\(0x/.exec(line)?.[1])
    .filter((path): path is string => path !== undefined)

const buildImage = () => {
  const dir = mkdtempSync(join(tmpdir(), "hermes-rootfs-"))
  try {
    const root = join(dir, "rootfs")
    for (const sub of ["bin", "etc", "tmp", "root", "workspace", "proc", "sys", "dev", "run", "var/tmp", "home"]) {
      mkdirSync(join(root, sub), { recursive: true })
    }
    // bash first: the applet links must not shadow it (busybox may call itself bash).
    const bash = "/bin/bash"
    copyFileSync(bash, join(root, "bin/bash"))
    for (const lib of librariesOf(bash)) {
      mkdirSync(join(root, dirname(lib)), { recursive: true })
      copyFileSync(lib, join(root, lib))
    }
    copyFileSync(BUSYBOX, join(root, "bin/busybox"))
    const applets = execFileSync(BUSYBOX, ["--list"], { encoding: "utf8" }).split("\n").filter((a) => /^[\w.[-]+$/.test(a))
    for (const applet of applets) {
      if (applet !== "busybox" && !existsSync(join(root, "bin", applet))) symlinkSync("busybox", join(root, "bin", applet))
    }
    writeFileSync(join(root, "etc/passwd"), "root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n")
    writeFileSync(join(root, "etc/group"), "root:x:0:\nnogroup:x:65534:\n")
    const tar = join(dir, "rootfs.tar")
    execFileSync("tar", ["-C", root, "-cf", tar, "."])
    const imported = run(["import", tar, TEST_IMAGE])
    if (imported.status !== 0) throw new Error(`podman import failed: ${imported.stderr}`)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Why podman cannot run containers here, or undefined when it can (after building the test image). */
export const preparePodman = (): string | undefined => {
  if (!existsSync(BUSYBOX)) return `${BUSYBOX} is missing (apt-get install busybox-static)`
  configurePodman()
  const version = run(["version"])
  if (version.error !== undefined || version.status !== 0) return `podman does not work: ${version.error?.message ?? version.stderr.trim()}`
  if (run(["image", "exists", TEST_IMAGE]).status !== 0) {
    try {
      buildImage()
    } catch (error) {
      return error instanceof Error ? error.message : String(error)
    }
  }
  const probe = run(["--runtime", "runc", "run", "--rm", "--network", "none", TEST_IMAGE, "bash", "-c", "echo ok"])
  if (probe.status !== 0 || probe.stdout.trim() !== "ok") return `podman cannot start a container: ${probe.stderr.trim()}`
  return undefined
}

/** `terminal.*` keys for the container backend on podman with the test image. */
export const podmanTerminal = {
  container_cli: "podman",
  container_image: TEST_IMAGE,
  container_runtime: "runc"
} as const

/** Containers (any state) labelled with a Hermes home's label. */
export const containersOfHome = (homeLabel: string): ReadonlyArray<string> =>
  run(["ps", "-a", "-q", "--filter", `label=hermes-effect.home=${homeLabel}`]).stdout.split("\n").filter((l) => l.trim().length > 0)

export const inspect = (id: string): Record<string, unknown> => {
  const out = run(["inspect", id])
  if (out.status !== 0) throw new Error(out.stderr)
  const parsed = JSON.parse(out.stdout) as ReadonlyArray<Record<string, unknown>>
  return parsed[0] ?? {}
}
