/**
 * A unified diff of two texts (line-based, three lines of context), for the
 * patch results the model reads. Myers' O(ND) algorithm on lines; a final line
 * without a newline is marked as git does.
 */

type Op = { readonly kind: " " | "-" | "+"; readonly line: string }

const splitLines = (text: string): Array<string> => {
  if (text.length === 0) return []
  const lines = text.split("\n").map((l) => `${l}\n`)
  // The piece after the last "\n" is either empty (dropped) or a line without a newline.
  const last = lines.pop() as string
  if (last !== "\n") lines.push(last.slice(0, -1))
  return lines
}

/** The shortest edit script from `a` to `b`. */
const editScript = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): Array<Op> => {
  // Common prefix and suffix first: most patches touch a small region.
  let start = 0
  while (start < a.length && start < b.length && a[start] === b[start]) start++
  let endA = a.length
  let endB = b.length
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--
    endB--
  }
  const n = endA - start
  const m = endB - start
  const max = n + m
  const offset = max + 1
  const v = new Int32Array(2 * max + 3)
  const trace: Array<Int32Array> = []
  let found = false
  for (let d = 0; d <= max && !found; d++) {
    trace.push(v.slice())
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && (v[offset + k - 1] as number) < (v[offset + k + 1] as number))
        ? (v[offset + k + 1] as number)
        : (v[offset + k - 1] as number) + 1
      let y = x - k
      while (x < n && y < m && a[start + x] === b[start + y]) {
        x++
        y++
      }
      v[offset + k] = x
      if (x >= n && y >= m) {
        found = true
        break
      }
    }
  }
  // Walk the trace backwards.
  const middle: Array<Op> = []
  let x = n
  let y = m
  for (let d = trace.length - 1; d > 0; d--) {
    const vd = trace[d] as Int32Array
    const k = x - y
    const prevK = k === -d || (k !== d && (vd[offset + k - 1] as number) < (vd[offset + k + 1] as number)) ? k + 1 : k - 1
    const prevX = vd[offset + prevK] as number
    const prevY = prevX - prevK
    while (x > prevX && y > prevY) {
      middle.push({ kind: " ", line: a[start + x - 1] as string })
      x--
      y--
    }
    if (x === prevX) middle.push({ kind: "+", line: b[start + y - 1] as string })
    else middle.push({ kind: "-", line: a[start + x - 1] as string })
    x = prevX
    y = prevY
  }
  while (x > 0 && y > 0) {
    middle.push({ kind: " ", line: a[start + x - 1] as string })
    x--
    y--
  }
  middle.reverse()
  return [
    ...a.slice(0, start).map((line): Op => ({ kind: " ", line })),
    ...middle,
    ...a.slice(endA).map((line): Op => ({ kind: " ", line }))
  ]
}

const CONTEXT = 3

const range = (start: number, count: number) => (count === 1 ? `${start}` : `${count === 0 ? start - 1 : start},${count}`)

const render = (op: Op) => {
  const text = `${op.kind}${op.line}`
  return op.line.endsWith("\n") ? text : `${text}\n\\ No newline at end of file\n`
}

/** `--- a/<name>` / `+++ b/<name>` and hunks; empty when the texts are equal. `newText` undefined = deleted. */
export const unifiedDiff = (oldText: string, newText: string | undefined, name: string): string => {
  const ops = editScript(splitLines(oldText), splitLines(newText ?? ""))
  if (ops.every((op) => op.kind === " ")) return ""
  let out = `--- ${oldText.length === 0 && newText !== undefined ? "/dev/null" : `a/${name}`}\n+++ ${newText === undefined ? "/dev/null" : `b/${name}`}\n`
  let i = 0
  // Line numbers before each op.
  const before: Array<readonly [number, number]> = []
  let la = 1
  let lb = 1
  for (const op of ops) {
    before.push([la, lb])
    if (op.kind !== "+") la++
    if (op.kind !== "-") lb++
  }
  while (i < ops.length) {
    if ((ops[i] as Op).kind === " ") {
      i++
      continue
    }
    // A hunk: back up for context, then extend while changes are within 2*CONTEXT of each other.
    const first = Math.max(0, i - CONTEXT)
    let last = i
    let j = i
    while (j < ops.length) {
      if ((ops[j] as Op).kind !== " ") {
        last = j
        j++
        continue
      }
      let next = j
      while (next < ops.length && (ops[next] as Op).kind === " ") next++
      if (next < ops.length && next - j <= 2 * CONTEXT) {
        j = next
        continue
      }
      break
    }
    const end = Math.min(ops.length, last + 1 + CONTEXT)
    const slice = ops.slice(first, end)
    const [startA, startB] = before[first] as readonly [number, number]
    const countA = slice.filter((op) => op.kind !== "+").length
    const countB = slice.filter((op) => op.kind !== "-").length
    out += `@@ -${range(startA, countA)} +${range(startB, countB)} @@\n`
    out += slice.map(render).join("")
    i = end
  }
  return out
}
