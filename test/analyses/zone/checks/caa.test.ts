import { describe, expect, test } from "bun:test"
import { caa, unauthorizedIssuers } from "../../../../src/analyses/zone/checks/caa"
import type { CaaObservation, CaaRecord } from "../../../../src/analyses/zone/model/observations"

const le: CaaRecord = { flags: 0, tag: "issue", value: "letsencrypt.org" }
const goog: CaaRecord = { flags: 0, tag: "issuewild", value: "pki.goog; cansignhttpexchanges=yes" }
const iodef: CaaRecord = { flags: 0, tag: "iodef", value: "mailto:sec@x.test" }
const obs = (records: Array<CaaRecord>, ct: ReadonlyArray<string> | { incomplete: string }): CaaObservation =>
  ({ found_at: records.length > 0 ? "x.test" : null, records, ct_issuers: ct })

describe("caa", () => {
  const table: Array<[string, CaaObservation | { incomplete: string }, Array<string>, boolean, Array<string>, Array<RegExp>]> = [
    ["no CAA", obs([], ["DigiCert Inc"]), ["low"], false, [], []],
    ["CAA matches CT", obs([le], ["Let's Encrypt"]), [], true, [], []],
    ["CT shows an unauthorised CA", obs([le, goog], ["Let's Encrypt", "DigiCert Inc", "DigiCert Inc"]), ["medium"], true, ["DigiCert Inc"], []],
    ["unknown issuers are a limitation, not a finding", obs([le], ["Odd CA Ltd"]), [], true, [], [/not mapped to CAA identifiers \(not judged\): Odd CA Ltd/]],
    ["CT unknown", obs([le], { incomplete: "CT aggregator did not answer in time" }), [], true, [], [/CAA cross-reference with CT logs skipped: CT aggregator did not answer in time/]],
    ["only iodef: no issuer restriction", obs([iodef], ["DigiCert Inc"]), [], true, [], []],
    ["incomplete", { incomplete: "timeout" }, ["info"], false, [], [/caa: check could not complete \(timeout\)/]]
  ]
  test.each(table)("%s", (_, o, severities, hasCaa, unauthorized, limitations) => {
    const r = caa({ domain: "x.test", caa: o })
    expect(r.findings.map((f) => f.severity)).toEqual(severities as any)
    expect(r.detail.has_caa).toBe(hasCaa)
    expect(r.detail.caa_unauthorized_ct_issuers).toEqual(unauthorized)
    expect(r.limitations.length).toBe(limitations.length)
    limitations.forEach((m, i) => expect(r.limitations[i]).toMatch(m))
    expect(r.incomplete).toBe("incomplete" in o)
  })

  test("the report part lists issue and issuewild domains and iodef contacts", () => {
    // iodef rides along in the analysis (the REST schema leaves it out of the answer)
    const detail: unknown = caa({ domain: "x.test", caa: obs([le, goog, iodef], []) }).detail.caa
    expect(detail).toEqual({ found_at: "x.test", records: [le, goog, iodef], issue: ["letsencrypt.org"], issuewild: ["pki.goog"], iodef: ["mailto:sec@x.test"] })
  })

  test("issuer organisations map to CAA identifiers", () => {
    const table: Array<[string, Array<CaaRecord>, Array<string>]> = [
      ["Sectigo RSA DV", [le], ["Sectigo RSA DV"]],
      ["ZeroSSL RSA", [{ flags: 0, tag: "issue", value: "sectigo.com" }], []],
      ["Amazon RSA 2048 M02", [le], ["Amazon RSA 2048 M02"]],
      ["WR1", [goog], []]
    ]
    for (const [issuer, records, unauthorized] of table) expect(unauthorizedIssuers(records, [issuer]).unauthorized).toEqual(unauthorized)
  })
})
