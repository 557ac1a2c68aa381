/**
 * Takeover candidates from observations (pure; docs/operations/takeover.md). Five kinds: a CNAME
 * chain that reaches a service's unclaimed name (`cname_unclaimed`), or ends in NXDOMAIN under a
 * registered domain that does not exist (`cname_dangling`); a delegation to name servers under a
 * domain that does not exist or that all refuse the zone (`ns_dangling`); an MX host or an SPF
 * `include:`/`redirect=` under a domain that does not exist (`mx_dangling`, `spf_dangling`).
 *
 * No candidate for: a name whose chain reaches a claimed resource (the service answers something
 * other than its "no such resource" evidence: a live site), a name that only exists through a
 * wildcard record, a dangling name under a registered domain that exists (nobody can register
 * it). A name whose lookups failed or timed out is a limitation, never a candidate.
 */
import { confidenceOf, dnsHostFor, type Fingerprint, fingerprintFor, type HttpEvidence } from "./fingerprints"
import type {
  DelegationObservation,
  Hop,
  HttpAnswer,
  MxObservation,
  NameObservation,
  RegisteredDomain,
  SpfObservation,
  TakeoverObservations
} from "./observations"
import type { Candidate } from "./schema"

export interface Outcome {
  readonly candidates: ReadonlyArray<Candidate>
  readonly limitations: ReadonlyArray<string>
}

const none: Outcome = { candidates: [], limitations: [] }
const found = (c: Candidate): Outcome => ({ candidates: [c], limitations: [] })
const limited = (text: string): Outcome => ({ candidates: [], limitations: [text] })

const FAILED = new Set(["SERVFAIL", "REFUSED", "TIMEOUT", "LOOP", "TOO_LONG"])

/** What else decides a CNAME chain: the service it reaches, which schemes to ask it, and whose registered domain to look up. */
export interface Plan {
  readonly fingerprint: Fingerprint | null
  /** The first hop whose name belongs to that service (null when none does). */
  readonly providerHop: string | null
  readonly http: ReadonlyArray<"http" | "https">
  /** The name whose registered domain's existence decides the chain (its last name, when NXDOMAIN). */
  readonly registeredDomainOf: string | null
}

/** For a chain (and the addresses at its end): what to observe next. Nothing for a name without a CNAME or with a failed lookup. */
export const plan = (hops: ReadonlyArray<Hop>, addresses: ReadonlyArray<string>): Plan => {
  const empty: Plan = { fingerprint: null, providerHop: null, http: [], registeredDomainOf: null }
  if (hops.length < 2 || hops.some((h) => FAILED.has(h.rcode))) return empty
  // The service is the deepest one the chain reaches (a CDN in front of storage leads to the
  // storage); the name there is the first hop of that service (the bucket, not its endpoint).
  const services = hops.slice(1).map((h) => fingerprintFor(h.name))
  const fingerprint = services.findLast((fp) => fp !== null) ?? null
  const providerHop = fingerprint === null ? null : hops[1 + services.indexOf(fingerprint)].name
  const last = hops[hops.length - 1]
  const nx = last.rcode === "NXDOMAIN"
  return {
    fingerprint,
    providerHop,
    http: !nx && fingerprint?.http && addresses.length > 0 ? fingerprint.http.schemes : [],
    registeredDomainOf: nx && !freeAt(fingerprint, last) ? last.name : null
  }
}

/**
 * An NXDOMAIN that means "free at the service": the service's evidence is NXDOMAIN and the name
 * that does not exist is the service's own (a chain through the service that ends in NXDOMAIN
 * somewhere else says nothing about the service's name, which exists).
 */
const freeAt = (fp: Fingerprint | null, last: Hop): boolean =>
  fp !== null && fp.nxdomain && last.rcode === "NXDOMAIN" && fingerprintFor(last.name) === fp

/** Body text as the fingerprints are compared: entities decoded, quotes straightened, whitespace collapsed, lower case. */
export const normalizeText = (s: string): string =>
  s
    .replace(/&(rsquo|lsquo|#8217|#8216|#x2019|#x2018|#39|#x27|apos);/gi, "'")
    .replace(/&(rdquo|ldquo|quot|#34|#x22|#8220|#8221);/gi, "\"")
    .replace(/&(hellip|#8230);/gi, "...")
    .replace(/&(nbsp|#160);/gi, " ")
    .replace(/&(lt|#60);/gi, "<")
    .replace(/&(gt|#62);/gi, ">")
    .replace(/&(amp|#38);/gi, "&")
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, "\"")
    .replace(/\u2026/g, "...")
    .replace(/\s+/g, " ")
    .toLowerCase()

/** The fingerprint text an answer carries (or "" for a status-only fingerprint), or null when the answer is not the evidence. */
export const evidenceIn = (answer: HttpAnswer, ev: HttpEvidence): string | null => {
  if (!("status" in answer)) return null
  if (ev.status !== null && answer.status !== ev.status) return null
  if (ev.body.length === 0) return ev.status === null ? null : ""
  const text = normalizeText(answer.bodySnippet)
  return ev.body.find((t) => text.includes(normalizeText(t))) ?? null
}

const describeFailure = (h: Hop) =>
  h.rcode === "TIMEOUT" ? "timed out" : h.rcode === "LOOP" ? "leads back into its own CNAME chain (a loop)" : h.rcode === "TOO_LONG" ? "leads to a CNAME chain too long to follow" : `answered ${h.rcode}`

const danglingByRegistration = (o: NameObservation, last: Hop, chain: ReadonlyArray<string>, fp: Fingerprint | null): Outcome => {
  const reg = o.registered
  if (reg === undefined || reg === null || reg.exists === null) {
    return limited(`${o.name}: its CNAME target ${last.name} is NXDOMAIN but whether its registered domain exists could not be told; not judged`)
  }
  if (reg.exists) return none
  return found({
    name: o.name,
    type: "cname_dangling",
    target: last.name,
    chain,
    provider: fp?.provider ?? null,
    evidence: `${last.name} is NXDOMAIN and its registered domain ${reg.domain} does not exist (NXDOMAIN)`,
    confidence: "potential"
  })
}

/** One name's CNAME chain judged. */
export const classifyName = (o: NameObservation): Outcome => {
  const failed = o.hops.find((h) => FAILED.has(h.rcode))
  if (failed !== undefined) return limited(`${o.name}: the lookup of ${failed.name} ${describeFailure(failed)}; not judged`)
  if (o.hops.length < 2 || o.wildcard) return none
  const chain = o.hops.slice(1).map((h) => h.name)
  const last = o.hops[o.hops.length - 1]
  const p = plan(o.hops, o.addresses)
  const fp = p.fingerprint
  const unclaimed = (evidence: string): Outcome =>
    found({ name: o.name, type: "cname_unclaimed", target: p.providerHop!, chain, provider: fp!.provider, evidence, confidence: confidenceOf(fp!.status) })
  if (fp !== null) {
    if (freeAt(fp, last)) return unclaimed(`${last.name} is NXDOMAIN: the name is free at ${fp.provider}`)
    if (last.rcode !== "NXDOMAIN" && fp.http !== null && o.addresses.length > 0) {
      const answers = fp.http.schemes.flatMap((scheme) => {
        const a = o.http?.[scheme]
        return a === undefined || a === null ? [] : [{ scheme, answer: a }]
      })
      for (const { scheme, answer } of answers) {
        const text = evidenceIn(answer, fp.http)
        if (text !== null && "status" in answer) {
          return unclaimed(`${scheme}://${o.name}/ answered ${answer.status}${text === "" ? "" : ` with "${text}"`}`)
        }
      }
      // Any other answer is the resource's own: claimed, a live site.
      if (answers.some(({ answer }) => "status" in answer)) return none
      const why = answers.map(({ scheme, answer }) => `${scheme}: ${"error" in answer ? answer.error : answer.status}`).join(", ")
      return limited(`${o.name}: ${fp.provider} (${p.providerHop}) gave no HTTP answer${why === "" ? "" : ` (${why})`}; not judged`)
    }
  }
  if (last.rcode === "NXDOMAIN") return danglingByRegistration(o, last, chain, fp)
  return none
}

const unknownRegistration = (what: string, reg: RegisteredDomain) =>
  limited(`${what}: whether the registered domain ${reg.domain} exists could not be told; not judged`)

/** One delegation judged: name servers under a domain that does not exist, or every name server refusing the zone. */
export const classifyDelegation = (o: DelegationObservation): Outcome => {
  const candidates: Array<Candidate> = []
  const limitations: Array<string> = []
  const gone = new Map<string, Array<string>>()
  for (const ns of o.nameservers) {
    if (ns.registered.exists === false) gone.set(ns.registered.domain, [...(gone.get(ns.registered.domain) ?? []), ns.host])
    else if (ns.registered.exists === null) limitations.push(...unknownRegistration(`${o.zone}: name server ${ns.host}`, ns.registered).limitations)
  }
  for (const [domain, hosts] of gone) {
    candidates.push({
      name: o.zone,
      type: "ns_dangling",
      target: hosts[0],
      chain: [],
      provider: dnsHostFor(hosts[0])?.provider ?? null,
      evidence: `name server ${hosts.join(", ")}: its registered domain ${domain} does not exist (NXDOMAIN)`,
      confidence: "potential"
    })
  }
  if (candidates.length > 0) return { candidates, limitations }
  const asked = o.nameservers.filter((n) => n.answer !== "no_address")
  if (asked.length > 0 && asked.every((n) => n.answer === "refused" || n.answer === "servfail")) {
    const host = asked.map((n) => dnsHostFor(n.host)).find((h) => h !== null) ?? null
    candidates.push({
      name: o.zone,
      type: "ns_dangling",
      target: asked[0].host,
      chain: [],
      provider: host?.provider ?? null,
      evidence: `every name server answered the zone's SOA with an error: ${asked.map((n) => `${n.host} ${n.answer.toUpperCase()}`).join(", ")}`,
      confidence: host === null ? "potential" : confidenceOf(host.status)
    })
  } else if (asked.some((n) => n.answer === "timeout") && !asked.some((n) => n.answer === "answered")) {
    limitations.push(`${o.zone}: its name servers did not answer for the zone (${asked.map((n) => `${n.host} ${n.answer}`).join(", ")}); not judged`)
  }
  return { candidates, limitations }
}

/** One MX host judged: under a registered domain that does not exist, whoever registers it receives the mail. */
export const classifyMx = (o: MxObservation): Outcome => {
  if (o.registered.exists === null) return unknownRegistration(`${o.name}: MX host ${o.host}`, o.registered)
  if (o.registered.exists) return none
  return found({
    name: o.name,
    type: "mx_dangling",
    target: o.host,
    chain: [],
    provider: null,
    evidence: `MX host ${o.host}: its registered domain ${o.registered.domain} does not exist (NXDOMAIN)`,
    confidence: "potential"
  })
}

/** One SPF `include:`/`redirect=` judged: under a registered domain that does not exist, whoever registers it chooses who may send. */
export const classifySpf = (o: SpfObservation): Outcome => {
  const term = o.mechanism === "include" ? `include:${o.target}` : `redirect=${o.target}`
  if (o.registered.exists === null) return unknownRegistration(`${o.name}: SPF ${term}`, o.registered)
  if (o.registered.exists) return none
  return found({
    name: o.name,
    type: "spf_dangling",
    target: o.target,
    chain: [],
    provider: null,
    evidence: `SPF ${term}: its registered domain ${o.registered.domain} does not exist (NXDOMAIN)`,
    confidence: "potential"
  })
}

/** Every observation judged; each candidate once (by type, name and target), limitations once each. */
export const classify = (o: TakeoverObservations): Outcome => {
  const outcomes = [...o.names.map(classifyName), ...o.delegations.map(classifyDelegation), ...o.mx.map(classifyMx), ...o.spf.map(classifySpf)]
  const seen = new Set<string>()
  const candidates = outcomes.flatMap((x) => x.candidates).filter((c) => {
    const key = `${c.type} ${c.name} ${c.target}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
  return { candidates, limitations: [...new Set(outcomes.flatMap((x) => x.limitations))] }
}
