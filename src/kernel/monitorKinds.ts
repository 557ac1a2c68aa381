/**
 * The monitor kinds (docs/operations/monitors.md, "Kinds"), by name; a monitor alert's `metric` is
 * its kind. Each has exactly one entry in the kind table (src/product/monitors/kindTable.ts), which
 * the type checker holds to this list, so a name here without a built kind, or a kind without its
 * name, does not compile.
 */
import { Schema } from "effect"

export const MonitorKind = Schema.Literal(
  "http_check",
  "certificate",
  "ct_new_certificate",
  "zone_hygiene",
  "waf",
  "domain_expiry",
  "dns_records",
  "dnssec",
  "email_security",
  "tls",
  "takeover",
  "lookalikes",
  "audit",
  "blocklist"
)
export type MonitorKind = typeof MonitorKind.Type
