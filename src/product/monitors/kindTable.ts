/**
 * The monitor kinds (docs/operations/monitors.md, "Kinds"): one entry each. The
 * API's `kind` enumeration, the conditions accepted, the minimum interval, the guard and the run
 * all come from here, so a kind that is not in this table is not exposed.
 */
import { MonitorKind } from "../../kernel/monitorKinds"
import type { KindSpec } from "./model/kindSpec"
import { certificateKind, ctKind, httpCheckKind, wafKind, zoneKind } from "./kinds/classic"
import { dnsRecordsKind } from "./kinds/dnsRecords"
import { dnssecKind } from "./kinds/dnssec"
import { domainExpiryKind } from "./kinds/domainExpiry"
import { emailSecurityKind, tlsKind } from "./kinds/security"
import { takeoverKind } from "./kinds/takeover"
import { lookalikesKind } from "./kinds/lookalikes"
import { auditKind } from "./kinds/audit"
import { blocklistKind } from "./kinds/blocklist"

export const kindTable = {
  http_check: httpCheckKind,
  certificate: certificateKind,
  ct_new_certificate: ctKind,
  zone_hygiene: zoneKind,
  waf: wafKind,
  domain_expiry: domainExpiryKind,
  dns_records: dnsRecordsKind,
  dnssec: dnssecKind,
  email_security: emailSecurityKind,
  tls: tlsKind,
  takeover: takeoverKind,
  lookalikes: lookalikesKind,
  audit: auditKind,
  blocklist: blocklistKind
} satisfies Record<MonitorKind, KindSpec<any>>

export { MonitorKind }

/** The shortest interval a kind accepts, given MONITOR_MIN_INTERVAL_S. */
export const minIntervalS = (kind: MonitorKind, minS: number) => kindTable[kind].minIntervalFactor * minS
