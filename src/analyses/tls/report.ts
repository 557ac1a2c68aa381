/**
 * The TLS report, pure: what the probes observed in, the report out (grade.ts
 * decides the grade and the findings; recommendations are the findings' own, worst first, as
 * Zone Hygiene lists them).
 */
import { gradeTls, type TlsObservations } from "./grade"
import { isPostQuantum } from "./groups"
import type { TlsFinding, TlsReport } from "./schema"
import { VERSIONS, type Version } from "./suites"

export interface ScanFacts extends TlsObservations {
  readonly host: string
  readonly port: number
  readonly ip: string
  readonly checkedAt: string
  readonly timings: Readonly<Record<string, number>>
  readonly serverPreference: boolean | null
  readonly alpn: TlsReport["alpn"]
  readonly http3: TlsReport["http3"]
  readonly limitations: ReadonlyArray<string>
}

const RANK: Record<TlsFinding["severity"], number> = { critical: 4, high: 3, medium: 2, low: 1, info: 0 }

const perVersion = <A>(f: (v: Version) => A) =>
  ({ ssl3: f("ssl3"), tls1_0: f("tls1_0"), tls1_1: f("tls1_1"), tls1_2: f("tls1_2"), tls1_3: f("tls1_3") })

export const buildReport = (facts: ScanFacts): TlsReport => {
  const graded = gradeTls(facts)
  const findings = [...graded.findings].sort((a, b) => RANK[b.severity] - RANK[a.severity])
  const recommendations = [...new Set(findings.flatMap((f) => (f.recommendation && f.severity !== "info" ? [f.recommendation] : [])))]
  const limitations = [
    ...facts.limitations,
    "SSL 2.0 is not probed; client-initiated renegotiation, session resumption and OCSP revocation are not tested."
  ]
  return {
    host: facts.host,
    port: facts.port,
    ip: facts.ip,
    checked_at: facts.checkedAt,
    timings_ms: facts.timings,
    protocols: perVersion((v) => facts.suites[v].length > 0),
    cipher_suites: perVersion((v) => facts.suites[v].map((s) => s.name)),
    server_preference: facts.serverPreference,
    key_exchange: {
      groups: facts.groups.map((g) => g.name),
      forward_secrecy: facts.forwardSecrecy,
      post_quantum: facts.groups.some(isPostQuantum)
    },
    alpn: facts.alpn,
    http3: facts.http3,
    certificate: facts.certificate,
    features: facts.features,
    vulnerabilities: { heartbleed: facts.heartbleed },
    grade: graded.grade,
    score: graded.score,
    findings,
    recommendations,
    limitations
  }
}

/** Versions a scan found, newest first. */
export const acceptedVersions = (suites: TlsObservations["suites"]): ReadonlyArray<Version> =>
  [...VERSIONS].reverse().filter((v) => suites[v].length > 0)
