import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"
import { Auth } from "../../product/auth/Auth"
import { TargetForbiddenWire } from "../../kernel/errors"
import { OperationDeadline, PlanLabel } from "../../platform/http/Operation"
import { IntParam } from "./params"

export const HttpCheckParams = Schema.Struct({
  url: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(2048)).annotations({
    description: "Full http(s) URL, bare host name or IP address; http:// is prepended when no scheme is given"
  }),
  method: Schema.optional(
    Schema.transform(Schema.String, Schema.Literal("HEAD", "GET"), {
      strict: false,
      decode: (s) => s.toUpperCase(),
      encode: (s) => s
    }).annotations({ description: "HEAD (default) or GET" })
  ),
  follow_redirects: Schema.optional(Schema.BooleanFromString.annotations({ description: "default true" })),
  max_redirects: Schema.optional(IntParam({ min: 0, max: 10, default: 5, description: "redirects followed at most (when follow_redirects is true)" })),
  timeout: Schema.optional(IntParam({ min: 1000, max: 30000, default: 10000, description: "milliseconds for the whole check, redirects included" }))
})

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

/** The whole check (redirects included) ends within `timeout`; the answer comes at most this later. */
export const HTTP_CHECK_MARGIN_MS = 2000
export const HTTP_CHECK_MAX_TIMEOUT_MS = 30000

/** http-check's deadline: its own `timeout` (default 10000) + the margin. */
const httpCheckDeadline = (query: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>) => {
  const t = Number(query.timeout)
  const timeout = Number.isInteger(t) && t >= 1000 && t <= HTTP_CHECK_MAX_TIMEOUT_MS ? t : 10000
  return timeout + HTTP_CHECK_MARGIN_MS
}

export class NetworkApi extends HttpApiGroup.make("network")
  .add(
    HttpApiEndpoint.get("httpCheck", "/v1/network/http-check")
      .setUrlParams(HttpCheckParams)
      .addSuccess(HttpCheckReport)
      .addError(TargetForbiddenWire)
      .annotate(PlanLabel, "free")
      .annotate(OperationDeadline, httpCheckDeadline)
  )
  .middleware(Auth)
{}
