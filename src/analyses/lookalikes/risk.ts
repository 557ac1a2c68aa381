/**
 * Risk and findings of registered lookalikes (pure; docs/operations/lookalikes.md).
 *
 * - `mail_capable`: the name has an MX record other than a null MX (`MX 0 .`, RFC 7505). A name
 *   with only an address is not counted, though RFC 5321 §5.1 lets mail fall back to it: nearly
 *   every registered name has one, so counting it would say nothing.
 * - `risk`: `high` when mail capable (it can send phishing mail and receive the replies) or when
 *   its home page is at least 80 alike to the domain's own (a copy); `medium` when it serves a
 *   web page; `low` when it is registered and serves nothing.
 * - Findings as Zone Hygiene words them: a `high` finding per high-risk lookalike, a `medium`
 *   one per medium-risk lookalike, and one `info` finding listing the low-risk ones.
 */
import { RANK } from "../zone/model/findings"
import type { Permutation, PermutationSet } from "./permutations"
import type { Lookalike, LookalikeCheck, LookalikeFinding, LookalikesReport, Risk } from "./schema"

/** At this web similarity or above a lookalike's page counts as a copy of the domain's. */
export const COPY_SIMILARITY = 80

/** An MX host that is the root (`.`): the null MX of RFC 7505, "this domain accepts no mail". */
export const isNullMx = (host: string): boolean => host.trim().replace(/\.$/, "") === ""

export const mailCapable = (mx: ReadonlyArray<string>): boolean => mx.some((host) => !isNullMx(host))

export const riskOf = (l: { readonly mail_capable: boolean; readonly web_similarity: number | null; readonly serves_web: boolean }): Risk =>
  l.mail_capable || (l.web_similarity ?? 0) >= COPY_SIMILARITY ? "high" : l.serves_web || l.web_similarity !== null ? "medium" : "low"

/** What was observed of one permutation. */
export interface LookalikeObservation {
  readonly permutation: Permutation
  readonly a: ReadonlyArray<string>
  readonly aaaa: ReadonlyArray<string>
  readonly mx: ReadonlyArray<string>
  readonly ns: ReadonlyArray<string>
  /** Its home page answered with a page (over https or http). */
  readonly serves_web: boolean
  /** webSimilarity (similarity.ts) of its home page to the domain's; null when either could not be fetched. */
  readonly web_similarity: number | null
}

/** Registered: any A, AAAA, MX or NS record. */
export const isRegistered = (o: Pick<LookalikeObservation, "a" | "aaaa" | "mx" | "ns">): boolean =>
  o.a.length + o.aaaa.length + o.mx.length + o.ns.length > 0

export const assessLookalike = (o: LookalikeObservation): Lookalike => {
  const mail_capable = mailCapable(o.mx)
  return {
    domain: o.permutation.domain,
    unicode: o.permutation.unicode,
    fuzzer: o.permutation.fuzzer,
    a: o.a,
    aaaa: o.aaaa,
    mx: o.mx,
    ns: o.ns,
    mail_capable,
    web_similarity: o.web_similarity,
    risk: riskOf({ mail_capable, web_similarity: o.web_similarity, serves_web: o.serves_web })
  }
}

const RECOMMENDATION: Readonly<Record<LookalikeCheck, string | null>> = {
  mail_capable:
    "Warn your users about mail from lookalike domains that accept mail, block them in your mail filters, and ask their registrar or host to take down those that impersonate you.",
  similar_page: "Report lookalike sites that copy your pages to their registrar and host for takedown, and to the browser blocklists (Safe Browsing, SmartScreen).",
  serves_page: "Review the lookalike sites that serve pages and watch them for a change toward impersonation.",
  registered: null
}

const shown = (l: Lookalike) => (l.unicode === l.domain ? l.domain : `${l.unicode} (${l.domain})`)
const similarity = (l: Lookalike) => (l.web_similarity === null ? "" : `; its home page is ${l.web_similarity}% alike to yours`)

const finding = (check: LookalikeCheck, severity: LookalikeFinding["severity"], message: string): LookalikeFinding =>
  ({ check, severity, message, recommendation: RECOMMENDATION[check] })

/** How many low-risk names the info finding lists before "and N more". */
const LISTED = 20

/**
 * Findings (most severe first) and recommendations for the registered lookalikes. `toDomain`
 * names the lookalikes whose home page is the domain's own (they redirect to it: a defensive
 * registration, or someone passing visitors on), which the finding says in so many words.
 */
export const lookalikeFindings = (lookalikes: ReadonlyArray<Lookalike>, toDomain: ReadonlySet<string> = new Set()) => {
  const findings: Array<LookalikeFinding> = []
  for (const l of lookalikes) {
    const what = `${shown(l)} (${l.fuzzer}) is registered`
    const page = toDomain.has(l.domain) ? "; its home page redirects to yours (a defensive registration of yours?)" : similarity(l)
    if (l.mail_capable) findings.push(finding("mail_capable", "high", `${what} and accepts mail (MX ${l.mx.filter((h) => !isNullMx(h)).join(", ")})${page}`))
    else if (l.risk === "high") findings.push(finding("similar_page", "high", `${what} and its home page is ${l.web_similarity}% alike to yours`))
    else if (l.risk === "medium") findings.push(finding("serves_page", "medium", `${what} and serves a web page${page}`))
  }
  const low = lookalikes.filter((l) => l.risk === "low")
  if (low.length > 0) {
    const names = low.slice(0, LISTED).map(shown).join(", ")
    const more = low.length > LISTED ? ` and ${low.length - LISTED} more` : ""
    findings.push(finding("registered", "info", `${low.length} lookalike${low.length === 1 ? " is" : "s are"} registered but serve nothing: ${names}${more}`))
  }
  findings.sort((a, b) => RANK[b.severity] - RANK[a.severity])
  return { findings, recommendations: [...new Set(findings.flatMap((f) => (f.recommendation === null ? [] : [f.recommendation])))] }
}

/** The whole report once the permutations are made (permutations.ts) and the registered ones assessed. */
export const lookalikesReport = (input: {
  readonly checked_at: string
  readonly timings_ms: Readonly<Record<string, number>>
  readonly set: PermutationSet
  readonly lookalikes: ReadonlyArray<Lookalike>
  readonly limitations: ReadonlyArray<string>
  /** Lookalikes whose home page redirects to the domain's own. */
  readonly toDomain?: ReadonlySet<string>
}): LookalikesReport => ({
  domain: input.set.domain.ascii,
  checked_at: input.checked_at,
  timings_ms: input.timings_ms,
  permutations: input.set.permutations.length,
  by_fuzzer: input.set.by_fuzzer,
  lookalikes: input.lookalikes,
  ...lookalikeFindings(input.lookalikes, input.toDomain),
  limitations: input.limitations
})
