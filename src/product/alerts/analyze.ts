/**
 * Alerting rules of the road (pure): comparisons, the fire decision, retry backoff, webhook
 * signatures and the wire form of rules and alerts. No Effect, no I/O.
 */
import { createHmac, randomBytes } from "node:crypto"
import type { Metric } from "../analytics/analyze"
import type { MonitorKind } from "../../kernel/monitorKinds"

export type Operator = "gt" | "gte" | "lt" | "lte"
export type AlertStatus = "pending" | "acknowledged" | "resolved"

export type Channel =
  | { readonly type: "webhook"; readonly url: string }
  | { readonly type: "email"; readonly address: string }

export const compare = (op: Operator, observed: number, threshold: number): boolean => {
  switch (op) {
    case "gt":
      return observed > threshold
    case "gte":
      return observed >= threshold
    case "lt":
      return observed < threshold
    case "lte":
      return observed <= threshold
  }
}

export interface RuleState {
  readonly enabled: boolean
  readonly operator: Operator
  readonly thresholdValue: number
  readonly cooldownMinutes: number
  /** epoch ms of the rule's last alert, if any. */
  readonly lastTriggeredAt: number | null
  /** An alert of this rule is pending or acknowledged. */
  readonly hasUnresolved: boolean
}

export type Decision =
  | { readonly fire: true }
  | { readonly fire: false; readonly reason: "paused" | "no_data" | "condition_false" | "unresolved_alert" | "cooldown" }

/**
 * Whether a rule fires now: enabled, its metric has a value, the condition holds, no alert of it
 * is still open, and at least `cooldownMinutes` have passed since its last trigger.
 */
export const decide = (rule: RuleState, observed: number | undefined, now: number): Decision => {
  if (!rule.enabled) return { fire: false, reason: "paused" }
  if (observed === undefined) return { fire: false, reason: "no_data" }
  if (!compare(rule.operator, observed, rule.thresholdValue)) return { fire: false, reason: "condition_false" }
  if (rule.hasUnresolved) return { fire: false, reason: "unresolved_alert" }
  if (rule.lastTriggeredAt !== null && now - rule.lastTriggeredAt < rule.cooldownMinutes * 60_000) {
    return { fire: false, reason: "cooldown" }
  }
  return { fire: true }
}

/** Delay before retry number `attempt` (1-based): base·2^(attempt−1), capped at one hour. */
export const backoffMs = (attempt: number, baseMs: number): number =>
  Math.min(3_600_000, baseMs * Math.pow(2, Math.max(0, attempt - 1)))

/** Attempts after which a webhook delivery is given up (status `failed`). */
export const MAX_ATTEMPTS = 12

/** A fresh Standard Webhooks secret: `whsec_` + base64 of 32 random bytes. */
export const newSigningSecret = (): string => `whsec_${randomBytes(32).toString("base64")}`

/** The HMAC key of a `whsec_<base64>` secret: the base64-decoded part after the prefix. */
export const signingKey = (secret: string): Buffer =>
  Buffer.from(secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret, "base64")

/**
 * The Standard Webhooks 1.0 headers of one delivery: `webhook-signature` is `v1,` + base64
 * HMAC-SHA256 over `"<id>.<timestamp>.<body>"` keyed with the decoded secret.
 */
export const webhookHeaders = (secret: string, webhookId: string, timestampS: number, body: string) => ({
  "webhook-id": webhookId,
  "webhook-timestamp": String(timestampS),
  "webhook-signature": `v1,${
    createHmac("sha256", signingKey(secret)).update(`${webhookId}.${timestampS}.${body}`, "utf8").digest("base64")
  }`
})

export const newWebhookId = (): string => `msg_${randomBytes(12).toString("hex")}`

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString())

export interface RuleRow {
  readonly id: string
  readonly org_id: string
  readonly name: string
  readonly metric: Metric
  readonly operator: Operator
  readonly threshold_value: number
  readonly window_minutes: number
  readonly channels: string
  readonly cooldown_minutes: number
  readonly enabled: number
  readonly created_at: number
  readonly updated_at: number
  readonly last_triggered_at: number | null
}

export const ruleJson = (r: RuleRow) => ({
  id: r.id,
  name: r.name,
  metric: r.metric,
  operator: r.operator,
  threshold_value: r.threshold_value,
  window_minutes: r.window_minutes,
  channels: JSON.parse(r.channels) as ReadonlyArray<Channel>,
  cooldown_minutes: r.cooldown_minutes,
  enabled: r.enabled === 1,
  created_at: iso(r.created_at)!,
  updated_at: iso(r.updated_at)!,
  last_triggered_at: iso(r.last_triggered_at)
})

export type AlertSource = "rule" | "monitor"

export interface AlertRow {
  readonly id: string
  readonly org_id: string
  readonly source: AlertSource
  readonly rule_id: string | null
  readonly monitor_id: string | null
  readonly status: AlertStatus
  /** A rule's metric, or for a monitor alert the monitor's kind. */
  readonly metric: Metric | MonitorKind
  readonly observed_value: number
  readonly threshold_value: number
  readonly triggered_at: number
  readonly acknowledged_at: number | null
  readonly resolved_at: number | null
  readonly resolution_notes: string | null
  /** JSON array: the locations that saw the run fail (a located monitor's alert); null (or absent) otherwise. */
  readonly locations_failing?: string | null
}

export const alertJson = (a: AlertRow) => ({
  id: a.id,
  source: a.source,
  rule_id: a.rule_id,
  monitor_id: a.monitor_id,
  status: a.status,
  metric: a.metric,
  observed_value: a.observed_value,
  threshold_value: a.threshold_value,
  triggered_at: iso(a.triggered_at)!,
  acknowledged_at: iso(a.acknowledged_at),
  resolved_at: iso(a.resolved_at),
  resolution_notes: a.resolution_notes,
  time_to_resolution_seconds: a.resolved_at === null ? null : (a.resolved_at - a.triggered_at) / 1000,
  locations_failing: a.locations_failing === null || a.locations_failing === undefined ? null : JSON.parse(a.locations_failing) as ReadonlyArray<string>
})
export type AlertJson = ReturnType<typeof alertJson>

export type AlertEvent = "alert.triggered" | "alert.resolved" | "alert.test" | "monitor.failed" | "monitor.recovered"

/**
 * The webhook body: the alert record plus the event and the owner's name (`rule_name` for a
 * rule's alert; `monitor_name` and any `extra` fields, such as the run summary, for a monitor's).
 */
export const webhookBody = (
  event: AlertEvent,
  alert: AlertJson,
  ownerName: string,
  extra: Record<string, unknown> = {}
) =>
  JSON.stringify(
    alert.source === "monitor"
      ? { event, ...alert, monitor_name: ownerName, ...extra }
      : { event, ...alert, rule_name: ownerName, ...extra }
  )
