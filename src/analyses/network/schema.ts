/** The HTTP uptime check report (docs/operations/http-check.md, "Report"): the REST answer, the MCP tool and monitor runs. */
import { Schema } from "effect"

const Nullable = <S extends Schema.Schema.Any>(s: S) => Schema.NullOr(s)

export const HttpCheckReport = Schema.Struct({
  url: Schema.String,
  final_url: Schema.String,
  method: Schema.Literal("HEAD", "GET"),
  status: Schema.Struct({ code: Nullable(Schema.Number), ok: Schema.Boolean, text: Nullable(Schema.String) }),
  timings: Schema.Struct({
    total_ms: Schema.Number,
    dns_ms: Schema.Number,
    connect_ms: Nullable(Schema.Number),
    tls_ms: Nullable(Schema.Number),
    ttfb_ms: Nullable(Schema.Number)
  }),
  content_length_bytes: Nullable(Schema.Number),
  body_truncated: Schema.Boolean,
  headers: Schema.Struct({
    content_type: Nullable(Schema.String),
    server: Nullable(Schema.String),
    cache_control: Nullable(Schema.String),
    content_length: Nullable(Schema.String),
    strict_transport_security: Nullable(Schema.String),
    content_security_policy: Nullable(Schema.String),
    x_content_type_options: Nullable(Schema.String),
    x_frame_options: Nullable(Schema.String),
    referrer_policy: Nullable(Schema.String),
    permissions_policy: Nullable(Schema.String),
    cross_origin_resource_policy: Nullable(Schema.String),
    alt_svc: Nullable(Schema.String)
  }),
  security_summary: Schema.Struct({
    hsts_enabled: Schema.Boolean,
    hsts_max_age: Nullable(Schema.Number),
    csp_enabled: Schema.Boolean,
    x_content_type_options_nosniff: Schema.Boolean,
    x_frame_options_enabled: Schema.Boolean,
    referrer_policy_set: Schema.Boolean
  }),
  advertised_http_versions: Schema.Array(Schema.String),
  redirects: Schema.Array(Schema.Struct({ from: Schema.String, to: Schema.String, status: Schema.Number, time_ms: Schema.Number })),
  ssl: Schema.Struct({
    verified: Nullable(Schema.Boolean),
    error: Nullable(Schema.String),
    protocol: Nullable(Schema.String),
    cipher: Nullable(Schema.String)
  }),
  error: Nullable(Schema.String),
  error_detail: Nullable(Schema.String),
  checked_at: Schema.String
})
export type HttpCheckReport = typeof HttpCheckReport.Type
