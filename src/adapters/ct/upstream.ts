/**
 * What the CT aggregators' HttpClient adapters (crtsh.ts, certspotter.ts) share: the failure
 * type, which failures are worth another attempt, the body size cap, Retry-After, and the retry
 * Schedule that ends inside a source's budget. Every wait is an Effect sleep or timeout, so
 * TestClock drives it.
 */
import type { HttpClientError, HttpClientResponse } from "@effect/platform"
import { Clock, Data, Duration, Effect, Schedule, Stream } from "effect"

export const MAX_BODY = 64 * 1024 * 1024

export class CtFetchError extends Data.TaggedError("CtFetchError")<{
  readonly reason: string
  readonly retryable: boolean
  /** The wait a 429 or 503 answer asked for (its Retry-After), in ms. */
  readonly retryAfterMs?: number | undefined
}> {}

/**
 * Retry-After (RFC 9110 §10.2.3): delay-seconds or an HTTP-date, as ms from `now`; undefined
 * when absent or unreadable.
 */
export const retryAfterMs = (value: string | undefined, now: number): number | undefined => {
  if (value === undefined) return undefined
  const v = value.trim()
  if (/^\d+$/.test(v)) return Number(v) * 1000
  const at = Date.parse(v)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}

/**
 * HttpClient errors as retryable (transport, 5xx, 429, 408) or final (anything else, a redirect
 * included, as redirects are not followed). `who` names the source in the reason.
 */
export const classify = (who: string, now: number, detail?: (body: string) => string) =>
  (e: HttpClientError.HttpClientError): Effect.Effect<never, CtFetchError> => {
    if (e._tag === "RequestError") return Effect.fail(new CtFetchError({ reason: `connection failed: ${e.message}`, retryable: true }))
    const status = e.response.status
    if (status >= 300 && status < 400) {
      return Effect.fail(new CtFetchError({ reason: `${who} answered HTTP ${status} (redirects are not followed)`, retryable: false }))
    }
    const failure = (why: string) =>
      new CtFetchError({
        reason: `${who} answered HTTP ${status}${why ? `: ${why}` : ""}`,
        retryable: status >= 500 || status === 429 || status === 408,
        retryAfterMs: status === 429 || status === 503 ? retryAfterMs(e.response.headers["retry-after"], now) : undefined
      })
    if (detail === undefined) return Effect.fail(failure(""))
    // The error body may say why (an API's {code, message}): its first 2 KB, read within 1 s.
    return e.response.stream.pipe(
      Stream.decodeText(),
      Stream.runFoldWhile("", (text) => text.length < 2000, (text, part) => text + part),
      Effect.timeout(Duration.seconds(1)),
      Effect.map((body) => detail(body.slice(0, 2000))),
      Effect.orElseSucceed(() => ""),
      Effect.flatMap((why) => Effect.fail(failure(why)))
    )
  }

/** The body as text, refused past the cap (an endless body is not buffered). */
export const readCapped = (who: string) => (res: HttpClientResponse.HttpClientResponse) =>
  res.stream.pipe(
    Stream.mapError((e) => new CtFetchError({ reason: `connection failed while reading: ${e.message}`, retryable: true })),
    Stream.runFoldEffect({ size: 0, chunks: [] as Array<Uint8Array> }, (acc, chunk) =>
      acc.size + chunk.length > MAX_BODY
        ? Effect.fail(new CtFetchError({ reason: `${who} answer larger than ${MAX_BODY} bytes`, retryable: false }))
        : Effect.succeed({ size: acc.size + chunk.length, chunks: (acc.chunks.push(chunk), acc.chunks) })
    ),
    Effect.map((acc) => Buffer.concat(acc.chunks).toString("utf8"))
  )

/**
 * 250 ms doubling, jittered (x0.8-1.2), at most 4 s apart; an answer's Retry-After lengthens
 * that wait to itself. The budget's timeout ends it.
 */
export const retrySchedule = Schedule.exponential(Duration.millis(250)).pipe(
  Schedule.union(Schedule.spaced(Duration.seconds(4))),
  Schedule.jittered,
  Schedule.zipRight(Schedule.identity<CtFetchError>()),
  // At least the Retry-After (RFC 9110 §10.2.3), and never less than the backoff: a
  // `Retry-After: 0` answered again and again must not become a busy loop.
  Schedule.modifyDelay((e, d) => (e.retryAfterMs !== undefined ? Duration.max(d, Duration.millis(e.retryAfterMs)) : d))
)

/**
 * `once`, retried on `retrySchedule` while its failure is retryable. A Retry-After that would
 * end past `deadline` (epoch ms) is not waited for: the failure is final at once, with its
 * Retry-After kept so the caller can leave the source alone until then.
 */
export const retryUntil = <A, R>(once: Effect.Effect<A, CtFetchError, R>, deadline: number): Effect.Effect<A, CtFetchError, R> =>
  once.pipe(
    Effect.catchAll((e) =>
      e.retryAfterMs === undefined || !e.retryable
        ? Effect.fail(e)
        : Effect.flatMap(Clock.currentTimeMillis, (now) =>
          now + e.retryAfterMs! <= deadline
            ? Effect.fail(e)
            : Effect.fail(new CtFetchError({
              reason: `${e.reason}; its Retry-After (${Math.ceil(e.retryAfterMs! / 1000)} s) ends past the budget`,
              retryable: false,
              retryAfterMs: e.retryAfterMs
            })))
    ),
    Effect.retry({ schedule: retrySchedule, while: (e) => e.retryable })
  )

/** A fetch with the number of attempts it took and the last failure seen, for the messages. */
export interface Attempts {
  attempts: number
  last: string
}

/** Counts the attempts of `once` and remembers the last failure's reason in `tally`. */
export const counted = <A, R>(once: Effect.Effect<A, CtFetchError, R>, tally: Attempts): Effect.Effect<A, CtFetchError, R> =>
  Effect.sync(() => tally.attempts++).pipe(
    Effect.zipRight(once),
    Effect.tapError((e) => Effect.sync(() => { tally.last = e.reason }))
  )

/** How a source's fetch failed, with the attempts it made: what the aggregator reports. */
export interface SourceFailure {
  readonly reason: string
  readonly retryable: boolean
  readonly retryAfterMs: number | undefined
  readonly attempts: number
}

export const failureOf = (e: CtFetchError, tally: Attempts): SourceFailure =>
  ({ reason: e.reason, retryable: e.retryable, retryAfterMs: e.retryAfterMs, attempts: tally.attempts })
