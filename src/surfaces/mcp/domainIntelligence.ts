/** The `domain_intelligence` tool's report: DNS, registration, certificate and the HTTP security grade in one. */
import { Schema } from "effect"
import { SecurityHeadersReport } from "../../analyses/observatory/schema"
import { CertReport, DnsReport, Failed, WhoisReport } from "../../kernel/lookupReports"

const N = <S extends Schema.Schema.Any>(s: S) => Schema.NullOr(s)

export const DomainIntelligenceReport = Schema.Struct({
  domain: Schema.String,
  checked_at: Schema.String,
  dns: Schema.Struct({
    records: Schema.Record({
      key: Schema.String,
      value: Schema.Union(Schema.Array(Schema.Struct({ value: Schema.String, ttl: Schema.Number })), Failed)
    }).annotations({ description: "A, AAAA, MX, NS, TXT, CAA: the values with TTLs, or {error} when that query failed" }),
    rcode: N(Schema.String)
  }),
  ssl: Schema.Union(CertReport, Failed),
  security_headers: Schema.Union(SecurityHeadersReport, Failed),
  summary: Schema.Struct({
    resolves: Schema.Boolean,
    certificate_valid: N(Schema.Boolean),
    certificate_days_left: N(Schema.Number),
    headers_grade: N(SecurityHeadersReport.fields.grade),
    headers_score: N(Schema.Number)
  })
})
