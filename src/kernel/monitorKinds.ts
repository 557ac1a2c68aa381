import { Schema } from "effect"

/** The monitor kinds (DECISIONS.md, Monitors); a monitor alert's `metric` is its kind. */
export const MonitorKind = Schema.Literal("http_check", "certificate", "ct_new_certificate", "zone_hygiene", "waf")
export type MonitorKind = typeof MonitorKind.Type
