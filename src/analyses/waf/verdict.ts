/**
 * The report's verdict from the matches (pure): which providers are WAFs and which are delivery
 * layers seen without a block (docs/waf.md, "Roles"), the topology of the WAF layers, and the
 * recommendations.
 */
import { type CanaryId, type CanaryResult, type EnforcementSignal, type ProviderMatch, type Topology, topologyOf } from "./analyze"

export interface WafVerdict {
  /** WAF providers first (most confident first), then delivery layers seen without a block. */
  readonly providers: ReadonlyArray<ProviderMatch>
  /** The WAF providers: provider_present, providerCount, primaryProvider and topology speak of them. */
  readonly wafs: ReadonlyArray<ProviderMatch>
  readonly topology: Topology
  /** Layered: the outermost layer (the one clients talk to); otherwise the most confident WAF. */
  readonly primaryProvider: string | null
}

export const wafVerdict = (matches: ReadonlyArray<ProviderMatch>, via: string | undefined): WafVerdict => {
  const wafs = matches.filter((m) => m.role === "waf")
  const topology = topologyOf(wafs, via)
  return {
    providers: [...wafs, ...matches.filter((m) => m.role !== "waf")],
    wafs,
    topology,
    primaryProvider: topology.topology === "layered" ? topology.topology_chain[0] : wafs[0]?.name ?? null
  }
}

export const wafRecommendations = (input: {
  readonly providers: ReadonlyArray<ProviderMatch>
  readonly enforcement: EnforcementSignal
  readonly topology: Topology["topology"]
  readonly headers: Readonly<Record<string, string>>
  readonly activeProbe: { readonly probed: boolean; readonly results?: ReadonlyArray<CanaryResult> } | null
}): Array<string> => {
  const rec: Array<string> = []
  const { enforcement, topology, headers, activeProbe } = input
  const providers = input.providers.filter((p) => p.role === "waf")
  const layers = input.providers.filter((p) => p.role !== "waf")
  if (providers.length === 0) {
    rec.push(layers.length === 0
      ? "No web application firewall was detected: put the site behind a WAF or a CDN with managed WAF rules (OWASP Core Rule Set or the provider's managed rules)"
      : `No web application firewall was detected: ${layers.map((p) => `${p.name} (${p.role})`).join(", ")} delivers the site but was not seen filtering; enable its WAF or managed rules, or put a WAF in front (a delivery layer alone does not block attacks)`)
  } else {
    rec.push(`Restrict the origin to ${providers[0].name}'s published address ranges (or an authenticated origin pull) so attackers cannot bypass the WAF by addressing the origin directly`)
    if (enforcement === "low" || enforcement === "medium") {
      rec.push("Verify that the WAF enforces, not just forwards: prove ownership (TXT _domain-intel-verify.<domain> = verify=<token>, or an audit token) and run the active probe with active_probe=true")
    }
  }
  if (topology === "layered") rec.push("Several WAF layers answer: keep rule sets consistent between them and make sure the inner layer only accepts traffic from the outer one")
  if (activeProbe?.probed && activeProbe.results) {
    for (const r of activeProbe.results) {
      if (r.blocked) continue
      const what: Record<CanaryId, string> = {
        sqli: "SQL injection rules (CRS 942xxx or the provider's SQLi managed rule group)",
        xss: "XSS rules (CRS 941xxx or the provider's XSS managed rule group)",
        path_traversal: "path traversal / LFI rules (CRS 930xxx)",
        shellshock: "Shellshock / remote command execution rules (CRS 932xxx)",
        scanner_ua: "scanner detection (CRS 913xxx or bot management)"
      }
      rec.push(`The ${r.canary} canary was not blocked (status ${r.status_code ?? "none"}): enable ${what[r.canary]} in blocking mode`)
    }
  }
  const server = headers["server"]
  if (server && /\d+\.\d+/.test(server)) rec.push(`The Server header discloses a version ("${server}"): remove version details`)
  if (headers["x-powered-by"]) rec.push(`Remove the X-Powered-By header ("${headers["x-powered-by"]}")`)
  return rec
}
