/**
 * The domain audit (docs/operations/domain-audit.md): the asked sections at once, each over the
 * very services its single operations use (HttpSecurityGrade, TlsScan, EmailSecurity,
 * ZoneHygiene, SubdomainTakeover, Blocklist) and the IPv6 observations, then the pure judges
 * (judge*.ts) and the scores (score.ts).
 *
 * Flow: every asked section starts at once, beside the domain's A and AAAA lookups, which
 * decide whether the domain exists (NXDOMAIN: 404 once ResolverHealth has confirmed that the
 * service's own resolvers answer for the root, and the sections are stopped; they do not: 502)
 * and the web host (the domain, or www.<domain> when the domain has neither: the web inputs
 * started for the domain are then dropped). Each input is bounded by what is left of the audit's
 * budget (AUDIT_DEADLINE_MS less a margin for the answer): an input that fails or runs out of
 * time is `{ unavailable }`, so its checks are undecided and its section incomplete, never
 * failed; only the own resolvers' failure ends the audit (502). An input two sections read (the
 * blocklist report, the web host's addresses) is made once.
 */
import { Clock, Context, Duration, Effect, Fiber, Layer } from "effect"
import { dataOf, type DnsAnswerSet, DnsResolver } from "../../adapters/dns/DnsResolver"
import { OwnResolversDown, ResolverHealth } from "../../adapters/dns/ResolverHealth"
import { HttpProbe } from "../../adapters/probe/HttpProbe"
import { NotFound, type UpstreamUnavailable } from "../../kernel/errors"
import { AppConfig } from "../../platform/Config"
import { Blocklist } from "../blocklist/Blocklist"
import { ipItem } from "../blocklist/query"
import type { BlocklistReport } from "../blocklist/schema"
import { EmailSecurity } from "../mail/EmailSecurity"
import { HttpSecurityGrade } from "../observatory/HttpSecurityGrade"
import { SubdomainTakeover } from "../takeover/SubdomainTakeover"
import { TlsScan } from "../tls/TlsScan"
import { ZoneHygiene } from "../zone/ZoneHygiene"
import { type Section, SECTIONS } from "./checks"
import { Ipv6Readiness, makeIpv6Readiness } from "./Ipv6Readiness"
import type { SecurityHeadersReport } from "../observatory/schema"
import type { TlsReport } from "../tls/schema"
import type { WebIpv6Observation } from "./ipv6"
import { type CheckResult, type Input, isUnavailable, judgeWeb, type WebReach } from "./judge"
import { judgeDns, judgeExposure } from "./judgeDns"
import { judgeMail } from "./judgeMail"
import type { DomainAuditReport } from "./schema"
import { summarizeAudit } from "./score"
import { webReach } from "./webReach"

export interface AuditRequest {
  /** The domain, normalised by the operation's schema. */
  readonly domain: string
  /** The sections asked (all when empty). */
  readonly sections: ReadonlyArray<Section>
  /** Test STARTTLS on every MX address (as email security's `starttls`). */
  readonly starttls: boolean
  /** The organization the zone audit's slots are counted for. */
  readonly orgId?: string
}

export interface DomainAuditShape {
  readonly audit: (req: AuditRequest) => Effect.Effect<DomainAuditReport, NotFound | UpstreamUnavailable>
}

/** Time kept back from AUDIT_DEADLINE_MS for judging and answering: the inputs get the rest. */
export const answerMarginMs = (deadlineMs: number) => Math.min(1500, Math.round(deadlineMs / 5))

const reasonOf = (e: unknown): string =>
  typeof e === "object" && e !== null && "message" in e && typeof e.message === "string" && e.message !== "" ? e.message : String(e)

/** The addresses of an answer set of type A or AAAA, sorted (a resolver rotates them). */
const addressesOf = (ans: DnsAnswerSet): ReadonlyArray<string> => [...dataOf(ans.answers, "A"), ...dataOf(ans.answers, "AAAA")].sort()

/** Two blocklist reports of this audit as one: the domain's, and its web addresses' where the web host is another name. */
const mergeBlocklist = (base: BlocklistReport, more: ReadonlyArray<BlocklistReport>): BlocklistReport => ({
  ...base,
  ips: [...new Set([...base.ips, ...more.flatMap((r) => r.ips)])],
  lists: [...base.lists, ...more.flatMap((r) => r.lists)],
  listed_count: base.listed_count + more.reduce((n, r) => n + r.listed_count, 0),
  limitations: [...base.limitations, ...more.flatMap((r) => r.limitations)]
})

export const makeDomainAudit = Effect.gen(function*() {
  const config = yield* AppConfig
  const resolver = yield* DnsResolver
  const health = yield* ResolverHealth
  const probe = yield* HttpProbe
  const grader = yield* HttpSecurityGrade
  const tlsScan = yield* TlsScan
  const email = yield* EmailSecurity
  const zone = yield* ZoneHygiene
  const takeover = yield* SubdomainTakeover
  const blocklist = yield* Blocklist
  const ipv6 = yield* Ipv6Readiness

  /** The A or AAAA answer of `name`, the root confirmed healthy before a negative or failed one is believed. */
  const addressLookup = (name: string, type: "A" | "AAAA") =>
    health.guard(name, resolver.query({ name, type }), (a) => a.rcode !== "NOERROR").pipe(
      Effect.map((ans): { readonly ans: DnsAnswerSet } | { readonly failed: string } => ({ ans })),
      Effect.catchAll((e) => (e instanceof OwnResolversDown ? Effect.fail(e) : Effect.succeed({ failed: e.message })))
    )

  const audit = Effect.fn("DomainAudit.audit")(function*(req: AuditRequest) {
    const t0 = yield* Clock.currentTimeMillis
    const budgetMs = config.auditDeadlineMs - answerMarginMs(config.auditDeadlineMs)
    const asked = new Set<Section>(req.sections.length === 0 ? SECTIONS : req.sections)
    const domain = req.domain

    /** One input: its value, or why it could not be had within what is left of the budget. */
    const input = <A, E>(what: string, eff: Effect.Effect<A, E>): Effect.Effect<Input<A>, OwnResolversDown> =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => {
        const left = Math.max(0, t0 + budgetMs - now)
        return eff.pipe(
          Effect.map((value): Input<A> => value),
          Effect.timeoutTo({
            duration: Duration.millis(left),
            onSuccess: (x) => x,
            onTimeout: (): Input<A> => ({ unavailable: `${what}: no result within the audit's ${config.auditDeadlineMs} ms (AUDIT_DEADLINE_MS)` })
          }),
          Effect.catchAll((e) => (e instanceof OwnResolversDown ? Effect.fail(e) : Effect.succeed<Input<A>>({ unavailable: `${what}: ${reasonOf(e)}` }))),
          Effect.catchAllDefect((d) =>
            Effect.as(Effect.logWarning(`domain audit: ${what} failed unexpectedly`, d), { unavailable: `${what} failed unexpectedly` } as Input<A>))
        )
      })

    // The domain's own addresses: whether it exists, and the web host (the domain when it has an
    // address, else www.<domain>). Everything that needs only the domain starts beside them.
    const own = yield* Effect.cached(Effect.map(
      Effect.all([addressLookup(domain, "A"), addressLookup(domain, "AAAA")], { concurrency: 2 }),
      ([a, aaaa]) => ({
        nxdomain: ("ans" in a && a.ans.rcode === "NXDOMAIN") || ("ans" in aaaa && aaaa.ans.rcode === "NXDOMAIN"),
        addresses: "ans" in a && "ans" in aaaa ? [...addressesOf(a.ans), ...addressesOf(aaaa.ans)] : null,
        failed: "failed" in a ? a.failed : "failed" in aaaa ? aaaa.failed : null
      })
    ))
    const webHost = Effect.map(own, (o) => (o.addresses === null || o.addresses.length > 0 ? domain : `www.${domain}`))
    const webAddresses = yield* Effect.cached(Effect.flatMap(own, (o): Effect.Effect<Input<ReadonlyArray<string>>, OwnResolversDown> => {
      if (o.addresses === null) return Effect.succeed({ unavailable: `the addresses of ${domain} could not be looked up: ${o.failed}` })
      if (o.addresses.length > 0) return Effect.succeed(o.addresses)
      const www = `www.${domain}`
      return input(`the addresses of ${www}`, Effect.map(
        Effect.all([resolver.query({ name: www, type: "A" }), resolver.query({ name: www, type: "AAAA" })], { concurrency: 2 }),
        ([x, y]) => [...addressesOf(x), ...addressesOf(y)]
      ))
    }))

    /** The web inputs of `host` (a site without address answers nothing), each an input of its own. */
    const webInputs = (host: string, addresses: ReadonlyArray<string> | null) =>
      Effect.all([
        input(`the fetch of ${host}`, addresses !== null && addresses.length === 0 ? Effect.succeed<WebReach>({ https: null, http: null }) : webReach(probe, host)),
        input(`the IPv6 observation of ${host}`, ipv6.web(host)),
        input(`the security headers of ${host}`, grader.grade(host)),
        input(`the TLS scan of ${host}:443`, tlsScan.scan(host, 443))
      ], { concurrency: "unbounded" })

    const domainBlocklist = yield* Effect.cached(input("blocklist", blocklist.check(domain)))
    /** The domain's report, with the web addresses it does not hold checked beside it (the web host is another name). */
    const fullBlocklist = yield* Effect.cached(Effect.gen(function*() {
      const base = yield* domainBlocklist
      const addrs = yield* webAddresses
      if (isUnavailable(base) || isUnavailable(addrs)) return base
      const held = new Set(base.ips)
      const extra = [...new Set(addrs.map((x) => ipItem(x)?.value ?? x))].filter((x) => !held.has(x))
      const more = yield* Effect.forEach(extra, (ip) => input(`blocklist of ${ip}`, blocklist.check(ip)), { concurrency: "unbounded" })
      const missing = more.filter(isUnavailable)
      return missing.length > 0 ? missing[0] : mergeBlocklist(base, more.filter((r): r is BlocklistReport => !isUnavailable(r)))
    }))

    const made: { -readonly [K in keyof DomainAuditReport["reports"]]: DomainAuditReport["reports"][K] } = {
      security_headers: null, tls: null, email: null, zone_hygiene: null, takeover: null, blocklist: null
    }
    const keep = <K extends keyof typeof made>(key: K) => (x: Input<NonNullable<(typeof made)[K]>>) => {
      if (!isUnavailable(x)) made[key] = x
      return x
    }

    const sections: Record<Section, () => Effect.Effect<ReadonlyArray<CheckResult>, OwnResolversDown>> = {
      // The domain's site is fetched while its lookups run; when the web host turns out to be
      // www.<domain> (or unknown), that work is dropped.
      web: () =>
        Effect.gen(function*() {
          const early = yield* Effect.fork(webInputs(domain, null))
          const host = yield* webHost
          const addrs = yield* webAddresses
          let inputs: readonly [Input<WebReach>, Input<WebIpv6Observation>, Input<SecurityHeadersReport>, Input<TlsReport>]
          if (isUnavailable(addrs)) {
            yield* Fiber.interrupt(early)
            inputs = [addrs, addrs, addrs, addrs]
          } else if (host === domain) inputs = yield* Fiber.join(early)
          else {
            yield* Fiber.interrupt(early)
            inputs = yield* webInputs(host, addrs)
          }
          const [reach, v6, securityHeaders, tls] = inputs
          keep("security_headers")(securityHeaders)
          keep("tls")(tls)
          return judgeWeb({ host, reach, ipv6: v6, securityHeaders, tls })
        }),
      mail: () =>
        Effect.map(Effect.all([
          input("email security", email.check({ domain, dkimSelectors: [], starttls: req.starttls })).pipe(Effect.map(keep("email"))),
          domainBlocklist
        ], { concurrency: "unbounded" }), ([report, bl]) => judgeMail({ email: report, starttls: req.starttls, blocklist: bl })),
      dns: () =>
        Effect.map(Effect.all([
          input("zone hygiene", zone.audit(domain, req.orgId)).pipe(Effect.map(keep("zone_hygiene"))),
          input("the IPv6 observation of the name servers", ipv6.nameservers(domain))
        ], { concurrency: "unbounded" }), ([z, nameservers]) => judgeDns({ zone: z, nameservers })),
      exposure: () =>
        Effect.map(Effect.all([
          input("subdomain takeover", takeover.check({ domain, names: [] })).pipe(Effect.map(keep("takeover"))),
          fullBlocklist,
          webAddresses
        ], { concurrency: "unbounded" }), ([t, bl, addrs]) =>
          // Without the web addresses the blocklist standing cannot be decided either.
          judgeExposure({ domain, takeover: t, blocklist: isUnavailable(addrs) ? addrs : bl, webAddresses: isUnavailable(addrs) ? [] : addrs }))
    }

    const timed = (s: Section) =>
      asked.has(s)
        ? Effect.flatMap(sections[s](), (checks) => Effect.map(Clock.currentTimeMillis, (t) => ({ checks, ms: t - t0 })))
        : Effect.succeed(null)
    // Every section starts now; a domain that does not exist stops them all (they are this fiber's children).
    const running = yield* Effect.fork(Effect.all(SECTIONS.map(timed), { concurrency: "unbounded" }))
    if ((yield* own).nxdomain) return yield* new NotFound({ message: `${domain} does not exist (NXDOMAIN)` })
    const [web, mail, dns, exposure] = yield* Fiber.join(running)
    // The blocklist report as this audit made it: with the web addresses when exposure asked them.
    for (const bl of [asked.has("exposure") ? yield* fullBlocklist : null, asked.has("exposure") || asked.has("mail") ? yield* domainBlocklist : null]) {
      if (made.blocklist === null && bl !== null && !isUnavailable(bl)) made.blocklist = bl
    }
    const end = yield* Clock.currentTimeMillis
    const summary = summarizeAudit({ web: web?.checks ?? null, mail: mail?.checks ?? null, dns: dns?.checks ?? null, exposure: exposure?.checks ?? null })
    return {
      domain,
      checked_at: new Date(t0).toISOString(),
      timings_ms: { total: end - t0, web: web?.ms ?? null, mail: mail?.ms ?? null, dns: dns?.ms ?? null, exposure: exposure?.ms ?? null },
      score: summary.score,
      grade: summary.grade,
      sections: summary.sections,
      reports: made,
      findings: summary.findings,
      recommendations: summary.recommendations,
      limitations: summary.limitations
    } satisfies DomainAuditReport
  })

  return { audit } satisfies DomainAuditShape
})

export class DomainAudit extends Context.Tag("domain-intel/DomainAudit")<DomainAudit, DomainAuditShape>() {
  /**
   * Its own IPv6 reader, made as the audit is (not a layer of its own: every layer node costs the
   * server's start-up steps whatever it holds; docs/operating.md, "Fourth pass: fewer layer nodes").
   */
  static readonly Live = Layer.effect(this, Effect.provideServiceEffect(makeDomainAudit, Ipv6Readiness, makeIpv6Readiness))
}

