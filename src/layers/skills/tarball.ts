/**
 * A small, strict reader for skill archives (`.tar.gz`, `.tgz`, `.tar`):
 * ustar/GNU/pax headers, regular files, folders and symlinks. No shell, no
 * `tar` binary, no npm dependency. It refuses what an archive has no
 * business holding — absolute paths, `..`, hard links, devices, more than
 * 2 000 entries or 64 MiB unpacked — and never writes through a link it
 * created, so an archive cannot place a file outside the folder it unpacks
 * into. Symlinks are kept as links: the guard then judges where they point.
 */
import { gunzipSync } from "node:zlib"
import * as path from "node:path"
import { Effect } from "effect"
import { SkillInvalid } from "../../services/Skills.js"
import type { SkillsIoError } from "../../services/Skills.js"
import * as fileOps from "./fileOps.js"
import type { Disk } from "./fileOps.js"

export const MAX_UNPACKED_BYTES = 64 * 1024 * 1024
export const MAX_ENTRIES = 2000

export type TarEntry =
  | { readonly kind: "file"; readonly path: string; readonly mode: number; readonly data: Uint8Array }
  | { readonly kind: "dir"; readonly path: string }
  | { readonly kind: "symlink"; readonly path: string; readonly target: string }

const text = (block: Uint8Array, start: number, length: number): string => {
  const slice = block.subarray(start, start + length)
  const end = slice.indexOf(0)
  return Buffer.from(end < 0 ? slice : slice.subarray(0, end)).toString("utf8")
}

const octal = (block: Uint8Array, start: number, length: number): number => {
  const field = block.subarray(start, start + length)
  // GNU base-256 for large numbers: high bit of the first byte set.
  if (((field[0] ?? 0) & 0x80) !== 0) {
    let value = 0
    for (let i = 1; i < field.length; i++) value = value * 256 + (field[i] ?? 0)
    return value
  }
  const s = text(block, start, length).trim()
  return s.length === 0 ? 0 : Number.parseInt(s, 8)
}

/** pax records: "<len> key=value\n". */
const paxRecords = (data: Uint8Array): Map<string, string> => {
  const out = new Map<string, string>()
  const s = Buffer.from(data).toString("utf8")
  let at = 0
  while (at < s.length) {
    const space = s.indexOf(" ", at)
    if (space < 0) break
    const len = Number.parseInt(s.slice(at, space), 10)
    if (!Number.isFinite(len) || len <= 0) break
    const record = s.slice(space + 1, at + len - 1)
    const eq = record.indexOf("=")
    if (eq > 0) out.set(record.slice(0, eq), record.slice(eq + 1))
    at += len
  }
  return out
}

const refuse = (message: string) => new SkillInvalid({ message: `Cannot unpack the archive: ${message}` })

/** A member name as a safe relative path, or why it is not one. */
export const safeMemberPath = (name: string): string | SkillInvalid => {
  const clean = name.replace(/\\/g, "/")
  if (clean.startsWith("/") || /^[A-Za-z]:/.test(clean)) return refuse(`absolute path '${name}'`)
  const parts = clean.split("/").filter((p) => p.length > 0 && p !== ".")
  if (parts.includes("..")) return refuse(`path '${name}' climbs out with '..'`)
  return parts.join("/")
}

export const readTar = (archive: Uint8Array): Effect.Effect<ReadonlyArray<TarEntry>, SkillInvalid> =>
  Effect.gen(function*() {
    let data = archive
    if (archive[0] === 0x1f && archive[1] === 0x8b) {
      data = yield* Effect.try({
        try: () => gunzipSync(archive, { maxOutputLength: MAX_UNPACKED_BYTES }),
        catch: (e) => refuse(e instanceof Error ? e.message : String(e))
      })
    }
    const entries: Array<TarEntry> = []
    let offset = 0
    let longName: string | undefined
    let longLink: string | undefined
    let pax = new Map<string, string>()
    while (offset + 512 <= data.length) {
      const header = data.subarray(offset, offset + 512)
      if (header.every((b) => b === 0)) break
      const stored = octal(header, 148, 8)
      let sum = 0
      for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : (header[i] as number)
      if (stored !== sum) return yield* refuse("not a tar archive (bad header checksum)")
      const size = octal(header, 124, 12)
      const type = String.fromCharCode(header[156] as number)
      const body = data.subarray(offset + 512, offset + 512 + size)
      if (body.length < size) return yield* refuse("truncated archive")
      offset += 512 + Math.ceil(size / 512) * 512
      if (type === "L") {
        longName = text(body, 0, body.length)
        continue
      }
      if (type === "K") {
        longLink = text(body, 0, body.length)
        continue
      }
      if (type === "x") {
        pax = paxRecords(body)
        continue
      }
      if (type === "g") continue
      const prefix = Buffer.from(header.subarray(257, 263)).toString("latin1").startsWith("ustar") ? text(header, 345, 155) : ""
      const rawName = pax.get("path") ?? longName ?? (prefix.length > 0 ? `${prefix}/${text(header, 0, 100)}` : text(header, 0, 100))
      const linkName = pax.get("linkpath") ?? longLink ?? text(header, 157, 100)
      longName = undefined
      longLink = undefined
      pax = new Map()
      const member = safeMemberPath(rawName)
      if (typeof member !== "string") return yield* member
      if (member.length === 0) continue
      if (entries.length >= MAX_ENTRIES) return yield* refuse(`more than ${MAX_ENTRIES} entries`)
      switch (type) {
        case "0":
        case "\0":
        case "7":
          entries.push({ kind: "file", path: member, mode: octal(header, 100, 8) & 0o777, data: body })
          break
        case "5":
          entries.push({ kind: "dir", path: member })
          break
        case "2":
          entries.push({ kind: "symlink", path: member, target: linkName })
          break
        case "1":
          return yield* refuse(`hard link '${rawName}' (not supported in a skill)`)
        default:
          return yield* refuse(`'${rawName}' is a device, fifo or unknown entry type '${type}'`)
      }
    }
    return entries
  })

/** Unpack into `dest` (which must exist and be empty): files keep their permission bits, symlinks stay links. */
export const unpack = (entries: ReadonlyArray<TarEntry>, dest: string): Effect.Effect<void, SkillInvalid | SkillsIoError, Disk> =>
  Effect.gen(function*() {
    const links = new Set<string>()
    const throughLink = (member: string) => {
      const parts = member.split("/")
      for (let i = 1; i < parts.length; i++) if (links.has(parts.slice(0, i).join("/"))) return true
      return false
    }
    const written = new Set<string>()
    for (const entry of entries) {
      if (throughLink(entry.path)) return yield* refuse(`'${entry.path}' would be written through a symlink in the archive`)
      if (written.has(entry.path) && entry.kind !== "dir") return yield* refuse(`'${entry.path}' appears twice`)
      written.add(entry.path)
      const target = path.join(dest, ...entry.path.split("/"))
      if (entry.kind === "dir") {
        yield* fileOps.makeDir(target)
      } else if (entry.kind === "file") {
        yield* fileOps.makeDir(path.dirname(target))
        yield* fileOps.writeAtomic(target, entry.data, entry.mode === 0 ? 0o644 : entry.mode)
      } else {
        yield* fileOps.makeDir(path.dirname(target))
        yield* fileOps.symlink(entry.target, target)
        links.add(entry.path)
      }
    }
  })
