// Shared timing helpers for the bench suites.
export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}

/** Median per-operation time in µs: `rounds` rounds of `perRound` operations each. */
export const perOpMicros = async (op, { rounds = 25, perRound = 1000 } = {}) => {
  for (let i = 0; i < perRound; i++) await op()
  const samples = []
  for (let r = 0; r < rounds; r++) {
    const t = performance.now()
    for (let i = 0; i < perRound; i++) await op()
    samples.push(((performance.now() - t) * 1000) / perRound)
  }
  return median(samples)
}
