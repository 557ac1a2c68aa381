/**
 * Shared by rules and monitors: queueing an alert's notifications, replacing a signing secret,
 * and the synchronous test send to a list of channels (`POST /v1/alerts/rules/{id}/test`), which bypasses the outbox and reports
 * each channel's outcome.
 */
import { SqlClient } from "@effect/sql"
import { Clock, Effect, Option } from "effect"
import type { AppConfig } from "../../platform/Config"
import type { DnsResolver } from "../../adapters/dns/DnsResolver"
import {
  type AlertEvent,
  alertJson,
  type AlertRow,
  type Channel,
  newSigningSecret,
  newWebhookId,
  webhookBody
} from "./analyze"
import { EmailSender } from "./Outbox"
import { sendWebhook } from "./webhook"

/**
 * Queues one notification per channel of the owner (a rule or a monitor: its id signs them);
 * call inside the transaction that changes the alert.
 */
export const enqueueNotifications = (
  sql: SqlClient.SqlClient,
  alert: AlertRow,
  event: AlertEvent,
  owner: { readonly id: string; readonly name: string; readonly channels: string },
  now: number,
  extra: Record<string, unknown> = {}
) =>
  Effect.gen(function*() {
    const channels = JSON.parse(owner.channels) as ReadonlyArray<Channel>
    if (channels.length === 0) return
    const payload = webhookBody(event, alertJson(alert), owner.name, extra)
    yield* sql`INSERT INTO alert_outbox ${
      sql.insert(channels.map((c) => ({
        alert_id: alert.id,
        org_id: alert.org_id,
        owner_id: owner.id,
        webhook_id: newWebhookId(),
        event,
        channel_type: c.type,
        destination: c.type === "webhook" ? c.url : c.address,
        payload,
        status: "pending",
        attempts: 0,
        next_attempt_at: now,
        created_at: now
      })))
    }`
  })

/** Issues a fresh secret for the owner (a rule or monitor id), replacing any previous one. */
export const replaceSecret = (sql: SqlClient.SqlClient, ownerId: string) =>
  Effect.gen(function*() {
    const now = yield* Clock.currentTimeMillis
    const secret = newSigningSecret()
    yield* sql`INSERT INTO webhook_secrets (owner_id, secret, created_at) VALUES (${ownerId}, ${secret}, ${now})
      ON CONFLICT (owner_id) DO UPDATE SET secret = excluded.secret, created_at = excluded.created_at`
    return secret
  })

export interface TestDelivery {
  readonly channel: Channel
  readonly delivered: boolean
  readonly http_status: number | null
  readonly error: string | null
}

/** Sends `body` to every channel at once (each within the webhook deadline) and reports each. */
export const testChannels = (
  channels: ReadonlyArray<Channel>,
  event: string,
  body: string,
  secret: string,
  emailSubject: string
) =>
  Effect.gen(function*() {
    const email = yield* Effect.serviceOption(EmailSender)
    const deliveries = yield* Effect.forEach(channels, (channel): Effect.Effect<TestDelivery, never, AppConfig | DnsResolver> => {
      if (channel.type === "webhook") {
        return sendWebhook({ url: channel.url, event, webhookId: newWebhookId(), body, secret }).pipe(
          Effect.map((status) => ({ channel, delivered: true, http_status: status, error: null })),
          Effect.catchAll((e) => Effect.succeed({ channel, delivered: false, http_status: e.httpStatus, error: e.message }))
        )
      }
      if (Option.isNone(email)) {
        return Effect.succeed({ channel, delivered: false, http_status: null, error: "no email sender is configured on this server" })
      }
      return email.value.send({ to: channel.address, subject: emailSubject, body }).pipe(
        Effect.as({ channel, delivered: true, http_status: null, error: null }),
        Effect.catchAll((e) => Effect.succeed({ channel, delivered: false, http_status: null, error: e.message }))
      )
    }, { concurrency: "unbounded" })
    return { deliveries }
  })
