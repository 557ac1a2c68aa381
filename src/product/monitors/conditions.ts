/** Each monitor kind's conditions (DECISIONS.md "Monitors"), decided here for the API and the runner alike. */
import { Schema } from "effect"
import type { MonitorKind } from "../../kernel/monitorKinds"
import type { Conditions } from "./analyze"

const Flag = Schema.Boolean
const Grade = Schema.Literal("A", "B", "C", "D", "F")
const Severity = Schema.Literal("critical", "high", "medium", "low", "info")

/** The conditions each kind accepts (any that hold make a run not ok); unknown ones are refused. */
export const conditionSchemas = {
  http_check: Schema.Struct({
    status_not_ok: Schema.optional(Flag),
    total_ms_gt: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(1, 600_000))),
    error: Schema.optional(Flag)
  }),
  certificate: Schema.Struct({
    days_left_lt: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(0, 3650))),
    invalid: Schema.optional(Flag)
  }),
  ct_new_certificate: Schema.Struct({
    new_certificate: Schema.optional(Flag),
    issuer_not_in: Schema.optional(Schema.Array(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200))).pipe(
      Schema.minItems(1),
      Schema.maxItems(50)
    ))
  }),
  zone_hygiene: Schema.Struct({
    grade_below: Schema.optional(Grade),
    new_finding_severity_at_least: Schema.optional(Severity)
  }),
  waf: Schema.Struct({
    provider_changed: Schema.optional(Flag),
    provider_absent: Schema.optional(Flag)
  })
} satisfies Record<MonitorKind, Schema.Schema<Conditions, any>>
