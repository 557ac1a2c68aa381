/**
 * Fetching what the MDN HTTP Observatory fetches, through HttpProbe (target guard on every hop,
 * body cap, deadline): `/` over http and over https at once, each following redirects hop by
 * hop with the session's cookie jar (jar.ts: each hop carries the cookies the earlier ones set,
 * as the Observatory's client sends them), then the CORS preflight on the graded session's last
 * URL. `/robots.txt` changes nothing in the Observatory unless its session fell back to
 * unverified TLS (only then do its follow-up requests share the cookie jar, and the preflight
 * goes to robots.txt's address), so it is fetched in that case only. security.txt (RFC 9116 §3)
 * is fetched alongside for the extras.
 */
import { Clock, Effect, Fiber, Option } from "effect"
import type { InvalidRequest, TargetForbidden } from "../../kernel/errors"
import { GET_BODY_CAP } from "../network/HttpCheck"
import { HttpProbe, type HttpProbeShape, type ProbeOutcome } from "../../adapters/probe/HttpProbe"
import { Jar } from "./jar"
import type { Hop, Retrieval, Session } from "./retrieval"

/** Each session's whole chain, as the Observatory's own abort signal (10 s). */
export const SESSION_TIMEOUT_MS = 10_000
/** The Observatory follows at most 10 redirects. */
const MAX_REDIRECTS = 10
const REDIRECTS = new Set([301, 302, 303, 307, 308])
/** The Origin the Observatory sends with its preflight; reflecting it proves nothing about us. */
export const CORS_ORIGIN = "https://http-observatory.security.mozilla.org"

const PAGE_HEADERS: ReadonlyArray<readonly [string, string]> = [["Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"]]
const ROBOTS_HEADERS: ReadonlyArray<readonly [string, string]> = [["Accept", "text/plain,*/*;q=0.8"]]
const PREFLIGHT_HEADERS: ReadonlyArray<readonly [string, string]> = [["Access-Control-Request-Method", "GET"], ["Origin", CORS_ORIGIN]]

interface Chain {
  readonly hops: ReadonlyArray<Hop>
  readonly verified: boolean
  readonly body: Buffer | null
  readonly contentType: string | null
  readonly jar: Jar
}

/**
 * One request with its redirects followed hop by hop (303 turns into GET, as HTTP clients do);
 * null when any hop fails (no answer, a refused redirect target, an unusable Location). With a
 * jar, each hop carries its cookies and stores what it sets; without, none are sent (the
 * Observatory's follow-up client has no jar while its session's TLS was verified).
 */
const chain = (
  fetch: HttpProbeShape["fetch"],
  url: string,
  method: "GET" | "OPTIONS",
  headers: ReadonlyArray<readonly [string, string]>,
  timeoutMs: number,
  /** The session's jar (null: no cookies kept or sent). */
  jar: Jar | null,
  /** Page requests without cookies already made in this scan, shared by URL (see `retrieve`). */
  pageHop?: (url: string) => Effect.Effect<ProbeOutcome, InvalidRequest | TargetForbidden>
) =>
  Effect.gen(function*() {
    const cookies = jar ?? new Jar()
    const started = performance.now()
    const hops: Array<Hop> = []
    let verified = true
    let current = url
    let verb = method
    for (;;) {
      const left = timeoutMs - (performance.now() - started)
      if (left <= 0) return null
      const now = yield* Clock.currentTimeMillis
      const cookie = jar ? jar.header(current, now) : null
      const request = pageHop && cookie === null && verb === "GET" && headers === PAGE_HEADERS
        ? pageHop(current)
        : fetch({
          url: current, method: verb, headers: cookie === null ? headers : [...headers, ["Cookie", cookie]],
          timeoutMs: left, followRedirects: false, maxBodyBytes: GET_BODY_CAP, decompress: true
        })
      const fetched: ProbeOutcome | null = yield* request.pipe(
        // The first hop's refusal is the caller's (the target itself is forbidden).
        Effect.catchAll((e) => (hops.length === 0 ? Effect.fail(e) : Effect.succeed(null)))
      )
      const res = fetched?.response
      if (!fetched || !res || fetched.error) return null
      if (res.tls && !res.tls.authorized && verified) {
        verified = false
        // The Observatory's verified attempt ends at this handshake and starts the session over
        // without verification, keeping the jar: the earlier hops then carry what they set.
        if (hops.length > 0 && jar && jar.list().length > 0) {
          hops.length = 0
          current = url
          verb = method
          continue
        }
      }
      hops.push({ url: current, status: res.status, rawHeaders: res.rawHeaders })
      if (jar) jar.store(current, res.setCookies, yield* Clock.currentTimeMillis)
      if (hops.length > MAX_REDIRECTS || !REDIRECTS.has(res.status)) {
        return { hops, verified, body: res.body, contentType: res.headers["content-type"] ?? null, jar: cookies } satisfies Chain
      }
      try {
        // A missing Location resolves as the word "undefined", as the Observatory's client does.
        current = new URL(res.headers["location"] ?? "undefined", current).href
      } catch {
        return null
      }
      if (res.status === 303) verb = "GET"
    }
  })

const setCookiesOf = (h: Hop): ReadonlyArray<string> => h.rawHeaders.filter(([k]) => k.toLowerCase() === "set-cookie").map(([, v]) => v)

const asSession = (c: Chain | null): Session | null =>
  c === null ? null : { hops: c.hops, verified: c.verified, body: c.body === null ? null : c.body.toString("utf8"), cookies: c.jar.list() }

export interface Fetched {
  readonly retrieval: Retrieval
  readonly securityTxt: { status: number; contentType: string | null; body: string } | null
  readonly securityTxtUrl: string
}

export interface ScanTarget {
  readonly host: string
  readonly httpUrl: string
  readonly httpsUrl: string
}

export const retrieve = (target: ScanTarget) =>
  Effect.gen(function*() {
    const probe = yield* HttpProbe
    // Every request of the scan goes to the same hosts: each name is resolved once, shared.
    const fetch = yield* probe.sharingLookups
    const securityTxtUrl = new URL("/.well-known/security.txt", target.httpsUrl).href
    // The same page request made twice in one scan is made once: http://host/ usually redirects
    // to https://host/, which the https session fetches at the same moment. The Observatory
    // fetches it twice; a server answers the same request the same way, and this saves a round trip.
    const pageHop = yield* Effect.cachedFunction((url: string) =>
      fetch({ url, method: "GET", headers: PAGE_HEADERS, timeoutMs: SESSION_TIMEOUT_MS, followRedirects: false, maxBodyBytes: GET_BODY_CAP, decompress: true })
    )
    // The preflight usually goes to https://host/ (the graded page when it does not redirect):
    // sent at once, and used when that is where it belongs.
    const early = yield* Effect.fork(chain(fetch, target.httpsUrl, "OPTIONS", PREFLIGHT_HEADERS, SESSION_TIMEOUT_MS, null).pipe(Effect.catchAll(() => Effect.succeed(null))))
    const bounded = <A, E, R>(e: Effect.Effect<A | null, E, R>) => e.pipe(Effect.timeoutOption(SESSION_TIMEOUT_MS), Effect.map(Option.getOrNull))
    const [http, https, txt] = yield* Effect.all([
      bounded(chain(fetch, target.httpUrl, "GET", PAGE_HEADERS, SESSION_TIMEOUT_MS, new Jar(), pageHop)),
      bounded(chain(fetch, target.httpsUrl, "GET", PAGE_HEADERS, SESSION_TIMEOUT_MS, new Jar(), pageHop)),
      chain(fetch, securityTxtUrl, "GET", [["Accept", "text/plain"]], SESSION_TIMEOUT_MS, null).pipe(Effect.catchAll(() => Effect.succeed(null)))
    ], { concurrency: "unbounded" })
    const graded = https ?? http
    let cors: Retrieval["cors"] = null
    if (graded) {
      const last = graded.hops[graded.hops.length - 1].url
      let corsUrl = last
      // Only a session that fell back to unverified TLS shares its jar with its follow-up
      // requests: they carry its cookies, and what they set counts for the cookie test.
      const jar = graded.verified ? null : graded.jar
      if (jar) {
        const robots = yield* chain(fetch, new URL("/robots.txt", https ? target.httpsUrl : target.httpUrl).href, "GET", ROBOTS_HEADERS, SESSION_TIMEOUT_MS, jar)
          .pipe(Effect.catchAll(() => Effect.succeed(null)))
        const status = robots?.hops[robots.hops.length - 1].status ?? 0
        if (robots && status >= 200 && status < 300) corsUrl = robots.hops[0].url
      }
      const now = yield* Clock.currentTimeMillis
      // The early preflight carried no cookies: it stands for this one when none were due, and
      // with a jar only as a single answer (a redirect's next hop would have carried its cookies).
      const earlyFits = corsUrl === target.httpsUrl && (jar === null || jar.header(corsUrl, now) === null)
      let pre = earlyFits ? yield* Fiber.join(early) : null
      if (earlyFits && jar && pre && pre.hops.length === 1) jar.store(pre.hops[0].url, setCookiesOf(pre.hops[0]), now)
      if (!earlyFits || (jar && pre && pre.hops.length > 1)) {
        pre = yield* chain(fetch, corsUrl, "OPTIONS", PREFLIGHT_HEADERS, SESSION_TIMEOUT_MS, jar).pipe(Effect.catchAll(() => Effect.succeed(null)))
      }
      const answer = pre?.hops[pre.hops.length - 1]
      // Only a 2xx answer reaches the Observatory's test (its client rejects the others).
      if (answer && answer.status >= 200 && answer.status < 300) cors = { rawHeaders: answer.rawHeaders, origin: CORS_ORIGIN }
    }
    yield* Fiber.interrupt(early)
    const txtLast = txt?.hops[txt.hops.length - 1]
    return {
      retrieval: { hostname: target.host, http: asSession(http), https: asSession(https), cors },
      securityTxt: txt && txtLast ? { status: txtLast.status, contentType: txt.contentType, body: txt.body?.toString("utf8") ?? "" } : null,
      securityTxtUrl
    } satisfies Fetched
  }).pipe(Effect.scoped) as Effect.Effect<Fetched, InvalidRequest | TargetForbidden, HttpProbe>
