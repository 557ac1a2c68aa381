import { describe, expect, test } from "bun:test"
import { dnssec } from "../../../../src/analyses/zone/checks/dnssec"
import type { DnssecObservation } from "../../../../src/analyses/zone/model/observations"

const now = "2026-01-01T00:00:00.000Z"
const d = (o: Partial<DnssecObservation>): DnssecObservation => ({
  status: "secure", reason: null, signed: true, ds_present: true, algorithms: [13], denial: "nsec", nsec3: null,
  nsec3_compliant: null, chain: [], verified_rrsets: [], earliest_expiration: "2026-02-01T00:00:00.000Z", ...o
})

describe("dnssec", () => {
  const table: Array<[string, DnssecObservation | { incomplete: string }, Array<[string, RegExp]>, number, string]> = [
    ["secure, far from expiry", d({}), [], 0, "secure"],
    ["bogus", d({ status: "bogus", reason: "RRSIG expired" }), [["critical", /DNSSEC validation fails \(bogus\): RRSIG expired/]], 0, "bogus"],
    ["unsigned", d({ status: "insecure", signed: false, ds_present: false }), [["medium", /x\.test is not DNSSEC-signed/]], 0, "insecure"],
    ["signed without DS", d({ status: "insecure", ds_present: false, reason: "no DS at test" }), [["medium", /parent has no DS: the chain of trust is broken \(no DS at test\)/]], 0, "insecure"],
    ["insecure above the zone", d({ status: "insecure", reason: "test is unsigned" }), [["info", /DNSSEC chain is insecure: test is unsigned/]], 0, "insecure"],
    ["indeterminate", d({ status: "indeterminate", reason: "timeout" }), [["info", /could not be determined: timeout/]], 1, "indeterminate"],
    ["NSEC3 with iterations and salt", d({ denial: "nsec3", nsec3: { algorithm: 1, iterations: 10, salt: "ab", opt_out: false }, nsec3_compliant: false }), [["low", /10 extra iterations, salt "ab"/]], 0, "secure"],
    ["NSEC3 as RFC 9276 asks", d({ denial: "nsec3", nsec3: { algorithm: 1, iterations: 0, salt: "", opt_out: false }, nsec3_compliant: true }), [], 0, "secure"],
    ["signatures expire within three days", d({ earliest_expiration: "2026-01-03T00:00:00.000Z" }), [["low", /expire within 2\.0 days/]], 0, "secure"],
    ["expired signatures read as 0 days", d({ earliest_expiration: "2025-12-31T00:00:00.000Z" }), [["low", /expire within 0\.0 days/]], 0, "secure"],
    ["incomplete", { incomplete: "no result within 10000 ms" }, [["info", /The dnssec check could not complete/]], 1, "indeterminate"]
  ]
  test.each(table)("%s", (_, obs, expected, limitations, status) => {
    const r = dnssec({ domain: "x.test", now, dnssec: obs })
    expect(r.findings.map((f) => f.severity)).toEqual(expected.map(([s]) => s) as any)
    expected.forEach(([, m], i) => expect(r.findings[i].message).toMatch(m))
    expect(r.limitations.length).toBe(limitations)
    expect(r.detail.dnssec_status).toBe(status as any)
    expect(r.detail.dnssec).toEqual("incomplete" in obs ? null : obs)
    expect(r.incomplete).toBe("incomplete" in obs)
  })

  test("nsec3_compliant is carried to the composite", () => {
    expect(dnssec({ domain: "x.test", now, dnssec: d({ nsec3_compliant: false }) }).detail.nsec3_compliant).toBe(false)
    expect(dnssec({ domain: "x.test", now, dnssec: { incomplete: "t" } }).detail.nsec3_compliant).toBe(null)
  })
})
