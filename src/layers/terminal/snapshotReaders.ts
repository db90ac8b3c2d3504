/**
 * Which environment snapshots a running command still reads. A snapshot file
 * is replaced after each command, but a command started on the old one keeps
 * reading it: it is freed (`release`) only when no reader is left and it is
 * not the current snapshot. Used by the engine (`engine.ts`).
 */
export interface SnapshotReaders {
  readonly pin: (file: string | undefined) => void
  readonly unpin: (file: string | undefined) => void
  /** Free `file` now unless it is current or still read. */
  readonly discard: (file: string) => void
}

export const makeSnapshotReaders = (current: () => string | undefined, release: (file: string) => void): SnapshotReaders => {
  const readers = new Map<string, number>()
  const discard = (file: string): void => {
    if (file === current() || (readers.get(file) ?? 0) > 0) return
    release(file)
  }
  return {
    pin: (file) => {
      if (file !== undefined) readers.set(file, (readers.get(file) ?? 0) + 1)
    },
    unpin: (file) => {
      if (file === undefined) return
      const left = (readers.get(file) ?? 1) - 1
      if (left > 0) readers.set(file, left)
      else {
        readers.delete(file)
        discard(file)
      }
    },
    discard
  }
}
