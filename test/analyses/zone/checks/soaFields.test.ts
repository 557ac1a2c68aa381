import { describe, expect, test } from "bun:test"
import { soaFields, validateSoaFields } from "../../../../src/analyses/zone/checks/soaFields"
import type { SoaFields } from "../../../../src/analyses/zone/model/observations"

const base: SoaFields = { serial: 1, primary_ns: "ns1.x.test", rname: "h.x.test", refresh: 86400, retry: 7200, expire: 1209600, minimum: 86400 }

describe("soa_fields", () => {
  const table: Array<[string, SoaFields | { incomplete: string }, Array<string>, Array<string>]> = [
    ["at the bounds", base, ["ok", "ok", "ok", "ok"], []],
    ["refresh too low", { ...base, refresh: 3600 }, ["too_low", "ok", "ok", "ok"], ["SOA refresh is 3600 s; recommended at least 86400 s"]],
    ["retry and expire too low", { ...base, retry: 600, expire: 604800 }, ["ok", "too_low", "too_low", "ok"], ["SOA retry is 600 s; recommended at least 7200 s", "SOA expire is 604800 s; recommended at least 1209600 s"]],
    ["minimum too high", { ...base, minimum: 86401 }, ["ok", "ok", "ok", "too_high"], ["SOA minimum is 86401 s; recommended at most 86400 s"]],
    ["incomplete", { incomplete: "no SOA for x.test (NXDOMAIN)" }, ["unknown", "unknown", "unknown", "unknown"], ["The soa_fields check could not complete: no SOA for x.test (NXDOMAIN)"]]
  ]
  test.each(table)("%s", (_, apex, statuses, messages) => {
    const r = soaFields({ soa_apex: apex })
    expect(r.detail.soa_field_validation.map((v) => v.status)).toEqual(statuses as any)
    expect(r.findings.map((f) => f.message)).toEqual(messages)
    expect(r.incomplete).toBe("incomplete" in apex)
    expect(r.limitations.length).toBe("incomplete" in apex ? 1 : 0)
  })

  test("recommendations name the bound", () => {
    expect(soaFields({ soa_apex: { ...base, refresh: 1 } }).findings[0].recommendation).toBe("Set the SOA refresh to at least 86400 seconds.")
    expect(validateSoaFields(base).map((v) => v.value)).toEqual([86400, 7200, 1209600, 86400])
  })
})
