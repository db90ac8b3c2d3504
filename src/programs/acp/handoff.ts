/**
 * What the ACP fast path (fast.ts) passes to the server it loads: the stdin
 * bytes it read, and the id of the `initialize` it already answered. The
 * server still reads that request (the SDK serves nothing before it) and drops
 * its own second answer. A module of its own so both sides share it without
 * either loading the other. The fast path and the server live in different
 * bundles (bin.js and main.cjs, each with its own copy of this module), so the
 * handover is kept under a registered symbol on the global object.
 */
export interface Handover {
  readonly input: Uint8Array
  readonly answered: string | number | undefined
}

const SLOT = Symbol.for("hermes-effect/acp-handover")
const slots = globalThis as { [SLOT]?: Handover | undefined }

export const handOver = (handover: Handover) => void (slots[SLOT] = handover)

/** What the fast path left (once), or undefined when it did not run. */
export const takeHandover = (): Handover | undefined => {
  const handover = slots[SLOT]
  slots[SLOT] = undefined
  return handover
}
