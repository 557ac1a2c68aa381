/**
 * The Subdomain Takeover report (docs/operations/takeover.md): the one contract of
 * `GET /v1/security/takeover` and the MCP tool `subdomain_takeover`. Findings, score and grade
 * are Zone Hygiene's (severities and grades from mail/schema.ts, the rubric in
 * zone/model/findings.ts); every type of the analysis is `typeof X.Type` of these schemas.
 */
import { Schema } from "effect"
import { findingOf, Grade } from "../mail/schema"

const Strings = Schema.Array(Schema.String)

export const CANDIDATE_TYPES = ["cname_unclaimed", "cname_dangling", "ns_dangling", "mx_dangling", "spf_dangling"] as const
export const CandidateType = Schema.Literal(...CANDIDATE_TYPES).annotations({
  description:
    "cname_unclaimed: a CNAME chain reaches a service's name and the service answers its \"no such resource\" evidence (or the name is NXDOMAIN where that means unclaimed); " +
    "cname_dangling: a CNAME chain ends in NXDOMAIN under a registered domain that does not exist; " +
    "ns_dangling: a delegation whose name servers' registered domain does not exist, or whose every name server answers REFUSED or SERVFAIL for the zone; " +
    "mx_dangling: an MX host whose registered domain does not exist; spf_dangling: an SPF include: or redirect= whose registered domain does not exist"
})
export type CandidateType = typeof CandidateType.Type

export const Confidence = Schema.Literal("confirmed", "potential", "unlikely").annotations({
  description:
    "confirmed: the evidence is conclusive; potential: the fingerprint matched a service marked as an edge case, or only the DNS side is certain; unlikely: a service known not to be vulnerable"
})
export type Confidence = typeof Confidence.Type

export const Candidate = Schema.Struct({
  name: Schema.String.annotations({ description: "the name at risk: the CNAME owner, the delegated zone, or the domain whose MX or SPF record it is" }),
  type: CandidateType,
  target: Schema.String.annotations({ description: "what it points to: the service's name, the dangling CNAME target, the name server, MX host or SPF target" }),
  chain: Strings.annotations({ description: "each CNAME hop from the name to the end of the chain (empty for NS, MX and SPF)" }),
  provider: Schema.NullOr(Schema.String).annotations({ description: "the service from the fingerprint table, null when none matched" }),
  evidence: Schema.String.annotations({ description: "what was observed: the answer that matched the fingerprint, or the DNS answer" }),
  confidence: Confidence
}).annotations({ identifier: "TakeoverCandidate" })
export type Candidate = typeof Candidate.Type

export const TakeoverFinding = findingOf(CandidateType).annotations({ identifier: "TakeoverFinding" })
export type TakeoverFinding = typeof TakeoverFinding.Type

export const NameSourceCounts = Schema.Struct({
  ct: Schema.Number.annotations({ description: "names seen in certificate transparency logs" }),
  zone_transfer: Schema.Number.annotations({ description: "names from a zone transfer a name server allowed" }),
  wordlist: Schema.Number.annotations({ description: "names made from the built-in list of common labels" }),
  given: Schema.Number.annotations({ description: "names given in the `names` parameter" })
}).annotations({ description: "How many of the names checked each source brought (a name several sources bring counts for each)" })
export type NameSourceCounts = typeof NameSourceCounts.Type

export const TakeoverReport = Schema.Struct({
  domain: Schema.String,
  checked_at: Schema.String,
  timings_ms: Schema.Record({ key: Schema.String, value: Schema.Number }),
  names_checked: Schema.Number.annotations({ description: "distinct names resolved" }),
  sources: NameSourceCounts,
  candidates: Schema.Array(Candidate),
  providers_known: Schema.Number.annotations({ description: "services in the built-in fingerprint table" }),
  findings: Schema.Array(TakeoverFinding),
  score: Schema.Number,
  grade: Grade,
  recommendations: Strings,
  limitations: Strings
})
export type TakeoverReport = typeof TakeoverReport.Type
