/**
 * SSLMate's Cert Spotter API (v1) as an Effect `HttpClient` adapter, beside `crtsh.ts`:
 * `GET {CT_CERTSPOTTER_URL}/v1/issuances?domain=…&include_subdomains=true&expand=dns_names&
 * expand=issuer&expand=cert_der`, its pages followed with `after=<the last issuance's id>` until
 * an empty page (or MAX_PAGES), `Authorization: Bearer` when a token is configured. Cert Spotter
 * coalesces a precertificate and its certificate into one issuance and lists only unexpired
 * ones. `cert_der` (the certificate, or the precertificate when the certificate is not known)
 * gives the serial number, which is what crt.sh's rows can be matched on (its JSON carries no
 * SHA-256), and the embedded SCTs. A 429 with Retry-After is waited for when the wait fits the
 * budget (`upstream.ts`); every wait is on Effect's Clock.
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { Clock, Duration, Effect, Either, Option, Redacted, Schema } from "effect"
import { countOutbound } from "../../platform/observability/metrics"
import { parseCrtTime, type CtEntry } from "./entries"
import { readDerBase64 } from "./der"
import { type Attempts, classify, counted, CtFetchError, failureOf, readCapped, retryUntil, type SourceFailure } from "./upstream"

/** Pages followed per query: enough for thousands of unexpired certificates, bounded. */
export const MAX_PAGES = 20

const Text = Schema.optional(Schema.NullOr(Schema.String))

/** The issuer object (`expand=issuer`); only its distinguished name is read. */
export const CertSpotterIssuer = Schema.Struct({ name: Text, friendly_name: Text, pubkey_sha256: Text })

/** One issuance object, as Cert Spotter's API documentation describes it. */
export const CertSpotterIssuance = Schema.Struct({
  id: Schema.String,
  tbs_sha256: Text,
  cert_sha256: Text,
  dns_names: Schema.optional(Schema.NullOr(Schema.Array(Schema.String))),
  pubkey_sha256: Text,
  issuer: Schema.optional(Schema.NullOr(CertSpotterIssuer)),
  not_before: Schema.String,
  not_after: Schema.String,
  revoked: Schema.optional(Schema.NullOr(Schema.Boolean)),
  cert_der: Text
})
export type CertSpotterIssuance = typeof CertSpotterIssuance.Type

const decodeIssuance = Schema.decodeUnknownEither(CertSpotterIssuance)
const decodePage = Schema.decodeUnknownEither(Schema.parseJson(Schema.Array(Schema.Unknown)))
/** The error body Cert Spotter sends with a 4xx or 5xx: `{code, message}`. */
const decodeApiError = Schema.decodeUnknownOption(Schema.parseJson(Schema.Struct({ code: Schema.optional(Schema.String), message: Schema.String })))
const apiErrorText = (body: string): string => Option.match(decodeApiError(body), { onNone: () => "", onSome: (e) => (e.code ? `${e.code}: ${e.message}` : e.message) })

const WHO = "Cert Spotter"

/** One issuance as a CT entry, plus the SCT count of its certificate (null for a precertificate). */
export interface CertSpotterEntry {
  readonly entry: CtEntry
  readonly finalSctCount: number | null
}

/**
 * An issuance as an entry; undefined when it cannot be one (an ID that is not a decimal number,
 * validity dates that do not parse). Fields crt.sh would give and Cert Spotter does not: the
 * logged time (its not_before stands in) and crt.sh's CA id.
 */
export const toEntry = (i: CertSpotterIssuance): CertSpotterEntry | undefined => {
  const id = /^\d{1,15}$/.test(i.id) ? Number(i.id) : NaN
  const notBefore = parseCrtTime(i.not_before)
  const notAfter = parseCrtTime(i.not_after)
  if (!Number.isSafeInteger(id) || notBefore === null || notAfter === null) return undefined
  const der = i.cert_der ? readDerBase64(i.cert_der) : undefined
  const names = [...new Set((i.dns_names ?? []).map((n) => n.toLowerCase()))].sort()
  return {
    entry: {
      id,
      ids: [],
      issuer: i.issuer?.name ?? i.issuer?.friendly_name ?? "",
      issuer_ca_id: null,
      common_name: der?.commonName ?? null,
      names,
      serial_number: der?.serial ?? null,
      not_before: notBefore,
      not_after: notAfter,
      timestamp: notBefore,
      sha256: i.cert_sha256 ? i.cert_sha256.toLowerCase() : null,
      certspotter_id: i.id,
      sources: ["certspotter"]
    },
    finalSctCount: der !== undefined && !der.precertificate && der.sctCount !== undefined ? der.sctCount : null
  }
}

export interface CertSpotterResult {
  readonly entries: ReadonlyArray<CertSpotterEntry>
  /** Issuances that did not decode or could not be entries. */
  readonly invalid: number
  readonly pages: number
  /** True when MAX_PAGES pages were read and the last one was not empty. */
  readonly truncated: boolean
  readonly attempts: number
}

export interface CertSpotterOptions {
  readonly baseUrl: string
  readonly token: Option.Option<Redacted.Redacted<string>>
}

/** Needs an HttpClient (redirects not followed, as for crt.sh). */
export const makeCertSpotterClient = (opts: CertSpotterOptions) =>
  Effect.gen(function*() {
    const token = Option.filter(opts.token, (t) => Redacted.value(t).length > 0)
    const client = (yield* HttpClient.HttpClient).pipe(
      HttpClient.mapRequest(HttpClientRequest.prependUrl(opts.baseUrl.replace(/\/+$/, ""))),
      HttpClient.mapRequest(HttpClientRequest.acceptJson),
      HttpClient.mapRequest((req) => Option.match(token, { onNone: () => req, onSome: (t) => HttpClientRequest.bearerToken(req, t) })),
      HttpClient.filterStatusOk
    )

    /** One page: the issuances discovered after `after` (from the start when undefined). */
    const page = (domain: string, after: string | undefined) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => {
        const urlParams: Array<[string, string]> = [
          ["domain", domain], ["include_subdomains", "true"],
          ["expand", "dns_names"], ["expand", "issuer"], ["expand", "cert_der"]
        ]
        if (after !== undefined) urlParams.push(["after", after])
        return client.get("/v1/issuances", { urlParams }).pipe(
          Effect.catchAll(classify(WHO, now, apiErrorText)),
          Effect.flatMap(readCapped(WHO)),
          Effect.scoped,
          countOutbound("ct"),
          Effect.flatMap((text) =>
            Either.match(decodePage(text), {
              onLeft: () => Effect.fail(new CtFetchError({ reason: "invalid JSON from Cert Spotter (not a JSON array)", retryable: true })),
              onRight: (raw) => Effect.succeed(raw)
            }))
        )
      })

    /** Every page of a domain's issuances, each page retried, all within `budgetMs`. */
    const search = (domain: string, budgetMs: number): Effect.Effect<CertSpotterResult, SourceFailure> =>
      Effect.flatMap(Clock.currentTimeMillis, (start) => {
        const tally: Attempts = { attempts: 0, last: "no answer" }
        const entries: Array<CertSpotterEntry> = []
        let invalid = 0
        const walk = (after: string | undefined, pages: number): Effect.Effect<CertSpotterResult, CtFetchError> =>
          Effect.flatMap(retryUntil(counted(page(domain, after), tally), start + budgetMs), (raw) => {
            let last: string | undefined
            for (const r of raw) {
              const d = decodeIssuance(r)
              const e = Either.isRight(d) ? toEntry(d.right) : undefined
              if (Either.isRight(d)) last = d.right.id
              if (e === undefined) invalid++
              else entries.push(e)
            }
            const done = { entries, invalid, pages: pages + 1, attempts: tally.attempts }
            // The documented end is an empty page; a page of nothing usable cannot be paged past.
            if (raw.length === 0 || last === undefined || last === after) return Effect.succeed({ ...done, truncated: false })
            if (pages + 1 >= MAX_PAGES) return Effect.succeed({ ...done, truncated: true })
            return walk(last, pages + 1)
          })
        return walk(undefined, 0).pipe(
          Effect.timeoutFail({
            duration: Duration.millis(budgetMs),
            onTimeout: () => new CtFetchError({ reason: tally.last === "no answer" ? `no answer within ${budgetMs} ms` : tally.last, retryable: true })
          }),
          Effect.mapError((e) => failureOf(e, tally))
        )
      })

    return { search }
  })
