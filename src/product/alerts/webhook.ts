/**
 * One signed webhook POST (Standard Webhooks 1.0): the URL vetted by the target guard, the
 * connection made to the vetted address only (Host and SNI carry the name), and ONE total
 * deadline of 10 s over everything (DNS, connect, request, answer): a receiver trickling its
 * answer a byte at a time is cut at the deadline, not kept alive by each byte.
 * Used by the outbox (src/product/alerts/Outbox.ts), the rule test endpoint and the monitors.
 */
import { Clock, Duration, Effect } from "effect"
import type * as https from "node:https"
import { TargetForbidden } from "../../kernel/errors"
import { parseTarget, type VettedTarget, vetTarget } from "../../adapters/probe/guard"
import { webhookHeaders } from "./analyze"
import { countOutbound } from "../../platform/observability/metrics"

/** The whole of one POST, DNS and the receiver's answer included (docs/operations/alert-rules.md, "Delivery"). */
export const WEBHOOK_DEADLINE_MS = 10_000

export class DeliveryFailed {
  readonly _tag = "DeliveryFailed"
  constructor(
    readonly message: string,
    /** Not worth retrying (a refused target, an unusable URL, a deleted signer). */
    readonly permanent: boolean,
    readonly httpStatus: number | null = null
  ) {}
}

/**
 * The node:http and node:https clients, loaded at the first delivery (later ones find them in
 * the module cache): nothing else in the server uses them, and evaluating them cost every
 * start-up ~2 ms (docs/operating.md, "The binary").
 */
const clients = Effect.promise(() => Promise.all([import("node:http"), import("node:https")]))

/** Sends the request and waits for the receiver's status line and headers; the body is discarded. */
const post = (target: VettedTarget, body: string, headers: Record<string, string>) =>
  Effect.flatMap(clients, ([httpClient, httpsClient]) => Effect.async<number, DeliveryFailed>((resume) => {
    const isHttps = target.url.protocol === "https:"
    const hostHeader = (target.host.includes(":") ? `[${target.host}]` : target.host) +
      ((isHttps && target.port === 443) || (!isHttps && target.port === 80) ? "" : `:${target.port}`)
    const req = (isHttps ? httpsClient : httpClient).request({
      host: target.address,
      port: target.port,
      method: "POST",
      path: `${target.url.pathname}${target.url.search}`,
      servername: isHttps && !target.literal ? target.host : undefined,
      headers: { ...headers, host: hostHeader, "content-length": String(Buffer.byteLength(body)) },
      agent: false
    } as https.RequestOptions, (res) => {
      // The status is all we need: do not wait for (or keep a socket open for) the body.
      resume(Effect.succeed(res.statusCode ?? 0))
      res.destroy()
    })
    req.on("error", (e) => resume(Effect.fail(new DeliveryFailed(`request failed: ${e.message}`, false))))
    req.end(body)
    return Effect.sync(() => req.destroy())
  }))

export interface WebhookMessage {
  readonly url: string
  readonly event: string
  readonly webhookId: string
  readonly body: string
  readonly secret: string
}

/**
 * Vets the URL and POSTs the signed message within WEBHOOK_DEADLINE_MS; succeeds with the 2xx
 * status, fails with DeliveryFailed (carrying the status when the receiver answered non-2xx).
 */
export const sendWebhook = (m: WebhookMessage) =>
  Effect.gen(function*() {
    const parsed = parseTarget(m.url)
    if (!("url" in parsed)) return yield* Effect.fail(new DeliveryFailed(parsed.message, true))
    const target = yield* vetTarget(parsed).pipe(
      Effect.mapError((e) => new DeliveryFailed(e.message, e instanceof TargetForbidden))
    )
    const now = yield* Clock.currentTimeMillis
    const status = yield* post(target, m.body, {
      "content-type": "application/json",
      "user-agent": "domain-intel-webhooks/2",
      "x-domain-intel-event": m.event,
      ...webhookHeaders(m.secret, m.webhookId, Math.floor(now / 1000), m.body)
    }).pipe(countOutbound("webhook")) // domain_intel_outbound_requests_total
    if (status < 200 || status > 299) {
      return yield* Effect.fail(new DeliveryFailed(`receiver answered ${status}`, false, status))
    }
    return status
  }).pipe(
    Effect.timeoutFail({
      duration: Duration.millis(WEBHOOK_DEADLINE_MS),
      onTimeout: () => new DeliveryFailed(`no complete answer within ${WEBHOOK_DEADLINE_MS / 1000} s`, false)
    }),
    Effect.withSpan("Webhook.send")
  )

/** The key a per-destination concurrency cap counts by: scheme, host and port of the URL. */
export const destinationKey = (url: string): string => {
  try {
    const u = new URL(url)
    return `${u.protocol}//${u.host.toLowerCase()}`
  } catch {
    return url
  }
}
