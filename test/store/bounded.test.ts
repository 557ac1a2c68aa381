/**
 * The bounded caches' one rule (`setNewest`, src/kernel/memo.ts): at most `capacity` entries, a
 * key set again becomes the newest, the oldest goes first and is handed back; and the read cache
 * built on it (src/platform/store/readCache.ts) keeps that bound and its version and age rules.
 */
import { describe, expect, test } from "bun:test"
import { setNewest } from "../../src/kernel/memo"
import { makeReadCache } from "../../src/platform/store/readCache"

describe("setNewest", () => {
  test("keeps at most capacity entries, oldest out first, and hands back what went", () => {
    const map = new Map<string, number>()
    const evicted: Array<readonly [string, number] | undefined> = []
    for (const [k, v] of [["a", 1], ["b", 2], ["c", 3]] as const) evicted.push(setNewest(map, k, v, 3))
    expect(evicted).toEqual([undefined, undefined, undefined])
    expect(setNewest(map, "d", 4, 3)).toEqual(["a", 1])
    expect([...map]).toEqual([["b", 2], ["c", 3], ["d", 4]])
  })

  test("a key set again is the newest and evicts nothing", () => {
    const map = new Map([["a", 1], ["b", 2], ["c", 3]])
    expect(setNewest(map, "a", 10, 3)).toBeUndefined()
    expect([...map.keys()]).toEqual(["b", "c", "a"])
    expect(setNewest(map, "e", 5, 3)).toEqual(["b", 2])
    expect([...map]).toEqual([["c", 3], ["a", 10], ["e", 5]])
  })

  test("many distinct keys never grow the map past its capacity", () => {
    const map = new Map<number, number>()
    for (let i = 0; i < 10_000; i++) setNewest(map, i, i, 100)
    expect(map.size).toBe(100)
    expect([...map.keys()][0]).toBe(9_900)
  })
})

describe("makeReadCache", () => {
  test("bounded by its capacity; an entry is served at its version and within its age", () => {
    const cache = makeReadCache<string, string>(2, 1_000)
    cache.set("a", 1, 0, "A")
    cache.set("b", 1, 0, "B")
    cache.set("c", 1, 0, "C")
    expect(cache.get("a", 1, 10)).toBeUndefined()
    expect([cache.get("b", 1, 10), cache.get("c", 1, 10)]).toEqual(["B", "C"])
    expect(cache.get("c", 2, 10)).toBeUndefined()
    expect(cache.get("c", 1, 1_000)).toBeUndefined()
  })
})
