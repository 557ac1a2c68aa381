import { describe, expect, test } from "bun:test"
import { wildcard, wildcardAnswer } from "../../../../src/analyses/zone/checks/wildcard"
import type { WildcardObservation } from "../../../../src/analyses/zone/model/observations"

const w = (ips: Array<string>, cname: string | null = null): WildcardObservation => ({ probes: ["a.x.test", "b.x.test"], ips, cname_target: cname })

describe("wildcard", () => {
  const table: Array<[string, WildcardObservation | { incomplete: string }, boolean, Array<string>, Array<RegExp>, number]> = [
    ["no wildcard", w([]), false, [], [], 0],
    ["address wildcard", w(["192.0.2.9", "2001:db8::9"]), true, ["192.0.2.9", "2001:db8::9"], [/x\.test has a wildcard record: random names resolve to 192\.0\.2\.9, 2001:db8::9/], 0],
    ["CNAME wildcard: no addresses, a limitation", w(["192.0.2.9"], "lb.y.test"), true, [], [/wildcard CNAME \(\*\.x\.test -> lb\.y\.test\)/], 1],
    ["incomplete", { incomplete: "timeout" }, false, [], [/The wildcard check could not complete: timeout/], 1]
  ]
  test.each(table)("%s", (_, obs, detected, ips, messages, limitations) => {
    const r = wildcard({ domain: "x.test", wildcard: obs })
    expect(r.detail.wildcard_detected).toBe(detected)
    expect(r.detail.wildcard_ips).toEqual(ips)
    expect(r.findings.length).toBe(messages.length)
    messages.forEach((m, i) => expect(r.findings[i].message).toMatch(m))
    expect(r.findings.every((f) => f.severity === ("incomplete" in obs ? "info" : "medium"))).toBe(true)
    expect(r.limitations.length).toBe(limitations)
  })

  test("what the sensitive-names filter compares with", () => {
    expect(wildcardAnswer(w(["192.0.2.9"]))).toEqual({ ips: ["192.0.2.9"], cname: null })
    expect(wildcardAnswer(w(["192.0.2.9"], "lb.y.test"))).toEqual({ ips: [], cname: "lb.y.test" })
    expect(wildcardAnswer({ incomplete: "timeout" })).toEqual({ ips: [], cname: null })
  })
})
