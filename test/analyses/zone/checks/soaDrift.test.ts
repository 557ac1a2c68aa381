import { describe, expect, test } from "bun:test"
import { soaDrift } from "../../../../src/analyses/zone/checks/soaDrift"
import type { SoaObservation } from "../../../../src/analyses/zone/model/observations"

const soa = (serial: number) => ({ serial, primary_ns: "ns1.x.test", rname: "h.x.test", refresh: 86400, retry: 7200, expire: 1209600, minimum: 3600 })
const auth = (ns: string, ip: string, serial: number | null, o: Partial<SoaObservation> = {}): SoaObservation =>
  ({ kind: "authoritative", nameserver: ns, ip, port: 53, soa: serial === null ? null : soa(serial), authoritative: true, error: null, ...o })
const rec = (ip: string, serial: number): SoaObservation => ({ kind: "recursive", nameserver: null, ip, port: 53, soa: soa(serial), authoritative: false, error: null })

describe("soa_drift", () => {
  const table: Array<[string, ReadonlyArray<SoaObservation> | { incomplete: string }, Array<RegExp>, boolean, Array<number>]> = [
    ["all agree", [auth("a", "192.0.2.1", 5), auth("b", "192.0.2.2", 5), rec("127.0.0.1", 5)], [], false, [5]],
    ["serials differ", [auth("a", "192.0.2.1", 5), auth("b", "192.0.2.2", 4), rec("127.0.0.1", 5)], [/SOA serials differ across servers \(4 at b; 5 at a, resolver 127\.0\.0\.1\)/], true, [4, 5]],
    ["a server without SOA", [auth("a", "192.0.2.1", 5), auth("b", "192.0.2.2", null, { error: "REFUSED", authoritative: false })], [/Nameserver b \(192\.0\.2\.2\) gave no SOA for x\.test: REFUSED/], false, [5]],
    ["a lame server", [auth("a", "192.0.2.1", 5), auth("b", "192.0.2.2", 5, { authoritative: false })], [/answers for x\.test without authority \(lame delegation\)/], false, [5]],
    ["a failing recursive resolver is not lame", [auth("a", "192.0.2.1", 5), { ...rec("127.0.0.1", 5), soa: null, error: "timeout" }], [], false, [5]],
    ["incomplete", { incomplete: "no result within 10000 ms" }, [/The soa_drift check could not complete: no result within 10000 ms/], false, []]
  ]
  test.each(table)("%s", (_, obs, messages, drift, serials) => {
    const r = soaDrift({ domain: "x.test", soa: obs })
    expect(r.findings.length).toBe(messages.length)
    messages.forEach((m, i) => expect(r.findings[i].message).toMatch(m))
    expect(r.findings.every((f) => f.severity === ("incomplete" in obs ? "info" : "high"))).toBe(true)
    expect(r.incomplete).toBe("incomplete" in obs)
    expect(r.detail.soa_drift_detected).toBe(drift)
    expect(r.detail.soa_consistency.unique_serials).toEqual(serials)
  })

  test("one consistency entry per server, keyed by name and address or by resolver", () => {
    const r = soaDrift({ domain: "x.test", soa: [auth("a.x.test", "192.0.2.1", 7), rec("127.0.0.1", 7)] })
    expect(Object.keys(r.detail.soa_consistency)).toEqual(["a.x.test (192.0.2.1)", "resolver 127.0.0.1:53", "unique_serials"])
    expect((r.detail.soa_consistency["a.x.test (192.0.2.1)"] as any).serial).toBe(7)
  })
})
