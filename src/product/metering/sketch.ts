/**
 * A mergeable latency sketch in the manner of DDSketch (Masson, Rim, Lee, VLDB 2019): values fall
 * into logarithmic buckets whose bounds grow by γ = (1 + α) / (1 − α), so every quantile it
 * reports is within relative error α of the exact quantile of the same rank. α = 1 %.
 *
 * Pure: no Effect, no I/O. Sketches merge by adding bucket counts, so per-minute and per-hour
 * rollups add up to any window without touching raw rows. The binary form is what the rollup
 * tables store.
 *
 * Quantile rank convention (same as `exactQuantile` below): the value of rank ⌊q·(n−1)⌋ in the
 * ascending order of the n recorded values.
 */

export const RELATIVE_ACCURACY = 0.01
const GAMMA = (1 + RELATIVE_ACCURACY) / (1 - RELATIVE_ACCURACY)
const LOG_GAMMA = Math.log(GAMMA)
/** Values at or below this (milliseconds) are counted as zero: far below any measurable latency. */
export const MIN_INDEXABLE = 1e-6

export interface Sketch {
  /** Count of values ≤ MIN_INDEXABLE (including negatives, clamped). */
  zero: number
  /** Index of counts[0]. */
  offset: number
  /** Dense bucket counts from `offset` on. */
  counts: Array<number>
  count: number
  sum: number
  min: number
  max: number
}

export const empty = (): Sketch => ({ zero: 0, offset: 0, counts: [], count: 0, sum: 0, min: Infinity, max: -Infinity })

export const bucketIndex = (value: number): number => Math.ceil(Math.log(value) / LOG_GAMMA)

/** The representative value of bucket i: its bounds are (γ^(i−1), γ^i]; this is within α of both. */
export const bucketValue = (index: number): number => (2 * Math.pow(GAMMA, index)) / (GAMMA + 1)

const addToBucket = (s: Sketch, index: number, n: number) => {
  if (s.counts.length === 0) {
    s.offset = index
    s.counts.push(n)
    return
  }
  if (index < s.offset) {
    const grow = s.offset - index
    s.counts = new Array<number>(grow).fill(0).concat(s.counts)
    s.offset = index
  } else if (index >= s.offset + s.counts.length) {
    const grow = index - (s.offset + s.counts.length) + 1
    for (let i = 0; i < grow; i++) s.counts.push(0)
  }
  s.counts[index - s.offset] += n
}

/** Records one value (milliseconds). Mutates and returns the sketch. */
export const add = (s: Sketch, value: number): Sketch => {
  const v = Number.isFinite(value) ? value : 0
  s.count += 1
  s.sum += v
  if (v < s.min) s.min = v
  if (v > s.max) s.max = v
  if (v <= MIN_INDEXABLE) s.zero += 1
  else addToBucket(s, bucketIndex(v), 1)
  return s
}

export const fromValues = (values: Iterable<number>): Sketch => {
  const s = empty()
  for (const v of values) add(s, v)
  return s
}

/** Adds `other` into `into` (mutates `into`). */
export const mergeInto = (into: Sketch, other: Sketch): Sketch => {
  if (other.count === 0) return into
  into.count += other.count
  into.sum += other.sum
  into.zero += other.zero
  if (other.min < into.min) into.min = other.min
  if (other.max > into.max) into.max = other.max
  if (other.counts.length > 0) {
    if (into.counts.length === 0) {
      into.offset = other.offset
      into.counts = other.counts.slice()
    } else {
      const lo = Math.min(into.offset, other.offset)
      const hi = Math.max(into.offset + into.counts.length, other.offset + other.counts.length)
      if (lo !== into.offset || hi !== into.offset + into.counts.length) {
        const next = new Array<number>(hi - lo).fill(0)
        for (let i = 0; i < into.counts.length; i++) next[into.offset - lo + i] = into.counts[i]
        into.counts = next
        into.offset = lo
      }
      const shift = other.offset - into.offset
      for (let i = 0; i < other.counts.length; i++) into.counts[shift + i] += other.counts[i]
    }
  }
  return into
}

export const merge = (sketches: Iterable<Sketch>): Sketch => {
  const out = empty()
  for (const s of sketches) mergeInto(out, s)
  return out
}

/**
 * The q-quantile (0 ≤ q ≤ 1), within relative error α of the exact value of rank ⌊q·(n−1)⌋,
 * clamped to the recorded min and max. 0 for an empty sketch.
 */
export const quantile = (s: Sketch, q: number): number => {
  if (s.count === 0) return 0
  const rank = Math.floor(Math.min(1, Math.max(0, q)) * (s.count - 1))
  // The extremes are kept exactly.
  if (rank === 0) return s.min
  if (rank === s.count - 1) return s.max
  if (rank < s.zero) return Math.max(s.min, 0)
  let seen = s.zero
  for (let i = 0; i < s.counts.length; i++) {
    seen += s.counts[i]
    if (seen > rank) return Math.min(s.max, Math.max(s.min, bucketValue(s.offset + i)))
  }
  return s.max
}

export const mean = (s: Sketch): number => (s.count === 0 ? 0 : s.sum / s.count)

/** Exact quantile with the same rank convention (tests and documentation). */
export const exactQuantile = (sortedAscending: ReadonlyArray<number>, q: number): number =>
  sortedAscending.length === 0 ? 0 : sortedAscending[Math.floor(q * (sortedAscending.length - 1))]

// Binary form (little endian): [u8 version=2][f64 count][f64 sum][f64 min][f64 max][f64 zero]
// [i32 first index][u32 pairs] then `pairs` × (varint index gap, varint count) over the non-empty
// buckets only, so a minute with a handful of requests costs a few bytes, not the whole range.
const HEADER = 1 + 8 * 5 + 4 + 4

const writeVarint = (out: Array<number>, n: number) => {
  while (n >= 0x80) {
    out.push((n % 0x80) | 0x80)
    n = Math.floor(n / 0x80)
  }
  out.push(n)
}

export const encode = (s: Sketch): Uint8Array => {
  const tail: Array<number> = []
  let pairs = 0
  let first = 0
  let prev = 0
  for (let i = 0; i < s.counts.length; i++) {
    const c = s.counts[i]
    if (c === 0) continue
    const index = s.offset + i
    if (pairs === 0) first = index
    writeVarint(tail, pairs === 0 ? 0 : index - prev)
    writeVarint(tail, c)
    prev = index
    pairs++
  }
  const bytes = new Uint8Array(HEADER + tail.length)
  const view = new DataView(bytes.buffer)
  view.setUint8(0, 2)
  view.setFloat64(1, s.count, true)
  view.setFloat64(9, s.sum, true)
  view.setFloat64(17, s.count === 0 ? 0 : s.min, true)
  view.setFloat64(25, s.count === 0 ? 0 : s.max, true)
  view.setFloat64(33, s.zero, true)
  view.setInt32(41, first, true)
  view.setUint32(45, pairs, true)
  bytes.set(tail, HEADER)
  return bytes
}

export class SketchDecodeError extends Error {}

export const decode = (bytes: Uint8Array): Sketch => {
  if (bytes.byteLength < HEADER) throw new SketchDecodeError("sketch too short")
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (view.getUint8(0) !== 2) throw new SketchDecodeError("unknown sketch version")
  const count = view.getFloat64(1, true)
  const first = view.getInt32(41, true)
  const pairs = view.getUint32(45, true)
  let pos = HEADER
  const readVarint = (): number => {
    let n = 0
    let mul = 1
    for (;;) {
      if (pos >= bytes.byteLength) throw new SketchDecodeError("sketch truncated")
      const b = bytes[pos++]
      n += (b & 0x7f) * mul
      if (b < 0x80) return n
      mul *= 0x80
      if (mul > 2 ** 49) throw new SketchDecodeError("varint too long")
    }
  }
  const indices: Array<number> = new Array(pairs)
  const values: Array<number> = new Array(pairs)
  let index = first
  for (let p = 0; p < pairs; p++) {
    index += readVarint()
    indices[p] = index
    values[p] = readVarint()
  }
  if (pos !== bytes.byteLength) throw new SketchDecodeError("sketch length mismatch")
  const span = pairs === 0 ? 0 : indices[pairs - 1] - first + 1
  if (span > 100_000) throw new SketchDecodeError("sketch index range implausible")
  const counts = new Array<number>(span).fill(0)
  for (let p = 0; p < pairs; p++) counts[indices[p] - first] += values[p]
  return {
    count,
    sum: view.getFloat64(9, true),
    min: count === 0 ? Infinity : view.getFloat64(17, true),
    max: count === 0 ? -Infinity : view.getFloat64(25, true),
    zero: view.getFloat64(33, true),
    offset: pairs === 0 ? 0 : first,
    counts
  }
}

/** Adds an encoded sketch into `into` without building an intermediate object. */
export const mergeEncodedInto = (into: Sketch, bytes: Uint8Array): Sketch => mergeInto(into, decode(bytes))
