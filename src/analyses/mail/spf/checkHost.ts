/**
 * check_host() of RFC 7208 §4-§6 over an SpfDns. The processing limits of §4.6.4 are counted as
 * evaluation reaches each term (the OpenSPF suite's include-at-limit passes because evaluation
 * stops at the first match), across include and redirect, in one counter per check.
 */
import { Clock, Data, Effect } from "effect"
import { recordsOf, type SpfDns, type SpfLookup } from "./dns"
import { formatIp, inCidr, type Ip, macroIp, parseClientIp, sameIp } from "./ip"
import { expand, type MacroString, parseMacroString, queryName, usesLetter } from "./macro"
import { isSpfRecord, type Mechanism, parseRecord, QUALIFIER_RESULT, type Target } from "./parse"
import type { SpfCheck } from "./schema"

export interface CheckHostInput {
  readonly ip: string
  /** The domain whose policy is checked: the MAIL FROM domain, or the HELO name. */
  readonly domain: string
  /** MAIL FROM (or postmaster@<helo>); without "@" it is taken as a bare domain. */
  readonly sender: string
  readonly helo?: string
  /** %{r} in explanations (§7.3); "unknown" when not given. */
  readonly receiver?: string
  /** Milliseconds since the epoch for %{t}; the Clock when not given. */
  readonly now?: number
}

/** permerror/temperror end the whole check (§4.6.4, §5); carried on the error channel. */
class Stop extends Data.TaggedError("Stop")<{ readonly result: "permerror" | "temperror"; readonly reason: string }> {}
const perm = (reason: string) => new Stop({ result: "permerror", reason })

type Final = "pass" | "fail" | "softfail" | "neutral" | "none"
interface Outcome {
  readonly result: Final
  readonly mechanism?: string
  /** The exp= of the record whose mechanism gave "fail", with that record's domain for %{d}. */
  readonly exp?: { readonly target: Target; readonly domain: string }
}

const MAX_LOOKUPS = 10
const MAX_VOID = 2
/** §4.6.4: at most 10 MX names per mx, at most 10 PTR names per ptr / %{p}. */
const MAX_NAMES = 10

interface Run {
  readonly dns: SpfDns
  readonly ip: Ip
  readonly ipText: string
  readonly values: Record<string, string>
  readonly pCache: Map<string, string>
  lookups: number
  voids: number
}

const countLookup = (run: Run) =>
  ++run.lookups > MAX_LOOKUPS ? Effect.fail(perm(`more than ${MAX_LOOKUPS} DNS lookups`)) : Effect.void

const countVoid = <A>(run: Run, l: SpfLookup<A>) =>
  l._tag === "Void" && ++run.voids > MAX_VOID
    ? Effect.fail(perm(`more than ${MAX_VOID} void lookups`))
    : Effect.void

const temp = (e: { readonly name: string; readonly reason: string }) =>
  new Stop({ result: "temperror", reason: `DNS error for ${e.name}: ${e.reason}` })

const addresses = (run: Run, name: string) =>
  (run.ip.v === 4 ? run.dns.a(name) : run.dns.aaaa(name)).pipe(Effect.mapError(temp))

const matchesAny = (run: Run, texts: ReadonlyArray<string>, prefix: number) =>
  texts.some((t) => {
    const ip = parseClientIp(t)
    return ip !== null && ip.v === run.ip.v && inCidr(run.ip.bytes, ip.bytes, prefix)
  })

const normal = (name: string) => name.toLowerCase().replace(/\.$/, "")

/**
 * PTR names of the client that validate (their A/AAAA includes the client), among the first
 * ten (§4.6.4); `want` filters before validating, so names that cannot match cost no query.
 * A failing forward lookup skips that name (§5.5).
 */
const validatedNames = (run: Run, names: ReadonlyArray<string>, want: (name: string) => boolean) =>
  Effect.all(
    names.slice(0, MAX_NAMES).map(normal).filter(want).map((name) =>
      addresses(run, name).pipe(
        Effect.map((l) => recordsOf(l).some((t) => sameIp(parseClientIp(t)?.bytes ?? new Uint8Array(), run.ip.bytes))),
        Effect.orElseSucceed(() => false),
        Effect.map((ok) => (ok ? [name] : []))
      )
    ),
    { concurrency: "unbounded" }
  ).pipe(Effect.map((lists) => lists.flat()))

const isUnder = (name: string, domain: string) => name === domain || name.endsWith(`.${domain}`)

/** %{p} (§7.3): the validated name equal to <domain>, else one under it, else any, else "unknown". */
const pMacro = (run: Run, domain: string) => {
  const cached = run.pCache.get(domain)
  if (cached !== undefined) return Effect.succeed(cached)
  const d = normal(domain)
  return run.dns.ptr(run.ipText).pipe(
    Effect.flatMap((l) => validatedNames(run, recordsOf(l), () => true)),
    Effect.orElseSucceed(() => [] as Array<string>),
    Effect.map((names) => names.find((n) => n === d) ?? names.find((n) => isUnder(n, d)) ?? names[0] ?? "unknown"),
    Effect.tap((p) => run.pCache.set(domain, p))
  )
}

const expandFor = (run: Run, ms: MacroString, domain: string) =>
  (usesLetter(ms, "p") ? pMacro(run, domain) : Effect.succeed("unknown")).pipe(
    Effect.map((p) => expand(ms, { ...run.values, d: domain, p }))
  )

/** The name a mechanism queries: its domain-spec expanded, or the current domain. */
const targetOf = (run: Run, ms: MacroString | null, domain: string) =>
  ms === null ? Effect.succeed(queryName(domain)) : expandFor(run, ms, domain).pipe(Effect.map(queryName))

const mechanismMatches = (run: Run, m: Mechanism, domain: string): Effect.Effect<boolean, Stop> =>
  Effect.gen(function*() {
    switch (m.kind) {
      case "all":
        return true
      case "ip4":
      case "ip6":
        return m.network.v === run.ip.v && inCidr(run.ip.bytes, m.network.bytes, m.prefix)
      case "include": {
        yield* countLookup(run)
        const target = yield* targetOf(run, m.domain, domain)
        const r = target === null ? ({ result: "none" } as Outcome) : yield* evaluate(run, target, true)
        // §5.2: pass matches; fail, softfail, neutral do not; none is a permerror.
        if (r.result === "none") return yield* perm(`include:${m.spec} has no SPF record`)
        return r.result === "pass"
      }
      case "exists": {
        yield* countLookup(run)
        const target = yield* targetOf(run, m.domain, domain)
        if (target === null) return false
        // §5.7: always an A query, whatever the client's address family.
        const l = yield* run.dns.a(target).pipe(Effect.mapError(temp))
        yield* countVoid(run, l)
        return l._tag === "Found"
      }
      case "a": {
        yield* countLookup(run)
        const target = yield* targetOf(run, m.domain, domain)
        if (target === null) return false
        const l = yield* addresses(run, target)
        yield* countVoid(run, l)
        return matchesAny(run, recordsOf(l), run.ip.v === 4 ? m.cidr4 : m.cidr6)
      }
      case "mx": {
        yield* countLookup(run)
        const target = yield* targetOf(run, m.domain, domain)
        if (target === null) return false
        const l = yield* run.dns.mx(target).pipe(Effect.mapError(temp))
        yield* countVoid(run, l)
        const mxs = recordsOf(l)
        if (mxs.length > MAX_NAMES) return yield* perm(`mx:${target} has ${mxs.length} MX records (more than ${MAX_NAMES})`)
        // A null MX (RFC 7505, exchange ".") names no host; the exchanges are looked up together.
        const hosts = mxs.map((r) => normal(r.exchange)).filter((h) => queryName(h) !== null)
        const results = yield* Effect.all(hosts.map((h) => Effect.either(addresses(run, h))), {
          concurrency: "unbounded"
        })
        const prefix = run.ip.v === 4 ? m.cidr4 : m.cidr6
        if (results.some((r) => r._tag === "Right" && matchesAny(run, recordsOf(r.right), prefix))) return true
        const failed = results.find((r) => r._tag === "Left")
        return failed?._tag === "Left" ? yield* failed.left : false
      }
      case "ptr": {
        yield* countLookup(run)
        const target = yield* targetOf(run, m.domain, domain)
        if (target === null) return false
        const t = normal(target)
        // §5.5: a DNS error on the PTR query makes the mechanism not match.
        const l = yield* run.dns.ptr(run.ipText).pipe(Effect.either)
        if (l._tag === "Left") return false
        yield* countVoid(run, l.right)
        const names = yield* validatedNames(run, recordsOf(l.right), (n) => isUnder(n, t))
        return names.length > 0
      }
    }
  })

/** One check_host() level: record selection (§4.4, §4.5), then terms in order (§4.6, §6.1). */
const evaluate = (run: Run, domain: string, nested: boolean): Effect.Effect<Outcome, Stop> =>
  Effect.gen(function*() {
    const l = yield* run.dns.txt(domain).pipe(Effect.mapError(temp))
    if (nested) yield* countVoid(run, l)
    const spf = recordsOf(l).filter(isSpfRecord)
    if (spf.length === 0) return { result: "none" } as Outcome
    if (spf.length > 1) return yield* perm(`${spf.length} SPF records at ${domain}`)
    const parsed = parseRecord(spf[0])
    if (!parsed.ok) return yield* perm(`${domain}: ${parsed.error}`)
    const record = parsed.value
    for (const d of record.directives) {
      if (yield* mechanismMatches(run, d.mechanism, domain)) {
        const result = QUALIFIER_RESULT[d.qualifier]
        const exp = result === "fail" && record.exp !== null ? { target: record.exp, domain } : undefined
        return { result, mechanism: d.text, ...(exp ? { exp } : {}) }
      }
    }
    if (record.redirect === null) return { result: "neutral" } as Outcome
    // §6.1: the redirect target's result is the result, its exp= replaces this one's.
    yield* countLookup(run)
    const target = yield* targetOf(run, record.redirect.domain, domain)
    const r = target === null ? ({ result: "none" } as Outcome) : yield* evaluate(run, target, true)
    if (r.result === "none") return yield* perm(`redirect=${record.redirect.spec} has no SPF record`)
    return r
  })

/**
 * §6.2: fetched only for the final "fail", not counted against the limits; any failure (DNS,
 * several or no records, bad macro syntax, non-ASCII text) means no explanation.
 */
const explanation = (run: Run, exp: NonNullable<Outcome["exp"]>) =>
  Effect.gen(function*() {
    const name = yield* targetOf(run, exp.target.domain, exp.domain)
    if (name === null) return undefined
    const texts = recordsOf(yield* run.dns.txt(name))
    if (texts.length !== 1) return undefined
    const parsed = parseMacroString(texts[0], "explain")
    if (!parsed.ok) return undefined
    const text = yield* expandFor(run, parsed.value, exp.domain)
    return /^[\x20-\x7e]*$/.test(text) ? text : undefined
  }).pipe(Effect.orElseSucceed(() => undefined))

/** §4.3: a malformed or single-label <domain> gives "none" without any query. */
const validDomain = (domain: string): boolean => {
  const name = queryName(domain)
  if (name === null || !name.includes(".") || domain.startsWith("[")) return false
  return /^[\x21-\x7e]+$/.test(name) && !/^\d+$/.test(name.slice(name.lastIndexOf(".") + 1))
}

export const checkHost = (dns: SpfDns, input: CheckHostInput): Effect.Effect<SpfCheck> =>
  Effect.gen(function*() {
    const ip = parseClientIp(input.ip)
    if (ip === null) return { result: "permerror", reason: `invalid client IP ${JSON.stringify(input.ip)}`, lookups: 0, voidLookups: 0 } as SpfCheck
    if (!validDomain(input.domain)) return { result: "none", lookups: 0, voidLookups: 0 } as SpfCheck
    const at = input.sender.lastIndexOf("@")
    const senderDomain = at < 0 ? input.sender : input.sender.slice(at + 1)
    // §4.3: no local-part means "postmaster".
    const local = at <= 0 ? "postmaster" : input.sender.slice(0, at)
    const now = input.now ?? (yield* Clock.currentTimeMillis)
    const ipText = formatIp(ip)
    const run: Run = {
      dns,
      ip,
      ipText,
      values: {
        s: `${local}@${senderDomain}`,
        l: local,
        o: senderDomain,
        i: macroIp(ip),
        c: ipText,
        v: ip.v === 4 ? "in-addr" : "ip6",
        h: input.helo ?? senderDomain,
        r: input.receiver ?? "unknown",
        t: String(Math.floor(now / 1000))
      },
      pCache: new Map(),
      lookups: 0,
      voids: 0
    }
    const outcome = yield* Effect.either(evaluate(run, input.domain.replace(/\.$/, ""), false))
    const counts = { lookups: run.lookups, voidLookups: run.voids }
    if (outcome._tag === "Left") return { result: outcome.left.result, reason: outcome.left.reason, ...counts }
    const o = outcome.right
    const text = o.result === "fail" && o.exp ? yield* explanation(run, o.exp) : undefined
    return {
      result: o.result,
      ...(text !== undefined ? { explanation: text } : {}),
      ...(o.mechanism !== undefined ? { mechanism: o.mechanism } : {}),
      ...counts
    }
  })
