import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Auth } from "../../product/auth/Auth"
import { AlertAlreadyResolvedWire, NotFoundWire, TargetForbiddenWire } from "../../kernel/errors"
import { PlanLabel } from "../../platform/http/Operation"
import { IdPath, IntParam } from "./params"
import { MonitorKind } from "../../kernel/monitorKinds"
import { parseTarget } from "../../adapters/probe/guard"

export const Metric = Schema.Literal(
  "error_rate",
  "p95_latency_ms",
  "avg_latency_ms",
  "request_count",
  "quota_percentage_used",
  "cache_hit_rate"
)
export const Operator = Schema.Literal("gt", "gte", "lt", "lte")
export const AlertStatus = Schema.Literal("pending", "acknowledged", "resolved")

const strict = { parseOptions: { onExcessProperty: "error" } } as const

const WebhookUrl = Schema.String.pipe(
  Schema.maxLength(2048),
  Schema.filter((s) => {
    const t = parseTarget(s)
    if (!("url" in t)) return t.message
    return /^https?:\/\//i.test(s.trim()) || "webhook url must be a full http(s) URL"
  })
)
const EmailAddress = Schema.String.pipe(
  Schema.maxLength(320),
  Schema.pattern(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, { message: () => "not an email address" })
)

export const Channel = Schema.Union(
  Schema.Struct({ type: Schema.Literal("webhook"), url: WebhookUrl }).annotations(strict),
  Schema.Struct({ type: Schema.Literal("email"), address: EmailAddress }).annotations(strict)
)
const Channels = Schema.Array(Channel).pipe(Schema.maxItems(10))

const Name = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200))
const Threshold = Schema.Number.pipe(Schema.finite())
const WindowMinutes = Schema.Number.pipe(Schema.int(), Schema.between(1, 1440)).annotations({
  description: "the metric is computed over the last N minutes (the current one included), 1-1440"
})
const CooldownMinutes = Schema.Number.pipe(Schema.int(), Schema.between(0, 10080)).annotations({
  description: "minimum minutes between two alerts of the rule, 0-10080"
})

export const RuleCreate = Schema.Struct({
  name: Name,
  metric: Metric,
  operator: Operator,
  threshold_value: Threshold,
  window_minutes: WindowMinutes,
  channels: Schema.optional(Channels).annotations({ description: "default []" }),
  cooldown_minutes: Schema.optional(CooldownMinutes).annotations({ description: "default 15" }),
  enabled: Schema.optional(Schema.Boolean).annotations({ description: "default true" })
}).annotations(strict)

export const RulePatch = Schema.Struct({
  name: Schema.optional(Name),
  operator: Schema.optional(Operator),
  threshold_value: Schema.optional(Threshold),
  window_minutes: Schema.optional(WindowMinutes),
  channels: Schema.optional(Channels),
  cooldown_minutes: Schema.optional(CooldownMinutes),
  enabled: Schema.optional(Schema.Boolean)
}).pipe(
  Schema.filter((p) => Object.keys(p).length > 0 || "the body names no field to change"),
  Schema.annotations(strict)
)

export const SigningSecret = Schema.String.annotations({
  description: "whsec_ + base64 of 32 random bytes; the HMAC key is the base64-decoded part"
})

export const ChannelOut = Schema.Union(
  Schema.Struct({ type: Schema.Literal("webhook"), url: Schema.String }),
  Schema.Struct({ type: Schema.Literal("email"), address: Schema.String })
)

export const TestDeliveries = Schema.Struct({
  deliveries: Schema.Array(Schema.Struct({
    channel: ChannelOut,
    delivered: Schema.Boolean,
    http_status: Schema.NullOr(Schema.Number),
    error: Schema.NullOr(Schema.String)
  }))
})

export const Rule = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  metric: Metric,
  operator: Operator,
  threshold_value: Schema.Number,
  window_minutes: Schema.Number,
  channels: Schema.Array(ChannelOut),
  cooldown_minutes: Schema.Number,
  enabled: Schema.Boolean,
  created_at: Schema.String,
  updated_at: Schema.String,
  last_triggered_at: Schema.NullOr(Schema.String)
})

export const Alert = Schema.Struct({
  id: Schema.String,
  source: Schema.Literal("rule", "monitor"),
  rule_id: Schema.NullOr(Schema.String),
  monitor_id: Schema.NullOr(Schema.String),
  status: AlertStatus,
  metric: Schema.Union(Metric, MonitorKind).annotations({ description: "the rule's metric, or the monitor's kind" }),
  observed_value: Schema.Number.annotations({ description: "a monitor alert: consecutive failed runs" }),
  threshold_value: Schema.Number.annotations({ description: "a monitor alert: its failures_before_alert" }),
  triggered_at: Schema.String,
  acknowledged_at: Schema.NullOr(Schema.String),
  resolved_at: Schema.NullOr(Schema.String),
  resolution_notes: Schema.NullOr(Schema.String),
  time_to_resolution_seconds: Schema.NullOr(Schema.Number),
  locations_failing: Schema.NullOr(Schema.Array(Schema.String)).annotations({
    description: "a monitor with locations: the locations whose runs were not ok when the alert opened; null for other alerts"
  })
})

export const ResolveBody = Schema.Struct({
  notes: Schema.optional(Schema.NullOr(Schema.String.pipe(Schema.maxLength(10_000))))
}).annotations(strict)


export class AlertsApi extends HttpApiGroup.make("alerts")
  .annotate(PlanLabel, "developer")
  .annotate(OpenApi.Description, "Alert rules over your metrics and the alerts they fired")
  .add(
    HttpApiEndpoint.post("createAlertRule", "/v1/alerts/rules")
      .annotate(OpenApi.Summary, "Create an alert rule")
      .annotate(OpenApi.Description, "A condition over the organization's metrics, evaluated every minute, notifying webhook and email channels.")
      .setPayload(RuleCreate)
      .annotate(OpenApi.Description, "Answers the rule and its webhook signing secret (`whsec_…`, Standard Webhooks 1.0); the secret is shown only here and by rotate-secret.")
      .addSuccess(Schema.Struct({ rule: Rule, signing_secret: SigningSecret }), { status: 201 })
      .addError(TargetForbiddenWire)
  )
  .add(
    HttpApiEndpoint.get("listAlertRules", "/v1/alerts/rules")
      .annotate(OpenApi.Summary, "List alert rules")
      .addSuccess(Schema.Struct({ rules: Schema.Array(Rule) }))
  )
  .add(
    HttpApiEndpoint.get("getAlertRule", "/v1/alerts/rules/:id")
      .annotate(OpenApi.Summary, "Get one alert rule")
      .setPath(IdPath)
      .addSuccess(Schema.Struct({ rule: Rule }))
      .addError(NotFoundWire)
  )
  .add(
    HttpApiEndpoint.patch("updateAlertRule", "/v1/alerts/rules/:id")
      .annotate(OpenApi.Summary, "Update an alert rule")
      .annotate(OpenApi.Description, "Partial update: only the fields sent change.")
      .setPath(IdPath)
      .setPayload(RulePatch)
      .addSuccess(Schema.Struct({ rule: Rule }))
      .addError(NotFoundWire)
      .addError(TargetForbiddenWire)
  )
  .add(
    HttpApiEndpoint.del("deleteAlertRule", "/v1/alerts/rules/:id")
      .annotate(OpenApi.Summary, "Delete an alert rule")
      .setPath(IdPath)
      .addSuccess(HttpApiSchema.NoContent)
      .addError(NotFoundWire)
  )
  .add(
    HttpApiEndpoint.post("rotateAlertRuleSecret", "/v1/alerts/rules/:id/rotate-secret")
      .setPath(IdPath)
      .annotate(OpenApi.Description, "Issues a new webhook signing secret for the rule; the old one stops verifying at once, for retries too.")
      .addSuccess(Schema.Struct({ signing_secret: SigningSecret }))
      .addError(NotFoundWire)
  )
  .add(
    HttpApiEndpoint.post("testAlertRule", "/v1/alerts/rules/:id/test")
      .setPath(IdPath)
      .annotate(OpenApi.Description, "Sends an `alert.test` event to every channel of the rule now (each webhook within 10 s) and reports each outcome.")
      .addSuccess(TestDeliveries)
      .addError(NotFoundWire)
  )
  .add(
    HttpApiEndpoint.get("listAlertHistory", "/v1/alerts/history")
      .annotate(OpenApi.Summary, "List fired alerts, newest first")
      .setUrlParams(Schema.Struct({
        status: Schema.optional(AlertStatus.annotations({ description: "only alerts in this state" })),
        rule_id: Schema.optional(Schema.String.pipe(Schema.maxLength(100)).annotations({ description: "only alerts fired by this rule" })),
        monitor_id: Schema.optional(Schema.String.pipe(Schema.maxLength(100))),
        source: Schema.optional(Schema.Literal("rule", "monitor")),
        limit: Schema.optional(IntParam({ min: 1, max: 500, default: 100, description: "alerts returned at most, newest first" }))
      }))
      .addSuccess(Schema.Struct({ alerts: Schema.Array(Alert) }))
  )
  .add(
    HttpApiEndpoint.post("acknowledgeAlert", "/v1/alerts/history/:id/acknowledge")
      .annotate(OpenApi.Summary, "Acknowledge a fired alert")
      .setPath(IdPath)
      .addSuccess(Schema.Struct({ acknowledged: Schema.Boolean, alert: Alert }))
      .addError(NotFoundWire)
      .addError(AlertAlreadyResolvedWire)
  )
  .add(
    HttpApiEndpoint.post("resolveAlert", "/v1/alerts/history/:id/resolve")
      .annotate(OpenApi.Summary, "Resolve a fired alert")
      .annotate(OpenApi.Description, "409 `alert_already_resolved` when it was resolved before.")
      .setPath(IdPath)
      .annotate(OpenApi.Description, "Optional JSON body {\"notes\": string}. Only pending or acknowledged alerts can be resolved; a resolved alert is 409 alert_already_resolved.")
      .addSuccess(Schema.Struct({ resolved: Schema.Boolean, alert: Alert }))
      .addError(NotFoundWire)
      .addError(AlertAlreadyResolvedWire)
  )
  .middleware(Auth)
{}
