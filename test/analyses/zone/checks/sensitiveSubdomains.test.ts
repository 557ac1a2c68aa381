import { describe, expect, test } from "bun:test"
import { sensitiveSubdomains } from "../../../../src/analyses/zone/checks/sensitiveSubdomains"
import type { ExposedName, ZoneObservations } from "../../../../src/analyses/zone/model/observations"

const a = (name: string, ips: Array<string>, cname: string | null = null): ExposedName =>
  ({ name, ips, record_type: cname ? "CNAME" : "A", cname_target: cname })
const noWild: ZoneObservations["wildcard"] = { probes: [], ips: [], cname_target: null }

describe("sensitive_subdomains", () => {
  const table: Array<[string, Array<ExposedName>, ZoneObservations["wildcard"], Array<string>]> = [
    ["nothing resolves", [], noWild, []],
    ["two names resolve", [a("admin.x.test", ["192.0.2.1"]), a("vpn.x.test", ["192.0.2.2"])], noWild, ["admin.x.test", "vpn.x.test"]],
    ["answers of an address wildcard are not exposures", [a("admin.x.test", ["192.0.2.9"]), a("vpn.x.test", ["192.0.2.9", "192.0.2.2"])], { probes: [], ips: ["192.0.2.9"], cname_target: null }, ["vpn.x.test"]],
    ["answers of a CNAME wildcard are not exposures (case and trailing dot ignored)", [a("admin.x.test", ["192.0.2.9"], "LB.y.test."), a("vpn.x.test", ["192.0.2.9"], "other.y.test")], { probes: [], ips: ["192.0.2.9"], cname_target: "lb.y.test" }, ["vpn.x.test"]],
    ["an incomplete wildcard filters nothing", [a("admin.x.test", ["192.0.2.9"])], { incomplete: "timeout" }, ["admin.x.test"]]
  ]
  test.each(table)("%s", (_, resolved, wildcard, exposed) => {
    const r = sensitiveSubdomains({ sensitive: { probed: 60, resolved, errors: 0 }, wildcard })
    expect(r.detail.exposed_subdomains.map((e) => e.name)).toEqual(exposed)
    expect(r.detail.exposed_count).toBe(exposed.length)
    expect(r.findings.length).toBe(exposed.length > 0 ? 1 : 0)
    if (exposed.length > 0) {
      expect(r.findings[0].severity).toBe("medium")
      expect(r.findings[0].message).toBe(`${exposed.length} sensitive subdomain${exposed.length === 1 ? "" : "s"} resolve publicly: ${exposed.join(", ")}`)
    }
    expect(r.incomplete).toBe(false)
  })

  test("failed lookups are a limitation; an incomplete check is one too", () => {
    expect(sensitiveSubdomains({ sensitive: { probed: 60, resolved: [], errors: 3 }, wildcard: noWild }).limitations).toEqual(["3 sensitive-name lookups failed (timeout or server failure) and are not counted"])
    const inc = sensitiveSubdomains({ sensitive: { incomplete: "boom" }, wildcard: noWild })
    expect(inc.incomplete).toBe(true)
    expect(inc.findings.map((f) => f.severity)).toEqual(["info"])
  })
})
