import { describe, expect, test } from "bun:test"
import { zoneTransfer } from "../../../../src/analyses/zone/checks/zoneTransfer"
import type { AxfrObservation } from "../../../../src/analyses/zone/model/observations"

const x = (nameserver: string, allowed: boolean): AxfrObservation =>
  ({ nameserver, ip: "192.0.2.1", allowed, records: allowed ? 12 : 0, status: allowed ? "allowed" : "refused (REFUSED)" })

describe("zone_transfer", () => {
  const table: Array<[string, Array<AxfrObservation> | { incomplete: string }, Array<string>, boolean]> = [
    ["all refuse", [x("a.x.test", false), x("b.x.test", false)], [], false],
    ["one allows", [x("a.x.test", true), x("b.x.test", false)], ["Zone transfer (AXFR) of x.test is allowed to anyone by a.x.test (192.0.2.1, 12 records)"], true],
    ["both allow: one finding naming both", [x("a.x.test", true), x("b.x.test", true)], ["Zone transfer (AXFR) of x.test is allowed to anyone by a.x.test (192.0.2.1, 12 records), b.x.test (192.0.2.1, 12 records)"], true],
    ["incomplete", { incomplete: "timeout" }, ["The zone_transfer check could not complete: timeout"], false]
  ]
  test.each(table)("%s", (_, obs, messages, vulnerable) => {
    const r = zoneTransfer({ domain: "x.test", axfr: obs })
    expect(r.findings.map((f) => f.message)).toEqual(messages)
    expect(r.findings.every((f) => f.severity === ("incomplete" in obs ? "info" : "high"))).toBe(true)
    expect(r.detail.zone_transfer_vulnerable).toBe(vulnerable)
    expect(r.detail.zone_transfer).toEqual("incomplete" in obs ? [] : obs)
    expect(r.incomplete).toBe("incomplete" in obs)
  })
})
