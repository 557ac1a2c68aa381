/**
 * The takeover report from its parts (pure): one finding per candidate, its severity from its
 * confidence (confirmed critical, potential high, unlikely low), then Zone Hygiene's score and
 * grade (zone/model/findings.ts: 100 minus critical 30, high 18, medium 8, low 3; A ≥ 90 … F)
 * and its recommendations, most severe first, each once (docs/operations/takeover.md).
 */
import type { Severity } from "../mail/schema"
import { gradeOf, RANK, scoreOf } from "../zone/model/findings"
import type { Outcome } from "./classify"
import { FINGERPRINTS } from "./fingerprints"
import type { NameSet } from "./names"
import type { Candidate, CandidateType, Confidence, TakeoverFinding, TakeoverReport } from "./schema"

export const SEVERITY_OF: Readonly<Record<Confidence, Severity>> = { confirmed: "critical", potential: "high", unlikely: "low" }

/** Candidates are listed most certain first, then by name. */
const CONFIDENCE_RANK: Readonly<Record<Confidence, number>> = { confirmed: 2, potential: 1, unlikely: 0 }

const RECOMMENDATION: Readonly<Record<CandidateType, string>> = {
  cname_unclaimed:
    "Remove DNS records that point to resources you no longer hold at a hosting service, or claim the resource again; when retiring a resource, remove the DNS record first.",
  cname_dangling: "Remove CNAME records whose targets no longer exist, or register the target's domain yourself.",
  ns_dangling: "Remove or correct delegations to name servers that do not serve the zone, and remove name servers whose domains have expired.",
  mx_dangling: "Remove MX records naming hosts under domains that no longer exist.",
  spf_dangling: "Remove SPF include: and redirect= terms naming domains that no longer exist."
}

const what = (c: Candidate): string => {
  const at = c.provider === null ? "" : ` (${c.provider})`
  switch (c.type) {
    case "cname_unclaimed":
      return `${c.name} points to ${c.target}${at}, which nobody holds: whoever claims it there serves ${c.name}`
    case "cname_dangling":
      return `${c.name} points to ${c.target}, under a domain nobody holds: whoever registers it controls ${c.name}`
    case "ns_dangling":
      return `The zone ${c.name} is delegated to ${c.target}${at}, which does not serve it: whoever takes over the name servers or creates the zone there answers for ${c.name}`
    case "mx_dangling":
      return `Mail for ${c.name} goes to ${c.target}, under a domain nobody holds: whoever registers it receives that mail`
    case "spf_dangling":
      return `The SPF record of ${c.name} trusts ${c.target}, under a domain nobody holds: whoever registers it may send mail as ${c.name}`
  }
}

/** One finding per candidate. */
export const findingOf = (c: Candidate): TakeoverFinding => ({
  check: c.type,
  severity: SEVERITY_OF[c.confidence],
  message: `${what(c)} (${c.confidence}: ${c.evidence})`,
  recommendation: RECOMMENDATION[c.type]
})

/** Findings (most severe first), score, grade and recommendations of a set of candidates. */
export const summarize = (candidates: ReadonlyArray<Candidate>) => {
  const findings = candidates.map(findingOf).sort((a, b) => RANK[b.severity] - RANK[a.severity])
  const score = scoreOf(findings)
  return {
    findings,
    score,
    grade: gradeOf(score),
    recommendations: [...new Set(findings.flatMap((f) => (f.recommendation === null ? [] : [f.recommendation])))]
  }
}

/** The whole report, once the names are merged (names.ts) and the observations judged (classify.ts). */
export const takeoverReport = (input: {
  readonly domain: string
  readonly checked_at: string
  readonly timings_ms: Readonly<Record<string, number>>
  readonly names: NameSet
  readonly outcome: Outcome
  readonly limitations?: ReadonlyArray<string>
}): TakeoverReport => ({
  domain: input.domain,
  checked_at: input.checked_at,
  timings_ms: input.timings_ms,
  names_checked: input.names.names.length,
  sources: input.names.sources,
  candidates: [...input.outcome.candidates].sort((a, b) => CONFIDENCE_RANK[b.confidence] - CONFIDENCE_RANK[a.confidence] || a.name.localeCompare(b.name) || a.type.localeCompare(b.type)),
  providers_known: FINGERPRINTS.length,
  ...summarize(input.outcome.candidates),
  limitations: [...input.names.limitations, ...(input.limitations ?? []), ...input.outcome.limitations]
})
