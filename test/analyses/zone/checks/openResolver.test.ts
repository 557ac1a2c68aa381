import { describe, expect, test } from "bun:test"
import { openResolver } from "../../../../src/analyses/zone/checks/openResolver"
import type { OpenResolverObservation } from "../../../../src/analyses/zone/model/observations"

const r = (nameserver: string, open: boolean, status = open ? "recursive_answer" : "refused"): OpenResolverObservation =>
  ({ nameserver, ip: "192.0.2.1", is_open_resolver: open, status })

describe("open_resolver", () => {
  const table: Array<[string, Array<OpenResolverObservation> | { incomplete: string }, Array<string>, number]> = [
    ["none recurse", [r("a.x.test", false), r("b.x.test", false, "no_recursion")], [], 0],
    ["one recurses", [r("a.x.test", true), r("b.x.test", false)], ["high"], 1],
    ["both recurse", [r("a.x.test", true), r("b.x.test", true)], ["high", "high"], 2],
    ["nothing queried", [], [], 0],
    ["incomplete", { incomplete: "timeout" }, ["info"], 0]
  ]
  test.each(table)("%s", (_, obs, severities, detected) => {
    const out = openResolver({ open_resolver: obs })
    expect(out.findings.map((f) => f.severity)).toEqual(severities as any)
    expect(out.detail.open_resolvers_detected).toBe(detected)
    expect(out.detail.open_resolver_check).toEqual("incomplete" in obs ? [] : obs)
    expect(out.incomplete).toBe("incomplete" in obs)
  })

  test("the finding names the server", () => {
    expect(openResolver({ open_resolver: [r("a.x.test", true)] }).findings[0].message).toBe("Nameserver a.x.test (192.0.2.1) answers recursive queries for anyone (open resolver)")
  })
})
