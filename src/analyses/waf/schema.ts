/** The WAF Detection report (docs/operations/waf-detection.md, "Report"): one contract for the REST answer, the MCP tool and monitors. */
import { Schema } from "effect"

const N = <S extends Schema.Schema.Any>(s: S) => Schema.NullOr(s)

const Evidence = Schema.Struct({
  kind: Schema.Literal("block-header", "header", "server", "cookie", "body", "status"),
  detail: Schema.String,
  weight: Schema.Number
})

export const ProviderOut = Schema.Struct({
  name: Schema.String,
  vendor: Schema.String,
  confidence: Schema.Number.annotations({ description: "0-1, noisy-OR of the matched signature weights" }),
  confidence_level: Schema.Literal("high", "medium", "low"),
  role: Schema.Literal("waf", "cdn", "hosting", "proxy").annotations({
    description: "waf: a security service, or a delivery layer seen refusing or challenging the request; cdn, hosting, proxy: a delivery layer (CDN, hosting platform, load balancer or gateway) seen without a block, which does not count as a WAF"
  }),
  evidence: Schema.Array(Evidence),
  last_verified_at: Schema.String,
  source_url: Schema.String
})

export const Canary = Schema.Struct({
  canary: Schema.Literal("sqli", "xss", "path_traversal", "shellshock", "scanner_ua"),
  description: Schema.String,
  blocked: Schema.Boolean,
  status_code: N(Schema.Number),
  reason: Schema.String,
  provider: N(Schema.String),
  elapsed_ms: Schema.Number,
  error: N(Schema.String)
})

export const ActiveProbe = Schema.Union(
  Schema.Struct({
    probed: Schema.Literal(false),
    ownership_verified: Schema.Literal(false),
    method: Schema.Null,
    refusal_reason: Schema.String
  }),
  Schema.Struct({
    probed: Schema.Literal(true),
    ownership_verified: Schema.Literal(true),
    method: Schema.Literal("dns_txt", "audit_token"),
    verified_name: Schema.String,
    target: Schema.String,
    canaries: Schema.Array(Canary),
    summary: Schema.Struct({
      canaries_sent: Schema.Number,
      blocked: Schema.Number,
      passed: Schema.Number,
      enforcement: Schema.Literal("verified", "partial", "none")
    })
  })
)

export const WafReport = Schema.Struct({
  domain: Schema.String,
  url: Schema.String,
  final_url: Schema.String,
  detected: Schema.Boolean.annotations({ description: "Deprecated: use provider_present" }),
  provider_present: Schema.Boolean.annotations({ description: "A WAF provider was detected (a delivery layer seen without a block does not count)" }),
  enforcement_signal: Schema.Literal("low", "medium", "high", "verified"),
  block_category: Schema.Literal("none", "waf-block", "rate-limit", "provider-block", "country-block", "custom-block"),
  status_code: N(Schema.Number),
  primaryProvider: N(Schema.String),
  providers: Schema.Array(ProviderOut),
  providerCount: Schema.Number.annotations({ description: "The number of WAF providers: the first providerCount entries of providers" }),
  topology: N(Schema.Literal("single", "layered")),
  topology_chain: Schema.Array(Schema.String),
  active_probe: N(ActiveProbe),
  recommendations: Schema.Array(Schema.String),
  error: N(Schema.String),
  response_time_ms: Schema.Number
})
