import { describe, expect, test } from "bun:test"
import { nameserverRedundancy } from "../../../../src/analyses/zone/checks/nameserverRedundancy"
import type { NameserverObservation } from "../../../../src/analyses/zone/model/observations"

const ns = (name: string, ips: Array<string>, skipped: string | null = null): NameserverObservation => ({ name, ips, skipped })

describe("nameserver_redundancy", () => {
  const table: Array<[string, string | null, Array<NameserverObservation>, Array<[string, RegExp]>, number]> = [
    ["NS lookup failed", "timeout", [], [["critical", /No authoritative nameservers found for x\.test: timeout/]], 0],
    ["no NS records", null, [], [["critical", /x\.test has no NS records/]], 0],
    ["one nameserver", null, [ns("ns1.x.test", ["192.0.2.1"])], [["high", /Only one nameserver \(ns1\.x\.test\)/]], 0],
    ["two names, one address", null, [ns("a.x.test", ["192.0.2.1"]), ns("b.x.test", ["192.0.2.1"])], [["high", /All 2 nameservers share one address \(192\.0\.2\.1\)/]], 0],
    ["two distinct addresses", null, [ns("a.x.test", ["192.0.2.1"]), ns("b.x.test", ["192.0.2.2"])], [], 0],
    ["a nameserver without address", null, [ns("a.x.test", ["192.0.2.1"]), ns("b.x.test", ["192.0.2.2"]), ns("c.x.test", [], "no address")], [["medium", /Nameserver c\.x\.test has no A or AAAA address/]], 0],
    ["a skipped nameserver with an address is a limitation", null, [ns("a.x.test", ["10.0.0.1"], "non-public address"), ns("b.x.test", ["192.0.2.2"])], [], 1]
  ]
  test.each(table)("%s", (_, nsError, nameservers, expected, limitations) => {
    const r = nameserverRedundancy({ domain: "x.test", ns_error: nsError, nameservers })
    expect(r.findings.map((f) => f.severity)).toEqual(expected.map(([s]) => s) as any)
    expected.forEach(([, m], i) => expect(r.findings[i].message).toMatch(m))
    expect(r.findings.every((f) => f.check === "nameserver_redundancy")).toBe(true)
    expect(r.limitations.length).toBe(limitations)
    expect(r.incomplete).toBe(false)
    expect(r.detail.nameservers).toEqual(nameservers.map((n) => n.name))
    expect(r.detail.nameserver_addresses).toEqual(Object.fromEntries(nameservers.map((n) => [n.name, n.ips])))
  })
})
