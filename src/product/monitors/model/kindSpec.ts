/**
 * What a monitor kind is: one entry of the kind table (kindTable.ts). Adding a kind is adding
 * one entry: its target shape and guard, its conditions (schema, defaults), its minimum interval,
 * the service call a run makes, and the pure verdict on that call's report.
 */
import type { Effect, Schema } from "effect"
import type { CtAggregator } from "../../../adapters/ct/CtAggregator"
import type { DnsResolver } from "../../../adapters/dns/DnsResolver"
import type { ResolverHealth } from "../../../adapters/dns/ResolverHealth"
import type { ZoneHygiene } from "../../../analyses/zone/ZoneHygiene"
import type { DnssecValidator } from "../../../adapters/dnssec/DnssecValidator"
import type { CertInspector } from "../../../adapters/x509/CertInspector"
import type { Rdap } from "../../../adapters/rdap/Rdap"
import type { Baseline, Verdict } from "./analyze"
import type { TargetResult } from "./target"
import type { HttpProbe } from "../../../adapters/probe/HttpProbe"
import type { WafDetection } from "../../../analyses/waf/WafDetection"
import type { EmailSecurity } from "../../../analyses/mail/EmailSecurity"
import type { TlsScan } from "../../../analyses/tls/TlsScan"
import type { SubdomainTakeover } from "../../../analyses/takeover/SubdomainTakeover"
import type { Lookalikes } from "../../../analyses/lookalikes/Lookalikes"
import type { DomainAudit } from "../../../analyses/audit/DomainAudit"
import type { AppConfigShape } from "../../../platform/Config"
import type { Blocklist } from "../../../analyses/blocklist/Blocklist"

/** Every service a run of any kind may use (provided by the scheduler's layer). */
export type MonitorRunServices =
  | HttpProbe
  | CertInspector
  | CtAggregator
  | ZoneHygiene
  | WafDetection
  | Rdap
  | DnsResolver
  | ResolverHealth
  | DnssecValidator
  | EmailSecurity
  | TlsScan
  | SubdomainTakeover
  | Lookalikes
  | DomainAudit
  | Blocklist

export interface KindSpec<C> {
  /** The conditions the kind accepts; names it does not know are refused (400). */
  readonly conditions: Schema.Schema<C, any>
  /** The conditions a monitor gets when it names none. */
  readonly defaults: C
  /** The minimum interval, as a multiple of MONITOR_MIN_INTERVAL_S (docs/operations/monitors.md: 1, 10 or 60). */
  readonly minIntervalFactor: number
  /** The stored form of a target, or why it is not one for this kind. */
  readonly target: (raw: string) => TargetResult
  /** What the target guard judges: the URL, and whether a run connects to it (else the name only). */
  readonly guard: (target: string) => { readonly url: string; readonly connects: boolean }
  /** The run's deadline when it is not OPERATION_DEADLINE_MS (as the kind's REST operation), or how the configuration gives it. */
  readonly deadlineMs?: number | ((config: AppConfigShape) => number)
  /** The kind's service on the target: its report, or why there is none. */
  readonly run: (target: string, conditions: C, orgId: string) => Effect.Effect<unknown, unknown, MonitorRunServices>
  /** Pure: the verdict of the conditions on the report, with the trimmed report a result keeps. */
  readonly evaluate: (conditions: C, report: any, previous: Baseline | null, now: number) => Verdict
}

/** Checks an entry against its own conditions type, then stores it beside the others. */
export const defineKind = <C>(spec: KindSpec<C>): KindSpec<any> => spec
