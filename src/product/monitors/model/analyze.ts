/**
 * Monitor rules of the road (pure): the conditions per kind and their verdict on a report, the
 * trimmed report a result keeps, the baseline a kind carries from run to run, the alert
 * transition, the schedule arithmetic and the uptime report. No Effect, no I/O.
 */
import type { Period } from "../../analytics/analyze"
import * as Sketch from "../../metering/sketch"
import type { CtEntry } from "../../../adapters/ct/entries"
import type { CtSourceName } from "../../../platform/Config"
import { newEntries, watermarks } from "../../../adapters/ct/merge"

/** The kinds whose verdicts are here (the newer kinds' are beside their kind-table entries). */
export type ClassicKind = "http_check" | "certificate" | "ct_new_certificate" | "zone_hygiene" | "waf"

export type Grade = "A" | "B" | "C" | "D" | "F"
export type FindingSeverity = "critical" | "high" | "medium" | "low" | "info"

export interface Conditions {
  readonly status_not_ok?: boolean
  readonly total_ms_gt?: number
  readonly error?: boolean
  readonly days_left_lt?: number
  readonly invalid?: boolean
  readonly new_certificate?: boolean
  readonly issuer_not_in?: ReadonlyArray<string>
  readonly grade_below?: Grade
  readonly new_finding_severity_at_least?: FindingSeverity
  readonly provider_changed?: boolean
  readonly provider_absent?: boolean
}

/** Monitors per organization (docs/conventions.md, "Plans"). */
export const monitorLimit = { free: 5, developer: 50, pro: 500, enterprise: 5_000 } as const

/** What a kind remembers between runs, to tell "new" from "seen before". */
export interface Baseline {
  /** ct_new_certificate: the highest crt.sh ID and Cert Spotter ID seen (adapters/ct/merge.ts). */
  readonly max_ct_id?: number | undefined
  readonly max_certspotter_id?: number | undefined
  readonly finding_keys?: ReadonlyArray<string>
  readonly provider?: string | null
  /** dns_records: the sorted answer of the last run. */
  readonly answer?: ReadonlyArray<string>
  /** email_security: the records `record_changed` watches, as the last run saw them. */
  readonly records?: { readonly spf: string | null; readonly dmarc: string | null; readonly mta_sts_id: string | null }
  /** takeover: the candidates of the last run (type, name, target, confidence). */
  readonly candidate_keys?: ReadonlyArray<string>
  /** lookalikes: every registered lookalike seen so far, with the highest risk it had. */
  readonly lookalikes?: Readonly<Record<string, "high" | "medium" | "low">>
  /** audit: the ids of the checks that failed in the last run. */
  readonly failed_checks?: ReadonlyArray<string>
  /** blocklist: the (item, zone) pairs listed at the last run, or listed before and unknown since. */
  readonly listing_keys?: ReadonlyArray<string>
}

export interface Verdict {
  readonly ok: boolean
  readonly summary: string
  readonly report: unknown
  readonly baseline: Baseline | null
}

const gradeRank: Record<Grade, number> = { A: 4, B: 3, C: 2, D: 1, F: 0 }
const severityRank: Record<FindingSeverity, number> = { critical: 4, high: 3, medium: 2, low: 1, info: 0 }

/** The CT sources that answered for a CT lookup. */
const answeredSources = (report: { readonly sources?: ReadonlyArray<{ readonly name: CtSourceName; readonly status: string }> }) =>
  (report.sources ?? []).filter((s) => s.status === "ok").map((s) => s.name)

const verdict = (held: ReadonlyArray<string>, okText: string, report: unknown, baseline: Baseline | null): Verdict => ({
  ok: held.length === 0,
  summary: held.length === 0 ? okText : held.join("; "),
  report,
  baseline
})

/** The verdict when the service itself failed (target refused, unreachable, upstream down). */
export const failedRun = (message: string, baseline: Baseline | null): Verdict => ({
  ok: false,
  summary: `check failed: ${message}`,
  report: { error: message },
  baseline
})

/**
 * Applies the monitor's conditions to the report of its kind's service. `now` matters for the
 * CT kind's first run (only certificates valid now are judged by `issuer_not_in`).
 */
export const evaluate = (
  kind: ClassicKind,
  c: Conditions,
  report: any,
  previous: Baseline | null,
  now: number
): Verdict => {
  const held: Array<string> = []
  switch (kind) {
    case "http_check": {
      const code = report.status?.code ?? null
      if (c.error && report.error) held.push(`error: ${report.error}${report.error_detail ? ` (${report.error_detail})` : ""}`)
      if (c.status_not_ok && !report.status?.ok && !(c.error && report.error)) held.push(`status ${code ?? "none"} is not 2xx`)
      if (c.total_ms_gt !== undefined && report.timings?.total_ms > c.total_ms_gt) {
        held.push(`total ${report.timings.total_ms} ms > ${c.total_ms_gt} ms`)
      }
      const trimmed = {
        status: report.status,
        timings: report.timings,
        final_url: report.final_url,
        error: report.error,
        error_detail: report.error_detail
      }
      return verdict(held, `status ${code} in ${report.timings?.total_ms} ms`, trimmed, previous)
    }
    case "certificate": {
      if (c.invalid && !report.valid) {
        const why = report.expired
          ? "expired"
          : report.not_yet_valid
          ? "not yet valid"
          : report.chain_error ?? report.hostname_error ?? "invalid"
        held.push(`certificate invalid: ${why}`)
      }
      if (c.days_left_lt !== undefined && report.days_left < c.days_left_lt) {
        held.push(`${report.days_left} days left < ${c.days_left_lt}`)
      }
      const trimmed = {
        valid: report.valid,
        days_left: report.days_left,
        expired: report.expired,
        not_yet_valid: report.not_yet_valid,
        chain_error: report.chain_error,
        hostname_error: report.hostname_error,
        subject: report.certificate?.subject,
        issuer: report.certificate?.issuer,
        not_after: report.certificate?.not_after,
        fingerprint_sha256: report.certificate?.fingerprint_sha256
      }
      return verdict(held, `valid, ${report.days_left} days left`, trimmed, previous)
    }
    case "ct_new_certificate": {
      const entries: ReadonlyArray<CtEntry> = report.entries ?? []
      // First run: no watermark yet at any source (a certificate from either source is new after it).
      const first = previous?.max_ct_id === undefined && previous?.max_certspotter_id === undefined
      const fresh = newEntries(entries, first ? null : previous)
      if (c.new_certificate && fresh.length > 0) {
        held.push(`${fresh.length} new certificate${fresh.length === 1 ? "" : "s"} in CT logs`)
      }
      if (c.issuer_not_in && c.issuer_not_in.length > 0) {
        // First run: judge the certificates valid now; later runs: the new ones.
        const judged = first
          ? entries.filter((e) => e.not_after === null || Date.parse(e.not_after) > now)
          : fresh
        const allowed = c.issuer_not_in.map((i) => i.toLowerCase())
        const odd = judged.filter((e) => !allowed.some((a) => e.issuer.toLowerCase().includes(a)))
        if (odd.length > 0) held.push(`issuer not allowed: ${[...new Set(odd.map((e) => e.issuer))].slice(0, 3).join(", ")}`)
      }
      const trimmed = {
        total: entries.length,
        new_certificates: fresh.slice(0, 20).map((e) => ({ id: e.id, issuer: e.issuer, common_name: e.common_name, not_before: e.not_before })),
        issuers: [...new Set(entries.map((e) => e.issuer))].slice(0, 20)
      }
      return verdict(held, `${entries.length} certificates, ${fresh.length} new`, trimmed, watermarks(entries, answeredSources(report), first ? null : previous))
    }
    case "zone_hygiene": {
      const findings: ReadonlyArray<{ check: string; severity: FindingSeverity; message: string }> = report.findings ?? []
      const keys = [...new Set(findings.map((f) => `${f.check}:${f.severity}`))]
      if (c.grade_below && gradeRank[report.hygiene_grade as Grade] < gradeRank[c.grade_below]) {
        held.push(`grade ${report.hygiene_grade} below ${c.grade_below}`)
      }
      if (c.new_finding_severity_at_least && previous?.finding_keys) {
        const before = new Set(previous.finding_keys)
        const min = severityRank[c.new_finding_severity_at_least]
        const fresh = findings.filter((f) => severityRank[f.severity] >= min && !before.has(`${f.check}:${f.severity}`))
        if (fresh.length > 0) held.push(`new ${fresh[0].severity} finding: ${fresh[0].message}`)
      }
      const trimmed = {
        hygiene_grade: report.hygiene_grade,
        hygiene_score: report.hygiene_score,
        findings: findings.filter((f) => f.severity !== "info").slice(0, 20).map((f) => ({ check: f.check, severity: f.severity, message: f.message }))
      }
      return verdict(held, `grade ${report.hygiene_grade} (${report.hygiene_score})`, trimmed, { finding_keys: keys })
    }
    case "waf": {
      const provider: string | null = report.primaryProvider ?? null
      if (c.provider_absent && !report.provider_present) held.push("no WAF or CDN provider detected")
      if (c.provider_changed && previous !== null && previous.provider !== undefined && previous.provider !== provider) {
        held.push(`provider changed from ${previous.provider ?? "none"} to ${provider ?? "none"}`)
      }
      const trimmed = {
        provider_present: report.provider_present,
        primary_provider: provider,
        providers: (report.providers ?? []).map((p: { name?: string }) => p.name),
        status_code: report.status_code,
        block_category: report.block_category
      }
      return verdict(held, provider ? `provider ${provider}` : "no provider", trimmed, { provider })
    }
  }
}

export type Transition = "open" | "recover" | "none"

/**
 * After a run: open an alert when the run failed, it is the N-th failure in a row, no incident is
 * open (an alert resolved by hand keeps its incident until the next ok run) and the cooldown since
 * the last alert has passed; recover when an ok run ends an open incident.
 */
export const transition = (s: {
  readonly ok: boolean
  readonly consecutiveFailures: number
  readonly failuresBeforeAlert: number
  readonly incidentOpen: boolean
  readonly lastAlertAt: number | null
  readonly cooldownMinutes: number
  readonly now: number
}): Transition => {
  if (s.ok) return s.incidentOpen ? "recover" : "none"
  if (s.incidentOpen || s.consecutiveFailures < s.failuresBeforeAlert) return "none"
  if (s.lastAlertAt !== null && s.now - s.lastAlertAt < s.cooldownMinutes * 60_000) return "none"
  return "open"
}

/** A new or re-enabled monitor's first run: spread over its first interval, at most a minute out. */
export const firstRunAt = (now: number, intervalMs: number, random: number): number =>
  now + Math.floor(random * Math.min(intervalMs, 60_000))

/**
 * The next due time after a claim at `now` of the run due at `due`: one interval on (the cadence
 * does not drift), or, when whole intervals were missed (the service was down or overloaded),
 * the first time on the monitor's own cadence after `now`: missed runs are not replayed, one
 * run happens now, and the jittered phase that spreads monitors over the interval is kept.
 * The claim statement (claim.ts) computes the same in SQL.
 */
export const nextDue = (due: number, now: number, intervalMs: number): number =>
  due + intervalMs * (Math.floor(Math.max(0, now - due) / intervalMs) + 1)

/** One UTC day of a monitor's runs (its rollup row, sketch decoded). */
export interface DayRollup {
  readonly runs: number
  readonly ok_runs: number
  readonly sketch: Sketch.Sketch
}

export interface Incident {
  readonly started_at: number
  readonly ended_at: number | null
}

const DAY = 86_400_000
const iso = (ms: number) => new Date(ms).toISOString()
const round1 = (x: number) => Math.round(x * 10) / 10

/**
 * The uptime report over `period` from the daily rollups in it and the incidents that overlap
 * it. An incident is a stretch of failed runs: it starts at the first failed run and ends at the
 * next ok run (null while it lasts). Percentiles come from the merged duration sketches (within
 * 1% of the exact value of the same rank, as the analytics reports).
 */
export const uptimeReport = (period: Period, days: ReadonlyArray<DayRollup>, incidents: ReadonlyArray<Incident>) => {
  const { runs, ok_runs, uptime_percentage, p50_ms, p95_ms } = runFigures(days)
  return {
    period,
    runs,
    ok_runs,
    uptime_percentage,
    incidents: [...incidents]
      .sort((a, b) => a.started_at - b.started_at)
      .map((i) => ({ started_at: iso(i.started_at), ended_at: i.ended_at === null ? null : iso(i.ended_at) })),
    p50_ms,
    p95_ms
  }
}

/** Runs, ok runs, uptime and duration percentiles of some daily rollups. */
const runFigures = (days: ReadonlyArray<DayRollup>) => {
  const runs = days.reduce((n, d) => n + d.runs, 0)
  const okRuns = days.reduce((n, d) => n + d.ok_runs, 0)
  const sketch = Sketch.merge(days.map((d) => d.sketch))
  return {
    runs,
    ok_runs: okRuns,
    uptime_percentage: runs === 0 ? null : Math.round((10_000 * okRuns) / runs) / 100,
    p50_ms: sketch.count === 0 ? null : round1(Sketch.quantile(sketch, 0.5)),
    p95_ms: sketch.count === 0 ? null : round1(Sketch.quantile(sketch, 0.95))
  }
}

/**
 * The uptime report's `by_location`: the runs each location made in the period, the listed
 * locations first (in their order, with no runs yet too), then any other that ran the monitor
 * (an any-location monitor's, or a location listed before), by name.
 */
export const byLocation = (listed: ReadonlyArray<string>, days: ReadonlyArray<DayRollup & { readonly location: string }>) => {
  const others = [...new Set(days.map((d) => d.location))].filter((l) => !listed.includes(l)).sort()
  return [...listed, ...others].map((location) => ({ location, ...runFigures(days.filter((d) => d.location === location)) }))
}

/** The UTC day a time falls in (the rollups' key). */
export const dayOf = (ms: number) => Math.floor(ms / DAY) * DAY

/**
 * The days an uptime period covers: `7d` and `30d` are today and the 6 or 29 whole UTC days
 * before it, `current` the calendar month so far (the analytics periods, on the rollups' day grain).
 */
export const uptimeWindow = (period: Period, now: number): { from: number; to: number } => {
  const today = dayOf(now)
  const d = new Date(now)
  switch (period) {
    case "7d":
      return { from: today - 6 * DAY, to: today + DAY }
    case "30d":
      return { from: today - 29 * DAY, to: today + DAY }
    case "current":
      return { from: Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1), to: today + DAY }
  }
}

/** Result ids sort by start time, so the id is the paging cursor. */
export const resultId = (startedAt: number, random: string) => `res_${String(startedAt).padStart(15, "0")}_${random}`
export const isResultId = (s: string) => /^res_\d{15}_[0-9a-f]{1,32}$/.test(s)
