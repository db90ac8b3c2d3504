#!/usr/bin/env bash
# Installs the system programs the test suites drive for real, on Debian/Ubuntu (run as root, or with sudo):
# bubblewrap (sandbox backend, home protection), ripgrep (search_files), OpenSSH client and server (ssh backend on
# loopback), podman + runc + catatonit + busybox (container backend on a locally built image), procps (process checks),
# git and python3 (tools and tests use them), sqlite3, gdb, tcl and gcc (the approval attack suites aim at them), espeak-ng (the local text_to_speech engine), chromium (the browser
# tools drive it through playwright-core), postgresql (the scale-out store; tests start their own server on
# loopback). Without them `npm test` still passes: those suites skip with one line.
set -euo pipefail
need=()
command -v bwrap >/dev/null 2>&1 || need+=(bubblewrap)
command -v ps >/dev/null 2>&1 || need+=(procps)
command -v rg >/dev/null 2>&1 || need+=(ripgrep)
command -v git >/dev/null 2>&1 || need+=(git)
command -v python3 >/dev/null 2>&1 || need+=(python3)
# Consoles and languages the approval attack suites aim at (sqlite3, gdb, Tcl, a C compiler).
command -v sqlite3 >/dev/null 2>&1 || need+=(sqlite3)
command -v gdb >/dev/null 2>&1 || need+=(gdb)
command -v tclsh >/dev/null 2>&1 || need+=(tcl)
command -v gcc >/dev/null 2>&1 || need+=(gcc)
command -v espeak-ng >/dev/null 2>&1 || need+=(espeak-ng)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || need+=(postgresql)
command -v ssh >/dev/null 2>&1 || need+=(openssh-client)
[ -x /usr/sbin/sshd ] || need+=(openssh-server)
command -v podman >/dev/null 2>&1 || need+=(podman)
command -v runc >/dev/null 2>&1 || need+=(runc)
[ -x /usr/libexec/podman/catatonit ] || need+=(catatonit)
[ -x /bin/busybox ] || need+=(busybox-static)
if [ "${#need[@]}" -eq 0 ]; then
  echo "setup-system: everything is installed"
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "setup-system: no apt-get here; install these yourself: ${need[*]}" >&2
  exit 1
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq "${need[@]}"
