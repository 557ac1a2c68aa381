/** Content Freshness: fetch the page (bounded), then the pure analysis. */
import { Clock, Context, Effect, Layer } from "effect"
import type { InvalidRequest, TargetForbidden, UpstreamUnavailable } from "../../kernel/errors"
import { HttpProbe } from "../../adapters/probe/HttpProbe"
import { AppConfig } from "../../platform/Config"
import { fetchPage, pageTarget, unreachable } from "../page/target"
import type { FreshnessReport } from "./analyze"
import { decodeHtml } from "./decode"

/** Bytes of page examined: enough for any real article, small enough that parsing stays in tens of ms. */
export const MAX_PAGE_BYTES = 3 * 1024 * 1024
export const FETCH_TIMEOUT_MS = 10_000

const redirectFailures = new Set(["too_many_redirects", "invalid_redirect_location", "target_forbidden", "dns_resolution_failed"])

const isHtmlType = (ct: string | undefined, body: Uint8Array) => {
  if (ct) return /html|xml/i.test(ct)
  const head = Buffer.from(body.subarray(0, 512)).toString("latin1").toLowerCase()
  return head.includes("<html") || head.includes("<!doctype") || head.includes("<head") || head.includes("<meta")
}

export class ContentFreshness extends Context.Tag("domain-intel/ContentFreshness")<ContentFreshness, {
  readonly analyze: (domain: string) => Effect.Effect<FreshnessReport, InvalidRequest | TargetForbidden | UpstreamUnavailable>
}>() {
  static readonly Live = Layer.effect(
    this,
    Effect.gen(function*() {
      const probe = yield* HttpProbe
      const config = yield* AppConfig
      const ports = { https: config.pageHttpsPort, http: config.pageHttpPort }
      const analyze = Effect.fn("ContentFreshness.analyze")(function*(domain: string) {
        const target = pageTarget(domain, ports)
        if (target instanceof Error) return yield* target
        const outcome = yield* fetchPage(target, {
          method: "GET",
          headers: [["Accept", "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5"]],
          timeoutMs: FETCH_TIMEOUT_MS,
          maxBodyBytes: MAX_PAGE_BYTES,
          followRedirects: true,
          maxRedirects: 5,
          decompress: true
        }).pipe(Effect.provideService(HttpProbe, probe))
        const r = outcome.response
        // No page: nothing answered, or the redirects never led to one (loop, refused or broken hop).
        if (r === null || (outcome.error !== null && redirectFailures.has(outcome.error.kind))) return yield* unreachable(outcome)
        const nowMs = yield* Clock.currentTimeMillis
        // The analysis and its HTML parser (parse5) are loaded on the first page analysed, not at start-up.
        const { analyzePage } = yield* Effect.promise(() => import("./analyze"))
        const body = r.body.subarray(0, MAX_PAGE_BYTES)
        const isHtml = isHtmlType(r.headers["content-type"], body)
        const html = isHtml ? decodeHtml(body, r.headers["content-type"]) : ""
        return analyzePage({
          domain: target.host,
          url: outcome.requestedUrl,
          finalUrl: outcome.finalUrl,
          status: r.status,
          headers: r.headers,
          html,
          isHtml,
          bodyTruncated: r.truncated,
          nowMs
        })
      })
      return { analyze }
    })
  )
}
