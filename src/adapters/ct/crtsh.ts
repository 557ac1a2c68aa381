/**
 * The crt.sh-compatible aggregator as an Effect `HttpClient` adapter (in the manner of
 * stremio-effect's `Sources/Eztv.ts`): base URL prepended, no redirect followed (a 3xx is an
 * answer, refused by `filterStatusOk`), bodies read within a size cap, Schema-decoded rows,
 * retries of transient failures on a jittered exponential `Schedule` that ends inside the
 * budget. Every wait is an Effect sleep or timeout, so TestClock drives it.
 */
import { FetchHttpClient, HttpClient, HttpClientError, HttpClientRequest, type HttpClientResponse } from "@effect/platform"
import { Data, Duration, Effect, Either, Layer, Schedule, Schema, Stream } from "effect"
import type { CrtShRow } from "./entries"
import { countOutbound } from "../../platform/observability/metrics"

const MAX_BODY = 64 * 1024 * 1024

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

export class CtFetchError extends Data.TaggedError("CtFetchError")<{ readonly reason: string; readonly retryable: boolean }> {}

/** HttpClient errors as retryable (transport, 5xx, 429, 408) or final (anything else, a redirect included). */
const classify = (e: HttpClientError.HttpClientError): CtFetchError => {
  if (e._tag === "RequestError") return new CtFetchError({ reason: `connection failed: ${e.message}`, retryable: true })
  const status = e.response.status
  if (status >= 300 && status < 400) return new CtFetchError({ reason: `aggregator answered HTTP ${status} (redirects are not followed)`, retryable: false })
  return new CtFetchError({ reason: `aggregator answered HTTP ${status}`, retryable: status >= 500 || status === 429 || status === 408 })
}

/** The body as text, refused past the cap (an endless body is not buffered). */
const readCapped = (res: HttpClientResponse.HttpClientResponse) =>
  res.stream.pipe(
    Stream.mapError((e) => new CtFetchError({ reason: `connection failed while reading: ${e.message}`, retryable: true })),
    Stream.runFoldEffect({ size: 0, chunks: [] as Array<Uint8Array> }, (acc, chunk) =>
      acc.size + chunk.length > MAX_BODY
        ? Effect.fail(new CtFetchError({ reason: `aggregator answer larger than ${MAX_BODY} bytes`, retryable: false }))
        : Effect.succeed({ size: acc.size + chunk.length, chunks: (acc.chunks.push(chunk), acc.chunks) })
    ),
    Effect.map((acc) => Buffer.concat(acc.chunks).toString("utf8"))
  )

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
      client.get("/", { urlParams }).pipe(
        Effect.mapError(classify),
        Effect.flatMap(readCapped),
        Effect.scoped,
        countOutbound("ct") // domain_intel_outbound_requests_total
      )

    /** `?q=<domain>&output=json`, retried within `budgetMs`. */
    const search = (domain: string, budgetMs: number) =>
      Effect.suspend(() => {
        let attempts = 0
        let last = "no answer"
        const once = Effect.sync(() => attempts++).pipe(
          Effect.zipRight(getText({ q: domain, output: "json" })),
          Effect.flatMap((text) =>
            Either.match(decodeRows(text), {
              onLeft: () => Effect.fail(new CtFetchError({ reason: "invalid JSON from the aggregator (not a JSON array)", retryable: true })),
              onRight: (raw) => Effect.succeed(raw)
            })
          ),
          Effect.tapError((e) => Effect.sync(() => { last = e.reason }))
        )
        // 250 ms doubling, jittered (x0.8-1.2), at most 4 s apart; the budget's timeout ends it.
        const schedule = Schedule.exponential(Duration.millis(250)).pipe(
          Schedule.union(Schedule.spaced(Duration.seconds(4))),
          Schedule.jittered
        )
        return once.pipe(
          Effect.retry({ schedule, while: (e) => e.retryable }),
          Effect.timeoutFail({
            duration: Duration.millis(budgetMs),
            onTimeout: () => new CtFetchError({ reason: last === "no answer" ? `no answer within ${budgetMs} ms` : last, retryable: true })
          }),
          Effect.mapError((e) => ({ ...e, attempts })),
          Effect.map((raw): CrtShRows => {
            const rows: Array<CrtShRow> = []
            for (const r of raw) {
              const d = decodeRow(r)
              if (Either.isRight(d)) rows.push(d.right)
            }
            return { rows, invalid: raw.length - rows.length, attempts }
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
