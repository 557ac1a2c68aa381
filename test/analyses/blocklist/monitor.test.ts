/** The blocklist monitor kind's verdict (pure): what is new, what an error changes, what the summary names. */
import { describe, expect, test } from "bun:test"
import type { BlocklistEntry, BlocklistReport } from "../../../src/analyses/blocklist/schema"
import { evaluateBlocklist } from "../../../src/product/monitors/kinds/blocklist"

const e = (item: string, zone: string, status: BlocklistEntry["status"], codes: ReadonlyArray<string> = status === "listed" ? ["127.0.0.2"] : []): BlocklistEntry =>
  ({ zone, item, status, codes, reason: null })

const report = (lists: ReadonlyArray<BlocklistEntry>): BlocklistReport => ({
  target: "example.com", kind: "domain", ips: ["192.0.2.1", "192.0.2.2"], lists,
  listed_count: lists.filter((x) => x.status === "listed").length, checked_at: "2026-01-01T00:00:00.000Z", limitations: []
})

const zen = (ip: string, s: BlocklistEntry["status"]) => e(ip, "zen.example", s, s === "listed" ? ["127.0.0.2", "127.0.0.4"] : [])
const psbl = (ip: string, s: BlocklistEntry["status"]) => e(ip, "psbl.example", s)

describe("listed", () => {
  test("the first run: every listing is new, each named with its list and codes", () => {
    const v = evaluateBlocklist({ listed: true }, report([zen("192.0.2.1", "listed"), psbl("192.0.2.1", "not_listed"), psbl("192.0.2.2", "listed")]), null)
    expect(v.ok).toBe(false)
    expect(v.summary).toBe("newly listed: 192.0.2.1 on zen.example (127.0.0.2, 127.0.0.4); 192.0.2.2 on psbl.example (127.0.0.2)")
    expect((v.report as any).new_listings).toHaveLength(2)
    expect(v.baseline?.listing_keys).toEqual(["192.0.2.1 zen.example", "192.0.2.2 psbl.example"])
  })

  test("nothing listed: ok, and the summary says so with the count of unusable answers", () => {
    const v = evaluateBlocklist({ listed: true }, report([zen("192.0.2.1", "not_listed"), psbl("192.0.2.1", "error")]), null)
    expect(v.ok).toBe(true)
    expect(v.summary).toBe("listed nowhere; 2 (list, item) pairs asked, 1 without a usable answer")
  })

  test("the same listings on the next run: ok; one more: only it is named", () => {
    const first = evaluateBlocklist({}, report([zen("192.0.2.1", "listed")]), null)
    const same = evaluateBlocklist({}, report([zen("192.0.2.1", "listed"), psbl("192.0.2.2", "not_listed")]), first.baseline)
    expect(same.ok).toBe(true)
    expect(same.summary).toBe("1 listing, none new; 2 (list, item) pairs asked")
    const more = evaluateBlocklist({}, report([zen("192.0.2.1", "listed"), psbl("192.0.2.2", "listed")]), same.baseline)
    expect(more.ok).toBe(false)
    expect(more.summary).toBe("newly listed: 192.0.2.2 on psbl.example (127.0.0.2)")
  })

  test("a listing whose list gives no usable answer for a run stays known: back the next run, it is not new", () => {
    const first = evaluateBlocklist({}, report([zen("192.0.2.1", "listed")]), null)
    const refused = evaluateBlocklist({}, report([zen("192.0.2.1", "error")]), first.baseline)
    expect(refused.ok).toBe(true)
    expect(refused.baseline?.listing_keys).toEqual(["192.0.2.1 zen.example"])
    expect(evaluateBlocklist({}, report([zen("192.0.2.1", "listed")]), refused.baseline).ok).toBe(true)
  })

  test("a delisting forgets the listing: listed again later, it is new again", () => {
    const first = evaluateBlocklist({}, report([zen("192.0.2.1", "listed")]), null)
    const gone = evaluateBlocklist({}, report([zen("192.0.2.1", "not_listed")]), first.baseline)
    expect(gone.ok).toBe(true)
    expect(gone.baseline?.listing_keys).toEqual([])
    expect(evaluateBlocklist({}, report([zen("192.0.2.1", "listed")]), gone.baseline).ok).toBe(false)
  })

  test("listed: false records the listings but never fails a run", () => {
    const v = evaluateBlocklist({ listed: false }, report([zen("192.0.2.1", "listed")]), null)
    expect(v.ok).toBe(true)
    expect(v.summary).toBe("1 listing, none new; 1 (list, item) pairs asked")
    expect(v.baseline?.listing_keys).toEqual(["192.0.2.1 zen.example"])
  })
})
