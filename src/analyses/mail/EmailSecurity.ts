/**
 * Email Security (docs/operations/email-security.md): every lookup of the report at once: MX (then
 * each host's addresses and TLSA, then STARTTLS when asked), SPF (the evaluator's posture walk),
 * DMARC at the domain and at its organizational domain (then the authorization records of
 * external report destinations), DKIM selectors, MTA-STS TXT and policy, TLS-RPT and BIMI.
 * Nothing waits on a lookup it does not need.
 * Failures: the target's broken DNS (SERVFAIL, its servers timing out) becomes findings, and a
 * domain that does not exist (NXDOMAIN) is 404 not_found, as in Zone Hygiene; but before either
 * verdict ResolverHealth confirms that the service's own resolvers answer for the root zone,
 * else the answer is 502 upstream_unavailable (docs/dns.md, "Own resolver health"). A report whose
 * lookups all answered asks nothing more.
 */
import { Clock, Context, Effect, Layer } from "effect"
import { probeStarttls } from "../../adapters/smtp/Starttls"
import { AppConfig } from "../../platform/Config"
import { dataOf, DnsResolver } from "../../adapters/dns/DnsResolver"
import { ResolverHealth } from "../../adapters/dns/ResolverHealth"
import { DnssecValidator } from "../../adapters/dnssec/DnssecValidator"
import { NotFound, UpstreamUnavailable } from "../../kernel/errors"
import { classifyAddress } from "../../adapters/probe/guard"
import { HttpProbe, readExtraCas } from "../../adapters/probe/HttpProbe"
import { bimiReport } from "./bimi"
import { daneMx, tlsaName, type DaneObservation } from "./dane"
import { dkimKeyAt, MAX_EXTRA_SELECTORS, selectorsToCheck, type ParsedDkimKey } from "./dkim"
import { applicableDmarc, authorizationName, authorizes, dmarcReport, externalDestinations, organizationalDomain, parseDmarc } from "./dmarc"
import { emailFindings } from "./findings"
import { mtaStsReport } from "./mtaSts"
import { mxHosts, mxReport } from "./mx"
import { fetchPolicy } from "./policyFetch"
import { makeMailDns, spfDnsOf } from "./resolverDns"
import type { CheckName, EmailSecurityReport, StarttlsResult } from "./schema"
import { summarize } from "./score"
import { spfPosture } from "./spf/posture"
import { tlsRptReport } from "./tlsRpt"

export interface EmailSecurityRequest {
  readonly domain: string
  readonly dkimSelectors: ReadonlyArray<string>
  readonly starttls: boolean
}

export interface EmailSecurityShape {
  readonly check: (req: EmailSecurityRequest) => Effect.Effect<EmailSecurityReport, UpstreamUnavailable | NotFound>
}

/** At most this many MX hosts and addresses per host are looked at (a hostile MX set stays cheap). */
const MAX_MX_HOSTS = 10
const MAX_IPS_PER_HOST = 4

export const makeEmailSecurity = Effect.gen(function*() {
  const config = yield* AppConfig
  const resolver = yield* DnsResolver
  const health = yield* ResolverHealth
  const validator = yield* DnssecValidator
  const probe = yield* HttpProbe
  const dns = makeMailDns(resolver)
  const spfDns = spfDnsOf(dns)
  const extraCa = readExtraCas(config.extraCaCerts)

  const allowedIp = (ip: string) => {
    const c = classifyAddress(ip)
    return c !== "metadata" && (c !== "private" || config.allowPrivateTargets)
  }

  const addresses = (host: string) =>
    Effect.all([dns.a(host), dns.aaaa(host)], { concurrency: 2 }).pipe(
      Effect.map(([a, aaaa]) => [...(a._tag === "Found" ? a.records : []), ...(aaaa._tag === "Found" ? aaaa.records : [])])
    )

  const tlsa = (host: string): Effect.Effect<DaneObservation> =>
    validator.validateRRset(tlsaName(host), "TLSA").pipe(
      Effect.map((v): DaneObservation => ({
        host,
        tlsa: v.rcode === "NOERROR" ? dataOf(v.records, "TLSA") : [],
        status: v.status,
        reason: v.reason,
        error: v.rcode === "NOERROR" || v.rcode === "NXDOMAIN" ? null : v.rcode
      })),
      Effect.catchAll((e) => Effect.succeed<DaneObservation>({ host, tlsa: [], status: "indeterminate", reason: e.message, error: e._tag === "DnsRcode" ? e.rcode : e.message }))
    )

  const starttlsOf = (host: string, ips: ReadonlyArray<string>, domain: string) =>
    Effect.forEach(ips.slice(0, MAX_IPS_PER_HOST), (ip): Effect.Effect<StarttlsResult> =>
      allowedIp(ip)
        ? probeStarttls({ host, ip, port: config.smtpPort, timeoutMs: config.smtpTimeoutMs, ca: extraCa, helo: `domain-intel.invalid` })
        : Effect.succeed({ host, ip, supported: false, tls_version: null, certificate_valid: null, error: "address refused by the target guard (non-public)" }),
      { concurrency: "unbounded" }).pipe(Effect.annotateLogs("domain", domain))

  /** MX, then per host its addresses with TLSA (and STARTTLS once the addresses are known). */
  const mxPart = (domain: string, starttls: boolean) =>
    Effect.gen(function*() {
      const lookup = yield* dns.mx(domain)
      const records = lookup._tag === "Found" ? lookup.records : []
      const hosts = mxHosts(records).slice(0, MAX_MX_HOSTS)
      const perHost = yield* Effect.forEach(hosts, (host) =>
        Effect.all([
          addresses(host).pipe(Effect.flatMap((ips) => (starttls ? Effect.map(starttlsOf(host, ips, domain), (st) => ({ ips, st })) : Effect.succeed({ ips, st: [] as ReadonlyArray<StarttlsResult> })))),
          tlsa(host)
        ], { concurrency: 2 }), { concurrency: "unbounded" })
      return {
        lookup,
        hosts,
        ips: Object.fromEntries(hosts.map((h, i) => [h, perHost[i][0].ips])),
        dane: perHost.map(([, d]) => d),
        starttls: starttls ? perHost.flatMap(([x]) => x.st) : null
      }
    })

  /** `_dmarc` at the domain and at its organizational domain at once, then the authorization records. */
  const dmarcPart = (domain: string) =>
    Effect.gen(function*() {
      const org = organizationalDomain(domain)
      const [own, orgLookup] = yield* Effect.all([dns.txt(`_dmarc.${domain}`), org !== domain ? dns.txt(`_dmarc.${org}`) : Effect.succeed(null)], { concurrency: 2 })
      const chosen = applicableDmarc({ domain, own, org: orgLookup })
      const parsed = chosen.selection.kind === "record" ? parseDmarc(chosen.selection.record) : null
      const dests = parsed ? [...new Set(externalDestinations(chosen.policyDomain, parsed.rua, parsed.ruf).map((d) => d.domain))].slice(0, 10) : []
      const auth = yield* Effect.forEach(dests, (d) => Effect.map(dns.txt(authorizationName(chosen.policyDomain, d)), (l) => [d, authorizes(l)] as const), { concurrency: "unbounded" })
      return { own, report: dmarcReport({ domain, own, org: orgLookup, authorization: Object.fromEntries(auth) }) }
    })

  const dkimPart = (domain: string, extra: ReadonlyArray<string>) => {
    const { selectors, invalid } = selectorsToCheck(extra.slice(0, MAX_EXTRA_SELECTORS))
    return Effect.forEach(selectors, (s) => Effect.map(dns.txt(`${s}._domainkey.${domain}`), (l) => dkimKeyAt(s, l)), { concurrency: 64 }).pipe(
      Effect.map((keys) => ({ selectors, invalid, found: keys.filter((k): k is ParsedDkimKey => k !== null) }))
    )
  }

  const check = Effect.fn("EmailSecurity.check")(function*(req: EmailSecurityRequest) {
    const domain = req.domain
    const checkedAt = new Date(yield* Clock.currentTimeMillis).toISOString()
    const [mx, spf, dmarc, dkim, stsTxt, policy, rpt, bimi] = yield* Effect.all([
      mxPart(domain, req.starttls),
      spfPosture(spfDns, domain),
      dmarcPart(domain),
      dkimPart(domain, req.dkimSelectors),
      dns.txt(`_mta-sts.${domain}`),
      fetchPolicy(probe, domain, config.mtaStsTimeoutMs),
      dns.txt(`_smtp._tls.${domain}`),
      dns.txt(`default._bimi.${domain}`)
    ], { concurrency: "unbounded" })
    // A negative or failing answer at the domain is the domain's own (404, findings) only when
    // the service's resolvers answer for the root.
    const nxdomain = mx.lookup._tag === "Void" && mx.lookup.rcode === "NXDOMAIN"
    if (nxdomain || [mx.lookup, dmarc.own, stsTxt, rpt, bimi].some((l) => l._tag === "Failed")) yield* health.confirm(domain)
    if (nxdomain) return yield* new NotFound({ message: `domain ${domain} does not exist` })

    const mxR = mxReport({ lookup: mx.lookup, ips: mx.ips })
    const mtaSts = mtaStsReport({ txt: stsTxt, fetch: policy, mxHosts: mx.hosts })
    const tlsRpt = tlsRptReport(rpt)
    const bimiR = bimiReport(bimi)
    const findings = emailFindings({
      domain,
      mx: mxR,
      mxError: mx.lookup._tag === "Failed" ? mx.lookup.reason : null,
      spf,
      dmarc: dmarc.report,
      dkim: { checked: dkim.selectors.length, found: dkim.found, invalidSelectors: dkim.invalid },
      mtaSts,
      tlsRpt,
      bimi: bimiR,
      dane: mx.dane,
      starttls: mx.starttls
    })
    const notRun = new Set<CheckName>(req.starttls ? [] : ["starttls"])
    const limitations = [
      `DKIM keys cannot be listed through DNS: ${dkim.selectors.length} selectors were checked (built-in common list${req.dkimSelectors.length > 0 ? " plus dkim_selectors" : ""})`,
      ...(req.starttls ? [] : ["STARTTLS was not tested (pass starttls=true to connect to each MX)"]),
      ...(mxHosts(mx.lookup._tag === "Found" ? mx.lookup.records : []).length > MAX_MX_HOSTS ? [`Only the first ${MAX_MX_HOSTS} MX hosts were checked`] : []),
      ...(mx.dane.some((d) => d.tlsa.length === 0 && d.error === null) ? ["An MX without TLSA records is reported with an empty tlsa list; the absence itself is not DNSSEC-proven"] : [])
    ]
    return {
      domain,
      checked_at: checkedAt,
      mx: mxR,
      spf,
      dmarc: dmarc.report,
      dkim: { selectors_checked: dkim.selectors, selectors_found: dkim.found.map(({ errors: _e, ...k }) => k) },
      mta_sts: mtaSts,
      tls_rpt: tlsRpt,
      bimi: bimiR,
      dane: { mx: mx.dane.map(daneMx) },
      starttls: mx.starttls,
      ...summarize(findings, notRun),
      limitations
    } satisfies EmailSecurityReport
  })

  return { check } satisfies EmailSecurityShape
})

export class EmailSecurity extends Context.Tag("domain-intel/EmailSecurity")<EmailSecurity, EmailSecurityShape>() {
  static readonly Live = Layer.effect(this, makeEmailSecurity)
}
