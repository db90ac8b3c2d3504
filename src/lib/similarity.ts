/**
 * String similarity in the sense of Python's `difflib.SequenceMatcher.ratio`:
 * 2·M / (|a| + |b|), where M counts the characters of the matching blocks
 * found by taking the longest common substring and recursing on both sides.
 * Very long inputs are compared line by line instead, to stay cheap.
 */

/** Longest common run of `a[aLo..aHi)` and `b[bLo..bHi)`: [start in a, start in b, length]. */
const longestMatch = <T>(a: ArrayLike<T>, b: ArrayLike<T>, aLo: number, aHi: number, bLo: number, bHi: number): readonly [number, number, number] => {
  let best: readonly [number, number, number] = [aLo, bLo, 0]
  let previous = new Int32Array(bHi - bLo + 1)
  let current = new Int32Array(bHi - bLo + 1)
  for (let i = aLo; i < aHi; i++) {
    for (let j = bLo; j < bHi; j++) {
      const run = a[i] === b[j] ? (previous[j - bLo] as number) + 1 : 0
      current[j - bLo + 1] = run
      if (run > best[2]) best = [i - run + 1, j - run + 1, run]
    }
    ;[previous, current] = [current, previous]
    current.fill(0)
  }
  return best
}

const matchedCount = <T>(a: ArrayLike<T>, b: ArrayLike<T>): number => {
  let total = 0
  const stack: Array<readonly [number, number, number, number]> = [[0, a.length, 0, b.length]]
  while (stack.length > 0) {
    const [aLo, aHi, bLo, bHi] = stack.pop() as readonly [number, number, number, number]
    if (aLo >= aHi || bLo >= bHi) continue
    const [i, j, size] = longestMatch(a, b, aLo, aHi, bLo, bHi)
    if (size === 0) continue
    total += size
    stack.push([aLo, i, bLo, j], [i + size, aHi, j + size, bHi])
  }
  return total
}

/** Above this many character pairs, compare lines instead of characters. */
const CHAR_WORK_LIMIT = 2_000_000

export const similarity = (a: string, b: string): number => {
  if (a === b) return 1
  const total = a.length + b.length
  if (total === 0) return 1
  if (a.length * b.length <= CHAR_WORK_LIMIT) return (2 * matchedCount(a, b)) / total
  const la = a.split("\n")
  const lb = b.split("\n")
  return (2 * matchedCount(la, lb)) / (la.length + lb.length)
}
