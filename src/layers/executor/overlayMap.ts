/**
 * A Map that lays a few entries over a shared base without copying it: the
 * handler's Context is the tool's services (some 35 entries, shared by every
 * call) plus this call's ToolContext and the caller's span. Copying the base
 * per call cost more than the rest of a dispatch. Effect never mutates a
 * Context's map in place (every Context operation copies it, through
 * iteration), so reads fall through and iteration yields the merged view.
 */
const EMPTY: ReadonlyMap<string, unknown> = new Map()

export class OverlayMap extends Map<string, unknown> {
  #base: ReadonlyMap<string, unknown>

  constructor(base: ReadonlyMap<string, unknown>) {
    super()
    this.#base = base
  }

  override get(key: string): unknown {
    // Own values are services, never undefined.
    const own = super.get(key)
    return own !== undefined || super.has(key) ? own : this.#base.get(key)
  }

  override has(key: string): boolean {
    return super.has(key) || this.#base.has(key)
  }

  override get size(): number {
    let size = this.#base.size
    for (const key of super.keys()) if (!this.#base.has(key)) size++
    return size
  }

  /** Mutating a base entry: take a private copy of the base first (never happens on the hot path). */
  #detach(): void {
    if (this.#base.size === 0) return
    for (const [key, value] of this.#base) if (!super.has(key)) super.set(key, value)
    this.#base = EMPTY
  }

  override delete(key: string): boolean {
    this.#detach()
    return super.delete(key)
  }

  override clear(): void {
    this.#base = EMPTY
    super.clear()
  }

  override *entries(): MapIterator<[string, unknown]> {
    for (const entry of this.#base) if (!super.has(entry[0])) yield entry as [string, unknown]
    yield* super.entries()
  }

  override *keys(): MapIterator<string> {
    for (const [key] of this.entries()) yield key
  }

  override *values(): MapIterator<unknown> {
    for (const [, value] of this.entries()) yield value
  }

  override [Symbol.iterator](): MapIterator<[string, unknown]> {
    return this.entries()
  }

  override forEach(callback: (value: unknown, key: string, map: Map<string, unknown>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.entries()) callback.call(thisArg, value, key, this)
  }
}
