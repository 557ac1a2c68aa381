/**
 * WAF Detection: one benign request for passive detection; with active_probe=true and proven
 * ownership, five canary requests (never cached) to a random path that does not exist.
 */
import { Context, Effect, Layer } from "effect"
import { isIP } from "node:net"
import { getDomain } from "../../kernel/publicSuffix"
import { AuditTokens } from "./AuditTokens"
import { AppConfig } from "../../platform/Config"
import { ActiveProbe as ActiveProbeSchema, ProviderOut as ProviderOutSchema, WafReport as WafReportSchema } from "./schema"
import { DnsResolver, txtText } from "../../adapters/dns/DnsResolver"
import type { InvalidRequest, TargetForbidden } from "../../kernel/errors"
import { decodeHtml } from "../freshness/decode"
import { noteCache } from "../../platform/http/CurrentRequest"
import { fetchPage, pageTarget } from "../page/target"
import { HttpProbe, round, type ProbeOutcome } from "../../adapters/probe/HttpProbe"
import {
  blockCategoryOf,
  CANARIES,
  type CanaryResult,
  detectProviders,
  enforcementOf,
  judgeCanary,
  type ObservedResponse,
  probeSummary,
  type ProviderMatch
} from "./analyze"
import { wafRecommendations, wafVerdict } from "./verdict"
import type { BlockCategory } from "./signatures"

export const PASSIVE_TIMEOUT_MS = 10_000
export const CANARY_TIMEOUT_MS = 5_000
const MAX_BODY = 512 * 1024
const CANARY_BODY = 64 * 1024
export const VERIFY_LABEL = "_domain-intel-verify"

const benignHeaders: ReadonlyArray<readonly [string, string]> = [
  ["User-Agent", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36 domain-intel"],
  ["Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"],
  ["Accept-Language", "en-US,en;q=0.8"]
]

export type ProviderOut = typeof ProviderOutSchema.Type
export type ActiveProbe = typeof ActiveProbeSchema.Type
export type WafReport = typeof WafReportSchema.Type

export const observed = (o: ProbeOutcome): ObservedResponse | null => {
  const r = o.response
  if (r === null) return null
  return { status: r.status, reason: r.statusText, headers: r.headers, setCookies: r.setCookies, body: decodeHtml(r.body, r.headers["content-type"]) }
}

const publicMatch = (p: ProviderMatch): ProviderOut => ({
  name: p.name,
  vendor: p.vendor,
  confidence: p.confidence,
  confidence_level: p.confidence_level,
  role: p.role,
  evidence: p.evidence,
  last_verified_at: p.last_verified_at,
  source_url: p.source_url
})

const randomHex = (bytes: number) => {
  const b = new Uint8Array(bytes)
  crypto.getRandomValues(b)
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("")
}

export class WafDetection extends Context.Tag("domain-intel/WafDetection")<WafDetection, {
  readonly detect: (input: { readonly domain: string; readonly activeProbe: boolean; readonly auditToken: string | undefined }) =>
    Effect.Effect<WafReport, InvalidRequest | TargetForbidden>
}>() {
  static readonly Live = Layer.effect(
    this,
    Effect.gen(function*() {
      const probe = yield* HttpProbe
      const resolver = yield* DnsResolver
      const config = yield* AppConfig
      const auditTokens = yield* AuditTokens

      /** Ownership: an audit token for this domain, else the TXT record on the host or its registrable domain. */
      const verifyOwnership = Effect.fn("WafDetection.verifyOwnership")(function*(host: string, auditToken: string | undefined) {
        if (auditToken !== undefined) {
          const ok = yield* auditTokens.verify(auditToken, host)
          if (ok) return { ok: true as const, method: "audit_token" as const, name: host }
        }
        if (isIP(host) !== 0) {
          return { ok: false as const, reason: `${host} is an IP address: ownership can only be proven with an audit token issued for it` }
        }
        const names = [host]
        const registrable = getDomain(host, { allowPrivateDomains: true })
        if (registrable && registrable !== host) names.push(registrable)
        for (const name of names) {
          const qname = `${VERIFY_LABEL}.${name}`
          const ans = yield* resolver.query({ name: qname, type: "TXT", tcp: true }).pipe(Effect.option)
          if (ans._tag === "None") continue
          const found = ans.value.answers.some((a) => a.type === "TXT" && /^verify=\S+/.test(txtText(a).trim()))
          if (found) return { ok: true as const, method: "dns_txt" as const, name: qname }
        }
        return {
          ok: false as const,
          reason: auditToken !== undefined
            ? `the audit token presented was not issued for ${host}, and no TXT record ${VERIFY_LABEL}.${host} with value verify=<token> was found`
            : `ownership of ${host} is not proven: publish a TXT record ${VERIFY_LABEL}.${host} with value verify=<token>, or call with an audit token for ${host} as the Bearer credential`
        }
      })

      const runCanaries = Effect.fn("WafDetection.canaries")(function*(origin: string, baselineStatus: number | null) {
        const path = `/__domain-intel-canary-${randomHex(8)}`
        return yield* Effect.forEach(CANARIES, (spec) =>
          probe.fetch({
            url: origin + path + spec.query,
            method: "GET",
            headers: [...benignHeaders.filter(([k]) => !spec.headers.some(([h]) => h.toLowerCase() === k.toLowerCase())), ...spec.headers],
            timeoutMs: CANARY_TIMEOUT_MS,
            followRedirects: false,
            maxBodyBytes: CANARY_BODY,
            decompress: true
          }).pipe(
            Effect.map((o) => judgeCanary(spec, { response: observed(o), error: o.error, elapsedMs: o.totalMs }, baselineStatus)),
            Effect.catchAll((e) => Effect.succeed(judgeCanary(spec, { response: null, error: { kind: "refused", message: e.message }, elapsedMs: 0 }, baselineStatus)))
          ), { concurrency: 5 })
      })

      const detect = Effect.fn("WafDetection.detect")(function*(input: { readonly domain: string; readonly activeProbe: boolean; readonly auditToken: string | undefined }) {
        const target = pageTarget(input.domain, { https: config.pageHttpsPort, http: config.pageHttpPort })
        if (target instanceof Error) return yield* target
        const outcome = yield* fetchPage(target, {
          method: "GET",
          headers: benignHeaders,
          timeoutMs: PASSIVE_TIMEOUT_MS,
          maxBodyBytes: MAX_BODY,
          followRedirects: true,
          maxRedirects: 5,
          decompress: true
        }).pipe(Effect.provideService(HttpProbe, probe))
        const obs = observed(outcome)
        const matches = obs ? detectProviders(obs) : []

        let activeProbe: ActiveProbe | null = null
        if (input.activeProbe) {
          yield* noteCache("bypass")
          const own = yield* verifyOwnership(target.host, input.auditToken)
          if (!own.ok) {
            activeProbe = { probed: false, ownership_verified: false, method: null, refusal_reason: own.reason }
          } else {
            // Canaries go only to the verified name itself (docs/operations/waf-detection.md,
            // "Canaries"): to the final origin when a redirect stayed on that very host
            // (http → https), never to a sibling or parent host, nor to someone else's.
            const final = new URL(outcome.finalUrl)
            const finalHost = final.hostname.replace(/^\[|\]$/g, "").toLowerCase()
            const origin = finalHost === target.host ? final.origin : new URL(outcome.requestedUrl).origin
            const results = yield* runCanaries(origin, obs?.status ?? null)
            activeProbe = {
              probed: true,
              ownership_verified: true,
              method: own.method,
              verified_name: own.name,
              target: origin,
              canaries: results,
              summary: probeSummary(results)
            }
          }
        }
        const blockedCanaries = activeProbe?.probed ? activeProbe.summary.blocked : null
        const emptyObs: ObservedResponse = { status: 0, headers: {}, setCookies: [], body: "" }
        const enforcement = enforcementOf(obs ?? emptyObs, matches, blockedCanaries)
        const verdict = wafVerdict(matches, obs?.headers["via"])
        const topo = verdict.topology
        const providers = verdict.providers.map(publicMatch)
        return {
          domain: target.host,
          url: outcome.requestedUrl,
          final_url: outcome.finalUrl,
          detected: verdict.wafs.length > 0,
          provider_present: verdict.wafs.length > 0,
          enforcement_signal: enforcement,
          block_category: blockCategoryOf(obs?.status ?? null, matches, obs?.body),
          status_code: obs?.status ?? null,
          primaryProvider: verdict.primaryProvider,
          providers,
          providerCount: verdict.wafs.length,
          topology: topo.topology,
          topology_chain: topo.topology_chain,
          active_probe: activeProbe,
          recommendations: wafRecommendations({
            providers: matches,
            enforcement,
            topology: topo.topology,
            headers: obs?.headers ?? {},
            activeProbe: activeProbe === null ? null : activeProbe.probed ? { probed: true, results: activeProbe.canaries } : { probed: false }
          }),
          error: outcome.error ? `${outcome.error.kind}: ${outcome.error.message}` : null,
          response_time_ms: round(outcome.totalMs)
        } satisfies WafReport
      })
      return { detect }
    })
  )
}
