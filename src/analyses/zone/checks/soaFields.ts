/** Check 3: the apex SOA's timers against the bounds of docs/operations/zone-hygiene.md, "The checks". */
import { collector } from "../model/findings"
import { isIncomplete, type SoaFields, type ZoneObservations } from "../model/observations"

export interface SoaFieldValidation {
  readonly field: "refresh" | "retry" | "expire" | "minimum"
  readonly value: number | null
  readonly recommended_min: number | null
  readonly recommended_max: number | null
  readonly status: "ok" | "too_low" | "too_high" | "unknown"
}

/** docs/operations/zone-hygiene.md, "The checks": refresh >= 24h, retry >= 2h, expire >= 14d, minimum <= 24h. */
export const SOA_BOUNDS = {
  refresh: { min: 86400, max: null },
  retry: { min: 7200, max: null },
  expire: { min: 1209600, max: null },
  minimum: { min: null, max: 86400 }
} as const

export const validateSoaFields = (soa: SoaFields | null): ReadonlyArray<SoaFieldValidation> =>
  (["refresh", "retry", "expire", "minimum"] as const).map((field) => {
    const b = SOA_BOUNDS[field]
    const value = soa ? soa[field] : null
    const status = value === null
      ? "unknown"
      : b.min !== null && value < b.min
      ? "too_low"
      : b.max !== null && value > b.max
      ? "too_high"
      : "ok"
    return { field, value, recommended_min: b.min, recommended_max: b.max, status }
  })

export const soaFields = (o: Pick<ZoneObservations, "soa_apex">) => {
  const c = collector("soa_fields")
  const apex = isIncomplete(o.soa_apex) ? null : o.soa_apex
  if (isIncomplete(o.soa_apex)) c.cannot(o.soa_apex)
  const fieldValidation = validateSoaFields(apex)
  for (const v of fieldValidation) {
    if (v.status === "too_low" || v.status === "too_high") {
      const bound = v.status === "too_low" ? `at least ${v.recommended_min}` : `at most ${v.recommended_max}`
      c.add("low", `SOA ${v.field} is ${v.value} s; recommended ${bound} s`, `Set the SOA ${v.field} to ${bound} seconds.`)
    }
  }
  return c.done({ soa_field_validation: fieldValidation })
}
