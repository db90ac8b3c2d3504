/**
 * What the ACP fast path (fast.ts) passes to the server it loads: the stdin
 * bytes it read, and the id of the `initialize` it already answered. The
 * server still reads that request (the SDK serves nothing before it) and drops
 * its own second answer. A module of its own so both sides share it without
 * either loading the other.
 */
export interface Handover {
  readonly input: Uint8Array
  readonly answered: string | number | undefined
}

let pending: Handover | undefined

export const handOver = (handover: Handover) => void (pending = handover)

/** What the fast path left (once), or undefined when it did not run. */
export const takeHandover = (): Handover | undefined => {
  const handover = pending
  pending = undefined
  return handover
}
