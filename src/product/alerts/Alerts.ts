/**
 * Alert rules and alert history in the store, per organization (another organization's ids are
 * not found). State changes are single conditional UPDATEs, so concurrent requests cannot both
 * win; notifications are queued in `alert_outbox` in the same transaction as the change.
 */
import { SqlClient } from "@effect/sql"
import { makeVersionedCache } from "../../platform/store/readCache"
import { Clock, Effect, Option } from "effect"
import { signingSecretOf } from "./Outbox"
import { enqueueNotifications, replaceSecret, testChannels } from "./testSend"
import { randomBytes } from "node:crypto"
import type { Metric } from "../analytics/analyze"
import { AlertAlreadyResolved, NotFound } from "../../kernel/errors"
import { forUpdate } from "../../platform/store/Sql"
import {
  type AlertEvent,
  alertJson,
  type AlertRow,
  newSigningSecret,
  newWebhookId,
  type AlertStatus,
  type Channel,
  type Operator,
  ruleJson,
  type RuleRow,
  webhookBody
} from "./analyze"

export interface RuleInput {
  readonly name: string
  readonly metric: Metric
  readonly operator: Operator
  readonly threshold_value: number
  readonly window_minutes: number
  readonly channels: ReadonlyArray<Channel>
  readonly cooldown_minutes: number
  readonly enabled: boolean
}

export type RulePatch = Partial<Omit<RuleInput, "metric">>

const newId = (prefix: string) => `${prefix}_${randomBytes(10).toString("hex")}`

const ruleNotFound = (id: string) => new NotFound({ message: `no alert rule ${id}` })
const alertNotFound = (id: string) => new NotFound({ message: `no alert ${id}` })

export class Alerts extends Effect.Service<Alerts>()("domain-intel/Alerts", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    // Rule lists by organization (src/platform/store/readCache.ts): every write to alert_rules below bumps
    // `rulesVersion` when it is done (committed or not), and a list is cached under the version
    // read before its SELECT, so a list read across a write is never served again.
    let rulesVersion = 0
    const rulesWritten = Effect.sync(() => { rulesVersion++ })
    const ruleLists = yield* makeVersionedCache((orgId: string) =>
      Effect.map(sql<RuleRow>`SELECT * FROM alert_rules WHERE org_id = ${orgId} ORDER BY created_at, id`, (rows) => rows.map(ruleJson)).pipe(Effect.orDie)
    )

    const findRule = (orgId: string, id: string) =>
      sql<RuleRow>`SELECT * FROM alert_rules WHERE id = ${id} AND org_id = ${orgId}`.pipe(
        Effect.map((rows) => Option.fromNullable(rows[0]))
      )

    const createRule = Effect.fn("Alerts.createRule")(function*(orgId: string, input: RuleInput) {
      const now = yield* Clock.currentTimeMillis
      const row: RuleRow = {
        id: newId("rule"),
        org_id: orgId,
        name: input.name,
        metric: input.metric,
        operator: input.operator,
        threshold_value: input.threshold_value,
        window_minutes: input.window_minutes,
        channels: JSON.stringify(input.channels),
        cooldown_minutes: input.cooldown_minutes,
        enabled: input.enabled ? 1 : 0,
        created_at: now,
        updated_at: now,
        last_triggered_at: null
      }
      const signing_secret = newSigningSecret()
      yield* sql.withTransaction(Effect.gen(function*() {
        yield* sql`INSERT INTO alert_rules ${sql.insert({ ...row })}`
        yield* sql`INSERT INTO webhook_secrets (owner_id, secret, created_at) VALUES (${row.id}, ${signing_secret}, ${now})`
      })).pipe(Effect.ensuring(rulesWritten))
      return { rule: ruleJson(row), signing_secret }
    }, Effect.orDie)

    /** Replaces the rule's signing secret; the old one stops verifying at once (retries too). */
    const rotateSecret = Effect.fn("Alerts.rotateSecret")(function*(orgId: string, id: string) {
      const row = yield* Effect.orDie(findRule(orgId, id))
      if (Option.isNone(row)) return yield* ruleNotFound(id)
      return { signing_secret: yield* Effect.orDie(replaceSecret(sql, id)) }
    })

    /** Sends an `alert.test` event to every channel of the rule, now, and reports each outcome. */
    const testRule = Effect.fn("Alerts.testRule")(function*(orgId: string, id: string) {
      const row = yield* Effect.orDie(findRule(orgId, id))
      if (Option.isNone(row)) return yield* ruleNotFound(id)
      const secret = yield* Effect.orDie(signingSecretOf(id))
      const now = yield* Clock.currentTimeMillis
      const body = JSON.stringify({ event: "alert.test", rule_id: id, rule_name: row.value.name, sent_at: new Date(now).toISOString() })
      return yield* testChannels(JSON.parse(row.value.channels), "alert.test", body, Option.getOrElse(secret, () => ""), `[domain-intel] Test: ${row.value.name}`)
    })

    const listRules = (orgId: string) => Effect.suspend(() => ruleLists.get(orgId, rulesVersion))

    const getRule = Effect.fn("Alerts.getRule")(function*(orgId: string, id: string) {
      const row = yield* Effect.orDie(findRule(orgId, id))
      if (Option.isNone(row)) return yield* ruleNotFound(id)
      return ruleJson(row.value)
    })

    /** Applies every supplied field in one UPDATE (the payload was validated whole before). */
    const updateRule = Effect.fn("Alerts.updateRule")(function*(orgId: string, id: string, patch: RulePatch) {
      const now = yield* Clock.currentTimeMillis
      const set: Record<string, unknown> = { updated_at: now }
      if (patch.name !== undefined) set.name = patch.name
      if (patch.operator !== undefined) set.operator = patch.operator
      if (patch.threshold_value !== undefined) set.threshold_value = patch.threshold_value
      if (patch.window_minutes !== undefined) set.window_minutes = patch.window_minutes
      if (patch.channels !== undefined) set.channels = JSON.stringify(patch.channels)
      if (patch.cooldown_minutes !== undefined) set.cooldown_minutes = patch.cooldown_minutes
      if (patch.enabled !== undefined) set.enabled = patch.enabled ? 1 : 0
      const rows = yield* Effect.orDie(Effect.ensuring(sql<RuleRow>`UPDATE alert_rules SET ${sql.update(set)}
        WHERE id = ${id} AND org_id = ${orgId} RETURNING *`, rulesWritten))
      if (rows.length === 0) return yield* ruleNotFound(id)
      return ruleJson(rows[0])
    })

    /** Deletes the rule; its alert history stays. */
    const deleteRule = Effect.fn("Alerts.deleteRule")(function*(orgId: string, id: string) {
      const rows = yield* Effect.orDie(Effect.ensuring(sql`DELETE FROM alert_rules WHERE id = ${id} AND org_id = ${orgId} RETURNING id`, rulesWritten))
      if (rows.length === 0) return yield* ruleNotFound(id)
      yield* Effect.orDie(sql`DELETE FROM webhook_secrets WHERE owner_id = ${id}`)
    })

    const history = Effect.fn("Alerts.history")(function*(
      orgId: string,
      filter: {
        readonly status?: AlertStatus
        readonly rule_id?: string
        readonly monitor_id?: string
        readonly source?: "rule" | "monitor"
        readonly limit?: number
      }
    ) {
      const conds = [sql`org_id = ${orgId}`]
      if (filter.status) conds.push(sql`status = ${filter.status}`)
      if (filter.rule_id) conds.push(sql`rule_id = ${filter.rule_id}`)
      if (filter.monitor_id) conds.push(sql`monitor_id = ${filter.monitor_id}`)
      if (filter.source) conds.push(sql`source = ${filter.source}`)
      const rows = yield* sql<AlertRow>`SELECT * FROM alerts WHERE ${sql.and(conds)}
        ORDER BY triggered_at DESC, id DESC LIMIT ${filter.limit ?? 100}`
      return rows.map(alertJson)
    }, Effect.orDie)

    const getAlert = Effect.fn("Alerts.getAlert")(function*(orgId: string, id: string) {
      const rows = yield* Effect.orDie(sql<AlertRow>`SELECT * FROM alerts WHERE id = ${id} AND org_id = ${orgId}`)
      if (rows.length === 0) return yield* alertNotFound(id)
      return alertJson(rows[0])
    })

    /** Queues one notification per channel of the rule (call inside the transaction). */
    const enqueue = (alert: AlertRow, event: AlertEvent, rule: Pick<RuleRow, "id" | "name" | "channels">, now: number) =>
      enqueueNotifications(sql, alert, event, rule, now)

    /** The rule or monitor that owns the alert: its id (the signer), name and channels. */
    const ownerOf = (alert: AlertRow) =>
      alert.source === "monitor"
        ? sql<Pick<RuleRow, "id" | "name" | "channels">>`SELECT id, name, channels FROM monitors WHERE id = ${alert.monitor_id}`
        : sql<Pick<RuleRow, "id" | "name" | "channels">>`SELECT id, name, channels FROM alert_rules WHERE id = ${alert.rule_id}`
    /** pending → acknowledged. Acknowledging twice is harmless; a resolved alert is 409. */
    const acknowledge = Effect.fn("Alerts.acknowledge")(function*(orgId: string, id: string) {
      const now = yield* Clock.currentTimeMillis
      const rows = yield* Effect.orDie(sql<AlertRow>`UPDATE alerts SET status = 'acknowledged', acknowledged_at = ${now}
        WHERE id = ${id} AND org_id = ${orgId} AND status = 'pending' RETURNING *`)
      if (rows.length > 0) return alertJson(rows[0])
      const current = yield* getAlert(orgId, id)
      if (current.status === "resolved") {
        return yield* new AlertAlreadyResolved({ message: `alert ${id} is resolved; it cannot be acknowledged` })
      }
      return current
    })

    /**
     * pending|acknowledged → resolved, with notes; one conditional UPDATE, so of any number of
     * concurrent resolves exactly one succeeds and the others see 409.
     */
    const resolve = Effect.fn("Alerts.resolve")(function*(orgId: string, id: string, notes: string | null) {
      const now = yield* Clock.currentTimeMillis
      const resolved = yield* Effect.orDie(sql.withTransaction(Effect.gen(function*() {
        const rows = yield* sql<AlertRow>`UPDATE alerts SET status = 'resolved', resolved_at = ${now},
            resolution_notes = ${notes}
          WHERE id = ${id} AND org_id = ${orgId} AND status IN ('pending', 'acknowledged') RETURNING *`
        if (rows.length === 0) return Option.none<AlertRow>()
        const owner = yield* ownerOf(rows[0])
        // Resolved by hand (a monitor's alert too): `alert.resolved`; a monitor's own recovery is `monitor.recovered`.
        if (owner[0]) yield* enqueue(rows[0], "alert.resolved", owner[0], now)
        return Option.some(rows[0])
      })))
      if (Option.isSome(resolved)) return alertJson(resolved.value)
      yield* getAlert(orgId, id) // 404 when it is not this organization's
      return yield* new AlertAlreadyResolved({ message: `alert ${id} is already resolved` })
    })

    /**
     * Creates a pending alert for the rule unless one is still open (checked again inside the
     * transaction), stamps the rule's last trigger time and queues the notifications.
     */
    const trigger = Effect.fn("Alerts.trigger")(function*(rule: RuleRow, observed: number) {
      const now = yield* Clock.currentTimeMillis
      return yield* sql.withTransaction(Effect.gen(function*() {
        // Two evaluators (a lease handed over mid-pass) serialize here on PostgreSQL.
        yield* sql`SELECT id FROM alert_rules WHERE id = ${rule.id} ${forUpdate(sql)}`
        const open = yield* sql`SELECT 1 FROM alerts WHERE rule_id = ${rule.id} AND status != 'resolved' LIMIT 1`
        if (open.length > 0) return Option.none<ReturnType<typeof alertJson>>()
        const alert: AlertRow = {
          id: newId("alert"),
          org_id: rule.org_id,
          source: "rule",
          rule_id: rule.id,
          monitor_id: null,
          status: "pending",
          metric: rule.metric,
          observed_value: observed,
          threshold_value: rule.threshold_value,
          triggered_at: now,
          acknowledged_at: null,
          resolved_at: null,
          resolution_notes: null,
          locations_failing: null
        }
        yield* sql`INSERT INTO alerts ${sql.insert({ ...alert })}`
        yield* sql`UPDATE alert_rules SET last_triggered_at = ${now} WHERE id = ${rule.id}`
        yield* enqueue(alert, "alert.triggered", rule, now)
        return Option.some(alertJson(alert))
      })).pipe(Effect.ensuring(rulesWritten))
    }, Effect.orDie)

    return { createRule, rotateSecret, testRule, listRules, getRule, updateRule, deleteRule, history, getAlert, acknowledge, resolve, trigger } as const
  })
}) {}
