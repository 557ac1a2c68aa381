import { describe, expect, test } from "bun:test"
import * as Sketch from "../../src/product/metering/sketch"

// Deterministic PRNG so failures reproduce.
const mulberry32 = (seed: number) => () => {
  seed |= 0
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

const distributions: Record<string, (r: () => number) => number> = {
  uniform: (r) => 1 + r() * 999,
  lognormal: (r) => {
    const u = Math.max(r(), 1e-12)
    const v = r()
    return Math.exp(3 + 1.2 * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v))
  },
  bimodal: (r) => (r() < 0.9 ? 0.2 + r() * 2 : 800 + r() * 4000),
  pareto: (r) => 5 / Math.pow(Math.max(r(), 1e-9), 1 / 1.5)
}
const qs = [0, 0.01, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99, 0.999, 1]

describe("DDSketch-style latency sketch", () => {
  for (const [name, gen] of Object.entries(distributions)) {
    test(`${name}: every quantile within 1% of the exact value`, () => {
      const r = mulberry32(name.length * 7919)
      const values = Array.from({ length: 50_000 }, () => gen(r))
      const s = Sketch.fromValues(values)
      const sorted = values.slice().sort((a, b) => a - b)
      for (const q of qs) {
        const exact = Sketch.exactQuantile(sorted, q)
        const est = Sketch.quantile(s, q)
        expect(Math.abs(est - exact) / exact).toBeLessThanOrEqual(Sketch.RELATIVE_ACCURACY + 1e-12)
      }
      expect(s.count).toBe(values.length)
      expect(Sketch.mean(s)).toBeCloseTo(values.reduce((a, b) => a + b, 0) / values.length, 6)
    })
  }

  test("merging parts equals sketching the whole, and survives encode/decode", () => {
    const r = mulberry32(42)
    const values = Array.from({ length: 20_000 }, () => distributions.lognormal(r))
    const parts = [0, 1, 2, 3, 4].map((k) => Sketch.fromValues(values.filter((_, i) => i % 5 === k)))
    const merged = Sketch.merge(parts.map((p) => Sketch.decode(Sketch.encode(p))))
    const whole = Sketch.fromValues(values)
    for (const q of qs) expect(Sketch.quantile(merged, q)).toBe(Sketch.quantile(whole, q))
    expect(merged.count).toBe(whole.count)
    expect(merged.min).toBe(whole.min)
    expect(merged.max).toBe(whole.max)
  })

  test("disjoint bucket ranges merge in either order", () => {
    const a = Sketch.fromValues([0.5, 0.6, 0.7])
    const b = Sketch.fromValues([5000, 6000])
    const ab = Sketch.merge([a, b])
    const ba = Sketch.merge([b, a])
    expect(Sketch.encode(ab)).toEqual(Sketch.encode(ba))
    expect(Sketch.quantile(ab, 1)).toBe(6000)
    expect(Sketch.quantile(ab, 0)).toBe(0.5)
  })

  test("zeros, negatives and non-finite values land in the zero bucket", () => {
    const s = Sketch.fromValues([0, 0, -1, Number.NaN, 10])
    expect(s.zero).toBe(4)
    expect(Sketch.quantile(s, 0.5)).toBe(0)
    expect(Math.abs(Sketch.quantile(s, 1) - 10) / 10).toBeLessThanOrEqual(0.01)
  })

  test("empty sketch answers 0 and round-trips", () => {
    const s = Sketch.decode(Sketch.encode(Sketch.empty()))
    expect(s.count).toBe(0)
    expect(Sketch.quantile(s, 0.99)).toBe(0)
    expect(Sketch.mean(s)).toBe(0)
  })

  test("corrupt bytes are refused", () => {
    expect(() => Sketch.decode(new Uint8Array([1, 2, 3]))).toThrow()
    const good = Sketch.encode(Sketch.fromValues([1, 2, 3]))
    expect(() => Sketch.decode(good.slice(0, good.length - 1))).toThrow()
  })
})

describe("sketch encoding", () => {
  test("sparse: a few far-apart values encode small and exactly", () => {
    const s = Sketch.fromValues([0.3, 2, 9000, 9000, 0])
    const bytes = Sketch.encode(s)
    expect(bytes.length).toBeLessThan(80)
    const back = Sketch.decode(bytes)
    expect(Sketch.encode(back)).toEqual(bytes)
    for (const q of [0, 0.25, 0.5, 0.75, 1]) expect(Sketch.quantile(back, q)).toBe(Sketch.quantile(s, q))
  })
  test("large counts survive the varints", () => {
    const a = Sketch.fromValues([5])
    a.counts[0] = 3_000_000_000
    a.count = 3_000_000_000
    expect(Sketch.decode(Sketch.encode(a)).counts).toEqual([3_000_000_000])
  })
})
