/**
 * Notification delivery from the durable `alert_outbox` table. Each row is claimed on its own
 * (`claimRows`, one conditional UPDATE per row, so any number of senders on one database never
 * send a row twice at once) and delivered independently: a slow receiver holds only its own
 * rows, at most PER_DESTINATION at a time, and never delays another destination.
 * Webhooks are signed per Standard Webhooks 1.0 with the secret of the rule (or monitor) that
 * queued them, looked up at each attempt so a rotation applies to retries too; `webhook-id` is
 * the row's, the same on every retry. Failures are retried with exponential backoff and given up
 * after MAX_ATTEMPTS. A row is marked delivered only after a 2xx answer.
 * Email rows go through `EmailSender` when one is provided, else stay pending.
 */
import { SqlClient } from "@effect/sql"
import { Clock, Context, Effect, Option } from "effect"
import { AppConfig } from "../../platform/Config"
import { backoffMs, MAX_ATTEMPTS } from "./analyze"
import { DeliveryFailed, sendWebhook, WEBHOOK_DEADLINE_MS } from "./webhook"

export interface EmailMessage {
  readonly to: string
  readonly subject: string
  /** The same JSON document a webhook receives. */
  readonly body: string
}

/** Pluggable email delivery; without it, email notifications stay recorded in the outbox. */
export class EmailSender extends Context.Tag("domain-intel/EmailSender")<EmailSender, {
  readonly send: (message: EmailMessage) => Effect.Effect<void, Error>
}>() {}

export interface OutboxRow {
  readonly id: number
  readonly alert_id: string
  readonly owner_id: string | null
  readonly webhook_id: string | null
  readonly event: string
  readonly channel_type: "webhook" | "email"
  readonly destination: string
  readonly payload: string
  readonly attempts: number
}

/** Concurrent deliveries to one destination (scheme://host:port, or one email address). */
export const PER_DESTINATION = 2
/** A claim outlives the delivery's own deadline, so a crashed sender's rows come back after it. */
const CLAIM_MS = WEBHOOK_DEADLINE_MS + 20_000

/** The signing secret of the rule or monitor that queued the row. */
export const signingSecretOf = (ownerId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.map(
      sql<{ secret: string }>`SELECT secret FROM webhook_secrets WHERE owner_id = ${ownerId}`,
      (rows) => Option.fromNullable(rows[0]?.secret)
    ))

/**
 * Claims up to `limit` due rows that `accept` lets through (the caller's per-destination cap),
 * oldest first. Each claim is one conditional UPDATE: a row another sender claimed in between is
 * skipped. (With PostgreSQL this is the one place to use FOR UPDATE SKIP LOCKED.)
 */
export const claimRows = (limit: number, accept: (row: OutboxRow) => boolean) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const email = yield* Effect.serviceOption(EmailSender)
    const now = yield* Clock.currentTimeMillis
    const candidates = yield* sql<OutboxRow>`SELECT id, alert_id, owner_id, webhook_id, event, channel_type,
        destination, payload, attempts
      FROM alert_outbox WHERE status = 'pending' AND next_attempt_at <= ${now}
        AND (claimed_until IS NULL OR claimed_until < ${now})
        ${Option.isNone(email) ? sql`AND channel_type = 'webhook'` : sql``}
      ORDER BY next_attempt_at, id LIMIT ${Math.max(limit * 4, 50)}`
    const claimed: Array<OutboxRow> = []
    for (const row of candidates) {
      if (claimed.length >= limit) break
      if (!accept(row)) continue
      const won = yield* sql`UPDATE alert_outbox SET claimed_until = ${now + CLAIM_MS}
        WHERE id = ${row.id} AND status = 'pending' AND (claimed_until IS NULL OR claimed_until < ${now})
        RETURNING id`
      if (won.length > 0) claimed.push(row)
    }
    return claimed
  })

const deliverWebhook = (row: OutboxRow) =>
  Effect.gen(function*() {
    const secret = row.owner_id === null ? Option.none<string>() : yield* Effect.orDie(signingSecretOf(row.owner_id))
    if (Option.isNone(secret)) {
      return yield* Effect.fail(new DeliveryFailed("the rule or monitor that queued this notification was deleted", true))
    }
    yield* sendWebhook({
      url: row.destination,
      event: row.event,
      webhookId: row.webhook_id ?? `msg_${row.id}`,
      body: row.payload,
      secret: secret.value
    })
  })

const subjectOf = (event: string, name: string | undefined) => {
  const label = event === "alert.resolved" || event === "monitor.recovered" ? "Resolved" : "Alert"
  return `[domain-intel] ${label}: ${name}`
}

const deliverEmail = (row: OutboxRow, sender: Context.Tag.Service<EmailSender>) => {
  const alert = JSON.parse(row.payload) as { rule_name?: string; monitor_name?: string; metric?: string }
  return sender.send({
    to: row.destination,
    subject: subjectOf(row.event, alert.rule_name ?? alert.monitor_name ?? alert.metric),
    body: row.payload
  }).pipe(Effect.mapError((e) => new DeliveryFailed(e.message, false)))
}

/** Delivers one claimed row and records the outcome (releasing the claim); true when delivered. */
export const deliverRow = (row: OutboxRow) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const config = yield* AppConfig
    const email = yield* Effect.serviceOption(EmailSender)
    const outcome = yield* Effect.either(
      row.channel_type === "webhook"
        ? deliverWebhook(row)
        : Option.isSome(email)
        ? deliverEmail(row, email.value)
        : Effect.fail(new DeliveryFailed("no email sender", false))
    )
    const at = yield* Clock.currentTimeMillis
    const attempts = row.attempts + 1
    if (outcome._tag === "Right") {
      yield* sql`UPDATE alert_outbox SET status = 'delivered', attempts = ${attempts}, delivered_at = ${at},
        last_error = NULL, claimed_until = NULL WHERE id = ${row.id}`
      return true
    }
    const failed = outcome.left.permanent || attempts >= MAX_ATTEMPTS
    yield* sql`UPDATE alert_outbox SET status = ${failed ? "failed" : "pending"}, attempts = ${attempts},
      next_attempt_at = ${at + backoffMs(attempts, config.webhookRetryBaseMs)},
      last_error = ${outcome.left.message}, claimed_until = NULL WHERE id = ${row.id}`
    return false
  }).pipe(Effect.withSpan("AlertOutbox.deliverRow"))

/**
 * Claims and sends every due row once, all at the same time, and waits for them; returns how
 * many were delivered. (The background sender in Workers.ts does not wait: see `Dispatcher`.)
 */
export const deliverDue = Effect.gen(function*() {
  const rows = yield* claimRows(200, () => true)
  const results = yield* Effect.forEach(rows, deliverRow, { concurrency: "unbounded" })
  return results.filter((x) => x).length
}).pipe(Effect.withSpan("AlertOutbox.deliverDue"))
