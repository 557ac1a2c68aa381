/**
 * Shared by rules and monitors: replacing a signing secret, and the synchronous test send to a
 * list of channels (`POST /v1/alerts/rules/{id}/test`), which bypasses the outbox and reports
 * each channel's outcome.
 */
import { SqlClient } from "@effect/sql"
import { Clock, Effect, Option } from "effect"
import type { AppConfig } from "../Config"
import type { DnsResolver } from "../dns/DnsResolver"
import { type Channel, newSigningSecret, newWebhookId } from "./analyze"
import { EmailSender } from "./Outbox"
import { sendWebhook } from "./webhook"

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
