/**
 * Notification delivery from the durable `alert_outbox` table. Webhooks: POST of the alert JSON,
 * signed (`X-Domain-Intel-Signature: sha256=<hex HMAC-SHA256(WEBHOOK_SIGNING_SECRET, body)>`),
 * the URL re-checked by the target guard at every attempt and the connection made to the vetted
 * address only; failures retried with exponential backoff, given up after MAX_ATTEMPTS. Rows
 * survive restarts: a row is marked delivered only after a 2xx answer.
 * Email rows are delivered through `EmailSender` when one is provided, else kept pending.
 */
import { SqlClient } from "@effect/sql"
import { Clock, Context, Effect, Option, Redacted } from "effect"
import * as http from "node:http"
import * as https from "node:https"
import { AppConfig } from "../Config"
import { TargetForbidden } from "../domain/errors"
import { parseTarget, type VettedTarget, vetTarget } from "../probe/guard"
import { forUpdate } from "../store/Sql"
import { backoffMs, MAX_ATTEMPTS, SIGNATURE_HEADER, signature } from "./analyze"

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
  readonly event: string
  readonly channel_type: "webhook" | "email"
  readonly destination: string
  readonly payload: string
  readonly attempts: number
}

const WEBHOOK_TIMEOUT_MS = 10_000
const BATCH = 20

class DeliveryFailed {
  readonly _tag = "DeliveryFailed"
  constructor(readonly message: string, readonly permanent: boolean) {}
}

/** One POST to the vetted address (Host and SNI carry the name); resolves with the status. */
const post = (target: VettedTarget, body: string, headers: Record<string, string>) =>
  Effect.async<number, DeliveryFailed>((resume) => {
    const isHttps = target.url.protocol === "https:"
    const hostHeader = (target.host.includes(":") ? `[${target.host}]` : target.host) +
      ((isHttps && target.port === 443) || (!isHttps && target.port === 80) ? "" : `:${target.port}`)
    const req = (isHttps ? https : http).request({
      host: target.address,
      port: target.port,
      method: "POST",
      path: `${target.url.pathname}${target.url.search}`,
      servername: isHttps && !target.literal ? target.host : undefined,
      headers: { ...headers, host: hostHeader, "content-length": String(Buffer.byteLength(body)) },
      timeout: WEBHOOK_TIMEOUT_MS
    } as https.RequestOptions, (res) => {
      res.resume() // discard the body
      res.on("end", () => resume(Effect.succeed(res.statusCode ?? 0)))
      res.on("error", (e) => resume(Effect.fail(new DeliveryFailed(e.message, false))))
    })
    req.on("timeout", () => req.destroy(new Error("timeout")))
    req.on("error", (e) => resume(Effect.fail(new DeliveryFailed(`request failed: ${e.message}`, false))))
    req.end(body)
    return Effect.sync(() => req.destroy())
  })

const deliverWebhook = (row: OutboxRow) =>
  Effect.gen(function*() {
    const config = yield* AppConfig
    const parsed = parseTarget(row.destination)
    if (!("url" in parsed)) return yield* Effect.fail(new DeliveryFailed(parsed.message, true))
    const target = yield* vetTarget(parsed).pipe(
      Effect.mapError((e) => new DeliveryFailed(e.message, e instanceof TargetForbidden))
    )
    const now = yield* Clock.currentTimeMillis
    const status = yield* post(target, row.payload, {
      "content-type": "application/json",
      "user-agent": "domain-intel-webhooks/1",
      "x-domain-intel-event": row.event,
      "x-domain-intel-delivery": String(row.id),
      "x-domain-intel-timestamp": String(Math.floor(now / 1000)),
      [SIGNATURE_HEADER.toLowerCase()]: signature(Redacted.value(config.webhookSigningSecret), row.payload)
    })
    if (status < 200 || status > 299) return yield* Effect.fail(new DeliveryFailed(`receiver answered ${status}`, false))
  })

const deliverEmail = (row: OutboxRow, sender: Context.Tag.Service<EmailSender>) => {
  const alert = JSON.parse(row.payload) as { rule_name?: string; metric?: string; status?: string }
  return sender.send({
    to: row.destination,
    subject: `[domain-intel] ${row.event === "alert.resolved" ? "Resolved" : "Alert"}: ${alert.rule_name ?? alert.metric}`,
    body: row.payload
  }).pipe(Effect.mapError((e) => new DeliveryFailed(e.message, false)))
}

/**
 * How long a claimed row stays invisible to other senders: longer than one delivery (the
 * webhook timeout), so a row is sent by one instance at a time; a sender that dies holding rows
 * leaves them to be retried after this.
 */
const CLAIM_MS = 6 * WEBHOOK_TIMEOUT_MS

/**
 * Claims up to BATCH due rows for this sender in one statement: pushes their next attempt past
 * the claim window, so no other instance picks them up meanwhile. On PostgreSQL the rows are
 * chosen `FOR UPDATE SKIP LOCKED` (concurrent claimers take disjoint rows without waiting); on
 * SQLite the UPDATE runs under the database write lock, which has the same effect.
 */
export const claimDue = (withEmail: boolean) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const now = yield* Clock.currentTimeMillis
    const rows = yield* sql<OutboxRow>`UPDATE alert_outbox SET next_attempt_at = ${now + CLAIM_MS}
      WHERE id IN (SELECT id FROM alert_outbox WHERE status = 'pending' AND next_attempt_at <= ${now}
        ${withEmail ? sql`` : sql`AND channel_type = 'webhook'`}
        ORDER BY id LIMIT ${BATCH} ${forUpdate(sql, true)})
      RETURNING id, alert_id, event, channel_type, destination, payload, attempts`
    return [...rows].sort((a, b) => a.id - b.id)
  })

/** Sends every due outbox row once; returns how many were delivered. */
export const deliverDue = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const config = yield* AppConfig
  const email = yield* Effect.serviceOption(EmailSender)
  const rows = yield* claimDue(Option.isSome(email))
  let delivered = 0
  yield* Effect.forEach(rows, (row) =>
    Effect.gen(function*() {
      const outcome = yield* Effect.either(
        row.channel_type === "webhook"
          ? deliverWebhook(row)
          : deliverEmail(row, Option.getOrThrow(email))
      )
      const at = yield* Clock.currentTimeMillis
      const attempts = row.attempts + 1
      if (outcome._tag === "Right") {
        delivered++
        yield* sql`UPDATE alert_outbox SET status = 'delivered', attempts = ${attempts}, delivered_at = ${at},
          last_error = NULL WHERE id = ${row.id}`
      } else {
        const failed = outcome.left.permanent || attempts >= MAX_ATTEMPTS
        yield* sql`UPDATE alert_outbox SET status = ${failed ? "failed" : "pending"}, attempts = ${attempts},
          next_attempt_at = ${at + backoffMs(attempts, config.webhookRetryBaseMs)},
          last_error = ${outcome.left.message} WHERE id = ${row.id}`
      }
    }), { concurrency: 8, discard: true })
  return delivered
}).pipe(Effect.withSpan("AlertOutbox.deliverDue"))
