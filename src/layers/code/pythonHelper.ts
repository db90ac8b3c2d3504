/**
 * The `hermes_tools` module an execute_code script imports: one function per
 * allowed tool (Hermes' names and signatures), each a call over the RPC
 * channel to the parent, plus `json_parse`, `shell_quote` and `retry`.
 *
 * Two channels, picked by the environment variables the parent sets:
 * - `HERMES_RPC_SOCKET`: a Unix socket; each message is a 4-byte big-endian
 *   length then that many bytes (a request's JSON, or the tool's result). No
 *   newline framing: a result may hold any bytes, and 1 MB arrives whole.
 * - `HERMES_RPC_DIR`: a directory shared with the parent through the backend's
 *   file access (ssh, containers): `req_NNNNNN` written by rename, answered by
 *   `res_NNNNNN`, polled for.
 * Calls are serialised by a lock: the protocol has no request ids.
 */

/** Python stubs of the tools a script may call, in Hermes' signatures. */
const STUBS: Readonly<Record<string, string>> = {
  web_search: `def web_search(query, limit=5):
    """Search the web; returns the tool's result (a dict)."""
    return _call("web_search", {"query": query, "limit": limit})
`,
  web_extract: `def web_extract(urls, char_limit=None):
    """Fetch pages as text; urls is a list of URLs."""
    return _call("web_extract", {"urls": urls, "char_limit": char_limit})
`,
  read_file: `def read_file(path, offset=1, limit=500):
    """Read lines of a file (1-based offset); returns {"content", ...}."""
    return _call("read_file", {"path": path, "offset": offset, "limit": limit})
`,
  write_file: `def write_file(path, content, cross_profile=False):
    """Write a whole file, creating parent directories."""
    return _call("write_file", {"path": path, "content": content, "cross_profile": cross_profile or None})
`,
  search_files: `def search_files(pattern, target="content", path=".", file_glob=None, limit=50, offset=0, output_mode="content", context=0):
    """Search file contents (target="content") or names (target="files")."""
    return _call("search_files", {"pattern": pattern, "target": target, "path": path, "file_glob": file_glob,
                                  "limit": limit, "offset": offset, "output_mode": output_mode, "context": context})
`,
  patch: `def patch(path=None, old_string=None, new_string=None, replace_all=False, mode="replace", patch=None, cross_profile=False):
    """Replace text in a file (mode="replace") or apply a V4A patch (mode="patch")."""
    return _call("patch", {"path": path, "old_string": old_string, "new_string": new_string, "replace_all": replace_all,
                           "mode": mode, "patch": patch, "cross_profile": cross_profile or None})
`,
  terminal: `def terminal(command, timeout=None, workdir=None):
    """Run a shell command in the foreground; returns {"output", "exit_code", "error"}."""
    return _call("terminal", {"command": command, "timeout": timeout, "workdir": workdir})
`
}

const CORE = `"""Tools of the agent running this script (generated for one execute_code run)."""
import json
import os
import shlex
import socket
import struct
import threading
import time

_lock = threading.Lock()
_sock = None
_seq = 0
_RPC_WAIT = 300


def _read_exact(sock, size):
    parts = []
    while size > 0:
        chunk = sock.recv(min(size, 1 << 20))
        if not chunk:
            raise ConnectionError("the execute_code RPC channel was closed by the parent")
        parts.append(chunk)
        size -= len(chunk)
    return b"".join(parts)


def _over_socket(path, payload):
    global _sock
    if _sock is None:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(_RPC_WAIT)
        s.connect(path)
        _sock = s
    _sock.sendall(struct.pack(">I", len(payload)) + payload)
    (size,) = struct.unpack(">I", _read_exact(_sock, 4))
    return _read_exact(_sock, size)


def _over_files(directory, payload, tool):
    # The request carries its own length: the parent takes it only once it is whole.
    global _seq
    _seq += 1
    name = "%06d" % _seq
    with open(os.path.join(directory, "req_" + name), "wb") as f:
        f.write(struct.pack(">I", len(payload)) + payload)
    answer = os.path.join(directory, "res_" + name)
    delay, deadline = 0.005, time.monotonic() + _RPC_WAIT
    while not os.path.exists(answer):
        if time.monotonic() > deadline:
            raise TimeoutError("RPC timeout: no response for %s after %ds" % (tool, _RPC_WAIT))
        time.sleep(delay)
        delay = min(delay * 1.5, 0.25)
    with open(answer, "rb") as f:
        return f.read()


def _call(tool, args):
    args = {k: v for k, v in args.items() if v is not None}
    payload = json.dumps({"tool": tool, "args": args, "token": os.environ.get("HERMES_RPC_TOKEN", "")}).encode("utf-8")
    with _lock:
        path = os.environ.get("HERMES_RPC_SOCKET")
        raw = _over_socket(path, payload) if path else _over_files(os.environ["HERMES_RPC_DIR"], payload, tool)
    text = raw.decode("utf-8", errors="replace")
    try:
        result = json.loads(text)
    except ValueError:
        return text
    if isinstance(result, str):
        try:
            return json.loads(result)
        except ValueError:
            return result
    return result


def json_parse(text):
    """json.loads that tolerates control characters inside strings."""
    return json.loads(text, strict=False)


def shell_quote(value):
    """Quote a value for a shell command line."""
    return shlex.quote(str(value))


def retry(fn, max_attempts=3, delay=2):
    """Call fn() until it returns without raising; waits delay*2**attempt between attempts."""
    for attempt in range(max_attempts):
        try:
            return fn()
        except Exception:
            if attempt == max_attempts - 1:
                raise
            time.sleep(delay * (2 ** attempt))

`

/** The module's source for these tools (unknown names are ignored). */
export const pythonHelperSource = (tools: ReadonlyArray<string>): string =>
  CORE + tools.flatMap((tool) => STUBS[tool] === undefined ? [] : [STUBS[tool], "\n"]).join("")
