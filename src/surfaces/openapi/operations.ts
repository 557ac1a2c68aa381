/**
 * The prose of the OpenAPI document: one summary and description per operation (keyed by the
 * endpoint name, which is also the operation id the metrics and logs use), descriptions of the
 * parameters whose schema carries none, and the tags. An endpoint's own `OpenApi.Summary` /
 * `OpenApi.Description` annotations win over this table; an operation missing from both gets a
 * summary made from its name, so a new endpoint never leaves the document without one.
 */

export interface OperationText {
  readonly summary: string
  readonly description?: string
}

export const OPERATIONS: Record<string, OperationText> = {
  healthz: { summary: "Liveness probe", description: "Answers `{\"status\":\"ok\"}` while the process serves HTTP. No key needed." },
  readyz: { summary: "Readiness probe", description: "Answers 200 once the database answers, 503 otherwise. No key needed." },
  httpCheck: {
    summary: "Check a URL: status, timings, headers, TLS and redirects",
    description:
      "Fetches the URL (HEAD by default) from the service, following redirects up to `max_redirects`, and reports the status, DNS/connect/TLS/first-byte timings, selected headers with a security summary, the redirect chain and the TLS outcome. A target that does not answer is a 200 with `error` set (`timeout`, `dns`, `connection_refused`, `tls`, …), not an HTTP error. Private, loopback and metadata addresses are refused with `target_forbidden`."
  },
  performanceMetrics: {
    summary: "Latency percentiles, error rate and a timeline of your requests",
    description: "Average, p50/p95/p99 latency and error rate of the organization's requests over `period`, with a timeline."
  },
  usageSummary: {
    summary: "Requests by category and day, and the monthly quota",
    description: "Counts of the organization's requests over `period`, by category and by day, and the quota of the current month."
  },
  cacheStatistics: {
    summary: "Cache hit rate by endpoint and what it saved",
    description: "Hits and misses of the cached operations over `period`, by endpoint, and the requests and latency the cache saved."
  },
  createAlertRule: { summary: "Create an alert rule", description: "A condition over the organization's metrics, evaluated every minute, notifying webhook and email channels." },
  listAlertRules: { summary: "List alert rules" },
  getAlertRule: { summary: "Get one alert rule" },
  updateAlertRule: { summary: "Update an alert rule", description: "Partial update: only the fields sent change." },
  deleteAlertRule: { summary: "Delete an alert rule" },
  listAlertHistory: { summary: "List fired alerts, newest first" },
  acknowledgeAlert: { summary: "Acknowledge a fired alert" },
  resolveAlert: { summary: "Resolve a fired alert", description: "409 `alert_already_resolved` when it was resolved before." },
  zoneHygiene: {
    summary: "Audit a DNS zone: nameservers, SOA, open resolvers, AXFR, CAA, DNSSEC",
    description:
      "Queries the zone's authoritative nameservers directly and through the service's resolvers, and grades the zone (A-F) with findings and recommendations. When the service's own resolvers do not answer, the answer is 502 `upstream_unavailable`, not a grade."
  },
  emailSecurity: {
    summary: "Email security of a domain: MX, SPF, DMARC, DKIM, MTA-STS, TLS-RPT, BIMI, DANE, STARTTLS",
    description:
      "Every mail-authentication and transport-security record of the domain, looked up in parallel and graded (A-F) like Zone Hygiene, with findings and the records to publish. SPF is evaluated per RFC 7208 (lookup and void-lookup limits), DMARC with the organizational-domain fallback, DANE only when DNSSEC-validated by the service. `starttls=true` also connects to each MX on SMTP_PORT. A target's broken DNS is a finding; 502 `upstream_unavailable` only when the service's own resolvers do not answer; 404 when the domain does not exist."
  },
  ctLogs: {
    summary: "Certificates logged in Certificate Transparency for a domain",
    description: "Certificates for the domain and its subdomains from a crt.sh-compatible aggregator, newest first, paginated with `offset`/`limit`, cached for CT_CACHE_TTL_S."
  },
  contentFreshness: {
    summary: "How fresh a site's content is",
    description: "Reads the home page, feeds and sitemaps and reports the newest dated content with the evidence for each date."
  },
  wafDetection: {
    summary: "Detect a web application firewall or CDN in front of a site",
    description:
      "Passive detection from headers, cookies, body and status. With `active_probe=true` and proven ownership (an audit token as the Bearer credential, or the `_domain-intel-verify` TXT record), five benign canary requests show what the WAF blocks; they go only to the verified host."
  },
  account: { summary: "The calling key's organization, plan and quota" },
  mcpServer: {
    summary: "Model Context Protocol server (JSON-RPC over HTTP)",
    description:
      "Streamable-HTTP MCP endpoint: POST one JSON-RPC 2.0 message (or, for protocol versions 2024-11-05 and 2025-03-26, a batch array). Tools run the same analyses as the REST operations; each `tools/call` counts as one request against the quota. Pro plan and above."
  }
}

/** Parameter descriptions where the schema has none, by `operation.parameter` or by parameter name. */
export const PARAMETERS: Record<string, string> = {
  id: "the resource's id, as returned when it was created",
  "ctLogs.domain": "the domain; its subdomains are included",
  "listAlertHistory.status": "only alerts in this state",
  "listAlertHistory.rule_id": "only alerts fired by this rule",
  "httpCheck.method": "HEAD (default) or GET; GET also reads up to 10 MiB of the body",
  "httpCheck.follow_redirects": "follow 3xx answers (default true)"
}

export const TAGS: ReadonlyArray<{ readonly name: string; readonly description: string }> = [
  { name: "system", description: "Health and readiness probes (no key)" },
  { name: "network", description: "HTTP checks of URLs" },
  { name: "dns", description: "DNS zone audits" },
  { name: "ct", description: "Certificate Transparency" },
  { name: "freshness", description: "Content freshness" },
  { name: "waf", description: "WAF and CDN detection" },
  { name: "analytics", description: "Your organization's usage, performance and cache statistics" },
  { name: "alerts", description: "Alert rules over your metrics and the alerts they fired" },
  { name: "account", description: "The calling key's organization, plan and quota" },
  { name: "mcp", description: "Model Context Protocol" }
]
