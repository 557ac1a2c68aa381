/**
 * The crt.sh-compatible aggregator as an Effect `HttpClient` adapter (in the manner of
 * stremio-effect's `Sources/Eztv.ts`): base URL prepended, no redirect followed (a 3xx is an
 * answer, refused by `filterStatusOk`), bodies read within a size cap, Schema-decoded rows,
 * retries of transient failures on a jittered exponential `Schedule` that ends inside the
 * budget. Every wait is an Effect sleep or timeout, so TestClock drives it.
 */
import { FetchHttpClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { Clock, Duration, Effect, Either, Layer, Schema } from "effect"
import type { CrtShRow } from "./entries"
import { countOutbound } from "../../platform/observability/metrics"
import { type Attempts, classify, counted, CtFetchError, failureOf, readCapped, retryUntil } from "./upstream"

export { CtFetchError } from "./upstream"

/** One row of `output=json`, loosely typed as crt.sh is an upstream; rows that fail are dropped. */
const IntLike = Schema.Union(Schema.Number, Schema.String)
const Text = Schema.optional(Schema.NullOr(Schema.String))
export const CrtShRowSchema = Schema.Struct({
  id: IntLike,
  issuer_ca_id: Schema.optional(Schema.NullOr(IntLike)),
  issuer_name: Text,
  common_name: Text,
  name_value: Text,
  entry_timestamp: Schema.String,
  not_before: Text,
  not_after: Text,
  serial_number: Text
})
const decodeRow = Schema.decodeUnknownEither(CrtShRowSchema)
const decodeRows = Schema.decodeUnknownEither(Schema.parseJson(Schema.Array(Schema.Unknown)))

const WHO = "aggregator"

export interface CrtShRows {
  readonly rows: ReadonlyArray<CrtShRow>
  /** Rows that did not decode (no ID, no logged time, wrong types). */
  readonly invalid: number
  readonly attempts: number
}

export const makeCrtShClient = (baseUrl: string) =>
  Effect.gen(function*() {
    const client = (yield* HttpClient.HttpClient).pipe(
      HttpClient.mapRequest(HttpClientRequest.prependUrl(baseUrl.replace(/\/+$/, ""))),
      HttpClient.mapRequest(HttpClientRequest.setHeader("accept", "application/json, application/x-pem-file, */*")),
      HttpClient.filterStatusOk
    )
    const getText = (urlParams: Record<string, string>) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        client.get("/", { urlParams }).pipe(
          Effect.catchAll(classify(WHO, now)),
          Effect.flatMap(readCapped(WHO)),
          Effect.scoped,
          countOutbound("ct") // domain_intel_outbound_requests_total
        ))

    /** `?q=<domain>&output=json`, retried within `budgetMs`. */
    const search = (domain: string, budgetMs: number) =>
      Effect.flatMap(Clock.currentTimeMillis, (start) => {
        const tally: Attempts = { attempts: 0, last: "no answer" }
        const once = counted(
          Effect.flatMap(getText({ q: domain, output: "json" }), (text) =>
            Either.match(decodeRows(text), {
              onLeft: () => Effect.fail(new CtFetchError({ reason: "invalid JSON from the aggregator (not a JSON array)", retryable: true })),
              onRight: (raw) => Effect.succeed(raw)
            })),
          tally
        )
        return retryUntil(once, start + budgetMs).pipe(
          Effect.timeoutFail({
            duration: Duration.millis(budgetMs),
            onTimeout: () => new CtFetchError({ reason: tally.last === "no answer" ? `no answer within ${budgetMs} ms` : tally.last, retryable: true })
          }),
          Effect.mapError((e) => failureOf(e, tally)),
          Effect.map((raw): CrtShRows => {
            const rows: Array<CrtShRow> = []
            for (const r of raw) {
              const d = decodeRow(r)
              if (Either.isRight(d)) rows.push(d.right)
            }
            return { rows, invalid: raw.length - rows.length, attempts: tally.attempts }
          })
        )
      })

    /** `?d=<id>`: one certificate as PEM, no retry. */
    const certificate = (id: number, timeoutMs: number) =>
      getText({ d: String(id) }).pipe(
        Effect.timeoutFail({ duration: Duration.millis(timeoutMs), onTimeout: () => new CtFetchError({ reason: `certificate ${id}: no answer within ${timeoutMs} ms`, retryable: false }) })
      )

    return { search, certificate }
  })

/** fetch without following redirects: a 3xx from the aggregator is its answer. */
export const CrtShHttpLive = FetchHttpClient.layer.pipe(
  Layer.provide(Layer.succeed(FetchHttpClient.RequestInit, { redirect: "manual" }))
)
