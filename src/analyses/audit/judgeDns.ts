/**
 * The dns and exposure sections of the domain audit (pure), from the Zone Hygiene report, the
 * name servers' IPv6 observations, the takeover report and the blocklist report
 * (docs/operations/domain-audit.md, "DNS" and "Exposure").
 */
import type { BlocklistReport } from "../blocklist/schema"
import type { ZoneHygieneReport } from "../zone/schema"
import { CHECKS } from "./checks"
import { dnsIpv6, type NameserverIpv6 } from "./ipv6"
import { blocklistStanding, type CheckResult, decided, from, fromVerdict, type Input, undecided } from "./judge"
import type { TakeoverInput } from "./takeoverRef"

export interface DnsInputs {
  readonly zone: Input<ZoneHygieneReport>
  /** Each name server's AAAA addresses and whether each answered a query over IPv6. */
  readonly nameservers: Input<ReadonlyArray<NameserverIpv6>>
}

const ZONE_PASSING = new Set(["A", "B"])

export const judgeDns = (d: DnsInputs): ReadonlyArray<CheckResult> => [
  from("dns_dnssec", d.zone, (z) => {
    const status = z.composite.dnssec_status
    if (status === "indeterminate") return undecided("dns_dnssec", `DNSSEC could not be determined${z.composite.dnssec_reason ? ` (${z.composite.dnssec_reason})` : ""}`)
    return decided("dns_dnssec", status === "secure", status === "secure" ? null : `${status}${z.composite.dnssec_reason ? ` (${z.composite.dnssec_reason})` : ""}`)
  }),
  from("dns_zone", d.zone, (z) => decided("dns_zone", ZONE_PASSING.has(z.hygiene_grade), `grade ${z.hygiene_grade} (${z.hygiene_score})`)),
  from("dns_ipv6", d.nameservers, (ns) => fromVerdict("dns_ipv6", dnsIpv6(ns))),
  from("dns_caa", d.zone, (z) =>
    z.caa === null
      ? undecided("dns_caa", "the CAA records could not be read")
      : decided("dns_caa", z.composite.has_caa, z.caa.found_at ? `found at ${z.caa.found_at}` : null))
]

export interface ExposureInputs {
  readonly domain: string
  readonly takeover: Input<TakeoverInput>
  /** The blocklist report whose `lists` hold the domain (domain lists) and the web addresses (IP lists). */
  readonly blocklist: Input<BlocklistReport>
  /** The web host's A and AAAA addresses. */
  readonly webAddresses: ReadonlyArray<string>
}

export const judgeExposure = (x: ExposureInputs): ReadonlyArray<CheckResult> => [
  from("exposure_takeover", x.takeover, (t) => {
    const confirmed = t.candidates.filter((c) => c.confidence === "confirmed").length
    const potential = t.candidates.filter((c) => c.confidence === "potential").length
    if (confirmed + potential === 0) return decided("exposure_takeover", true, t.candidates.length > 0 ? `${t.candidates.length} unlikely candidate(s) only` : null)
    const detail = [confirmed > 0 ? `${confirmed} confirmed` : "", potential > 0 ? `${potential} potential` : ""].filter(Boolean).join(", ")
    return decided("exposure_takeover", false, detail, confirmed > 0 ? CHECKS.exposure_takeover.escalation!.severity : CHECKS.exposure_takeover.severity)
  }),
  from("exposure_blocklist", x.blocklist, (b) => blocklistStanding("exposure_blocklist", b, [x.domain, ...x.webAddresses]))
]
