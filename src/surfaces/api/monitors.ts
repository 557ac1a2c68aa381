import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Channel, ChannelOut, SigningSecret } from "./alerts"
import { Auth } from "../../product/auth/Auth"
import { NotFoundWire, PlanForbiddenWire, TargetForbiddenWire } from "../../kernel/errors"
import { PlanLabel } from "../../platform/http/Operation"
import { IdPath, IntParam } from "./params"
import { MonitorKind } from "../../kernel/monitorKinds"
import { LOCATION_NAME } from "../../platform/Config"

const strict = { parseOptions: { onExcessProperty: "error" } } as const

/** Any kind's conditions, for the wire; the monitor's own kind is checked in the handler. */
const AnyConditions = Schema.Record({ key: Schema.String, value: Schema.Unknown }).annotations({
  description: "http_check: status_not_ok, total_ms_gt, error; certificate: days_left_lt, invalid; " +
    "ct_new_certificate: new_certificate, issuer_not_in; zone_hygiene: grade_below, new_finding_severity_at_least; " +
    "waf: provider_changed, provider_absent; domain_expiry: days_left_lt; " +
    "dns_records: record_type (default A), changed, expected; dnssec: status_not_secure, signature_expires_within_days; " +
    "email_security: grade_below, record_changed; tls: grade_below, protocol_enabled; lookalikes: new_lookalike_risk_at_least (default medium)"
})

const Name = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200))
const Target = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(2048)).annotations({
  description: "http_check: http(s) URL; certificate: host[:port]; waf: URL or domain; dns_records: a name; tls: host[:port]; other kinds: a domain"
})
const Interval = Schema.Number.pipe(Schema.int(), Schema.between(1, 86_400 * 7)).annotations({
  description: "at least MONITOR_MIN_INTERVAL_S (default 60); certificate, CT, zone, domain_expiry, dnssec, email_security and tls kinds at least 10 times that; lookalikes at least 60 times that"
})
const FailuresBeforeAlert = Schema.Number.pipe(Schema.int(), Schema.between(1, 100))
const CooldownMinutes = Schema.Number.pipe(Schema.int(), Schema.between(0, 10080))
const Channels = Schema.Array(Channel).pipe(Schema.maxItems(10))

/** A location's name, as INSTANCE_LOCATION spells it (docs/operations/locations.md). */
export const LocationName = Schema.String.pipe(Schema.pattern(LOCATION_NAME, { message: () => "a location name is 1-32 characters of a-z, 0-9 and -" }))
const Locations = Schema.Array(LocationName).pipe(Schema.maxItems(16)).annotations({
  description: "locations each due run is made in, once per location (names from GET /v1/locations; each must have been seen); [] (the default): any one location"
})
const Quorum = Schema.Number.pipe(Schema.int(), Schema.between(1, 16)).annotations({
  description: "how many locations must report not ok for the run to be not ok, 1 to the number of locations; default a majority (floor(n/2)+1)"
})

export const MonitorCreate = Schema.Struct({
  name: Name,
  kind: MonitorKind,
  target: Target,
  interval_seconds: Interval,
  conditions: Schema.optional(AnyConditions).annotations({ description: "default per kind" }),
  channels: Schema.optional(Channels).annotations({ description: "default []" }),
  enabled: Schema.optional(Schema.Boolean).annotations({ description: "default true" }),
  failures_before_alert: Schema.optional(FailuresBeforeAlert).annotations({ description: "default 1" }),
  cooldown_minutes: Schema.optional(CooldownMinutes).annotations({ description: "default 15" }),
  locations: Schema.optional(Locations),
  quorum: Schema.optional(Quorum)
}).annotations(strict)

export const MonitorPatch = Schema.Struct({
  name: Schema.optional(Name),
  target: Schema.optional(Target),
  interval_seconds: Schema.optional(Interval),
  conditions: Schema.optional(AnyConditions),
  channels: Schema.optional(Channels),
  enabled: Schema.optional(Schema.Boolean),
  failures_before_alert: Schema.optional(FailuresBeforeAlert),
  cooldown_minutes: Schema.optional(CooldownMinutes),
  locations: Schema.optional(Locations),
  quorum: Schema.optional(Quorum.annotations({ description: "kept while it fits a new list of locations (else 400); default a majority" }))
}).pipe(
  Schema.filter((p) => Object.keys(p).length > 0 || "the body names no field to change"),
  Schema.annotations(strict)
)

export const MonitorStatus = Schema.Literal("pending", "up", "down", "paused")

export const MonitorState = Schema.Literal("ok", "not_ok", "unknown").annotations({
  description: "the last decided run's state (with locations: combined over them); unknown before the first, or while fewer than quorum listed locations are live"
})

export const LocationStatus = Schema.Struct({
  location: Schema.String,
  live: Schema.Boolean.annotations({ description: "an instance of the location was seen within the last 60 s" }),
  last_run_at: Schema.NullOr(Schema.String),
  ok: Schema.NullOr(Schema.Boolean).annotations({ description: "the location's last run; null before its first" })
})

export const Monitor = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  kind: MonitorKind,
  target: Schema.String,
  interval_seconds: Schema.Number,
  conditions: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  channels: Schema.Array(ChannelOut),
  enabled: Schema.Boolean,
  failures_before_alert: Schema.Number,
  cooldown_minutes: Schema.Number,
  status: MonitorStatus.annotations({ description: "pending (no run yet), up, down (last run not ok), paused" }),
  consecutive_failures: Schema.Number,
  last_run_at: Schema.NullOr(Schema.String),
  next_run_at: Schema.NullOr(Schema.String),
  open_alert_id: Schema.NullOr(Schema.String),
  locations: Schema.Array(Schema.String),
  quorum: Schema.Number,
  state: MonitorState,
  location_status: Schema.Array(LocationStatus).annotations({
    description: "each listed location's last run; with no locations, the location of the last run"
  }),
  created_at: Schema.String,
  updated_at: Schema.String
})

export const MonitorResult = Schema.Struct({
  id: Schema.String,
  started_at: Schema.String,
  duration_ms: Schema.Number,
  ok: Schema.Boolean,
  summary: Schema.String,
  location: Schema.String.annotations({ description: "the location the run was made in" }),
  report: Schema.Unknown
})

export const Uptime = Schema.Struct({
  period: Schema.Literal("7d", "30d", "current"),
  runs: Schema.Number,
  ok_runs: Schema.Number,
  uptime_percentage: Schema.NullOr(Schema.Number).annotations({ description: "null when no run falls in the period" }),
  incidents: Schema.Array(Schema.Struct({ started_at: Schema.String, ended_at: Schema.NullOr(Schema.String) })),
  p50_ms: Schema.NullOr(Schema.Number),
  p95_ms: Schema.NullOr(Schema.Number),
  by_location: Schema.Array(Schema.Struct({
    location: Schema.String,
    runs: Schema.Number,
    ok_runs: Schema.Number,
    uptime_percentage: Schema.NullOr(Schema.Number),
    p50_ms: Schema.NullOr(Schema.Number),
    p95_ms: Schema.NullOr(Schema.Number)
  })).annotations({ description: "the period's runs per location: the listed ones first, then any other that ran the monitor" })
})


export class MonitorsApi extends HttpApiGroup.make("monitors")
  .annotate(PlanLabel, "free")
  .add(
    HttpApiEndpoint.post("createMonitor", "/v1/monitors")
      .setPayload(MonitorCreate)
      .annotate(OpenApi.Description, "Answers the monitor and the signing secret of its webhooks (shown only here and by rotate-secret).")
      .addSuccess(Schema.Struct({ monitor: Monitor, signing_secret: SigningSecret }), { status: 201 })
      .addError(TargetForbiddenWire)
      .addError(PlanForbiddenWire)
  )
  .add(
    HttpApiEndpoint.get("listMonitors", "/v1/monitors")
      .addSuccess(Schema.Struct({ monitors: Schema.Array(Monitor) }))
  )
  .add(
    HttpApiEndpoint.get("getMonitor", "/v1/monitors/:id")
      .setPath(IdPath)
      .addSuccess(Schema.Struct({ monitor: Monitor }))
      .addError(NotFoundWire)
  )
  .add(
    HttpApiEndpoint.patch("updateMonitor", "/v1/monitors/:id")
      .setPath(IdPath)
      .setPayload(MonitorPatch)
      .addSuccess(Schema.Struct({ monitor: Monitor }))
      .addError(NotFoundWire)
      .addError(TargetForbiddenWire)
  )
  .add(
    HttpApiEndpoint.del("deleteMonitor", "/v1/monitors/:id")
      .setPath(IdPath)
      .addSuccess(HttpApiSchema.NoContent)
      .addError(NotFoundWire)
  )
  .add(
    HttpApiEndpoint.post("rotateMonitorSecret", "/v1/monitors/:id/rotate-secret")
      .setPath(IdPath)
      .addSuccess(Schema.Struct({ signing_secret: SigningSecret }))
      .addError(NotFoundWire)
  )
  .add(
    HttpApiEndpoint.get("listMonitorResults", "/v1/monitors/:id/results")
      .setPath(IdPath)
      .setUrlParams(Schema.Struct({
        limit: Schema.optional(IntParam({ min: 1, max: 500, default: 50, description: "results returned at most, newest first" })),
        before: Schema.optional(Schema.String.pipe(Schema.pattern(/^res_\d{15}_[0-9a-f]{1,32}$/)).annotations({
          description: "cursor: a result id (the previous page's next_before); results strictly older"
        }))
      }))
      .addSuccess(Schema.Struct({ results: Schema.Array(MonitorResult), next_before: Schema.NullOr(Schema.String) }))
      .addError(NotFoundWire)
  )
  .add(
    HttpApiEndpoint.get("monitorUptime", "/v1/monitors/:id/uptime")
      .setPath(IdPath)
      .setUrlParams(Schema.Struct({ period: Schema.optional(Schema.Literal("7d", "30d", "current")) }))
      .addSuccess(Uptime)
      .addError(NotFoundWire)
  )
  .middleware(Auth)
{}
