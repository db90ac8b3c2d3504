/**
 * Compiled forms Python loads for a module instead of the source the judge
 * reads: an extension module beside it (`helper.cpython-311-….so`, tried
 * before `helper.py`), a sourceless `helper.pyc` where no source is, and a
 * bytecode cache in `__pycache__` that Python runs without checking it
 * against the source (unchecked hash-based). Their text tells nothing, so a
 * module that has one needs approval. A timestamp-based cache (what Python
 * writes itself) or a checked hash-based one is only used while it matches
 * the source, which is what the judge reads. Pure: names and header bytes in,
 * verdicts out.
 */
import { posix } from "node:path"

/** A `.pyc` header: magic (4 bytes), flags (4), then a source mtime and size or a source hash (8). */
export const PYC_HEADER_BYTES = 16

/**
 * Python (3.7+) runs such a cache without looking at the source: flags bit 0 set (hash-based), bit 1 clear (do not
 * check the source). A header too short is rejected by Python, which then compiles the source.
 */
export const uncheckedHashPyc = (header: Uint8Array): boolean =>
  header.length >= PYC_HEADER_BYTES && ((header[4] ?? 0) & 0b11) === 0b01

/** An extension module for `stem` in the same directory: `stem.so`, `stem.abi3.so`, `stem.cpython-311-….so`, `.pyd`. */
export const extensionModuleFor = (stem: string, name: string): boolean =>
  name.startsWith(`${stem}.`) && /\.(?:so|pyd)$/.test(name)

/** A cache of `stem.py` as Python names it in `__pycache__`: `stem.<tag>.pyc`, `stem.<tag>.opt-1.pyc`. */
export const cacheFor = (stem: string, name: string): boolean =>
  name.startsWith(`${stem}.`) && name.endsWith(".pyc") && name.length > stem.length + 5

/** The `.py` file a candidate names, split into its directory and module stem; null for other files. */
export const pythonSource = (path: string): { readonly dir: string; readonly stem: string } | null =>
  path.endsWith(".py") ? { dir: posix.dirname(path), stem: posix.basename(path, ".py") } : null

/**
 * Where Python looks for the cache of a source in `dir`: its `__pycache__`, or the same directory under a
 * `PYTHONPYCACHEPREFIX` tree when one is set (both are looked at: the prefix may be set where the judge cannot see).
 */
export const cacheDirs = (dir: string, prefix: string | undefined): ReadonlyArray<string> =>
  prefix === undefined || prefix === "" ? [`${dir}/__pycache__`] : [`${dir}/__pycache__`, posix.join(prefix, dir)]
