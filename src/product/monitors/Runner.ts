/**
 * One monitor run: the very service the kind's REST operation calls (HttpCheck, CertInspector,
 * CtAggregator, ZoneHygiene, WafDetection), behind the target guard and a deadline, judged by
 * the monitor's conditions, stored with its alert transition, and metered as one request of
 * category `monitors` (quota and request log). When the organization's quota is used up the run
 * is skipped: no result, no alert.
 */
import { SqlClient } from "@effect/sql"
import { Clock, Duration, Effect, Option } from "effect"
import { Keys } from "../accounts/Keys"
import { AppConfig } from "../../platform/Config"
import { CtAggregator } from "../../adapters/ct/CtAggregator"
import { ZoneHygiene } from "../../analyses/zone/ZoneHygiene"
import { CertInspector } from "../../adapters/x509/CertInspector"
import { Quota } from "../metering/Quota"
import { RequestLog } from "../metering/RequestLog"
import { httpCheck } from "../../analyses/network/HttpCheck"
import type { HttpProbe } from "../../adapters/probe/HttpProbe"
import { WafDetection } from "../../analyses/waf/WafDetection"
import { type Baseline, type Conditions, evaluate, failedRun, type Verdict } from "./analyze"
import { recordRun } from "./record"
import type { MonitorRow } from "./rows"
import { certTarget, vetMonitorTarget } from "./target"

/** The http_check timeout a monitor uses; its run deadline is this plus 2 s, as for the operation. */
export const HTTP_TIMEOUT_MS = 10_000

const messageOf = (e: unknown) =>
  typeof e === "object" && e !== null && "message" in e ? String((e as { message: unknown }).message) : String(e)

type CheckServices = HttpProbe | CertInspector | CtAggregator | ZoneHygiene | WafDetection

/** The kind's service on the monitor's target; its report, or why there is none. */
const check = (m: MonitorRow) => {
  switch (m.kind) {
    case "http_check":
      return httpCheck({ url: m.target, method: "GET", follow_redirects: true, max_redirects: 5, timeout: HTTP_TIMEOUT_MS })
    case "certificate": {
      const t = certTarget(m.target)
      if (!("host" in t)) return Effect.fail(t)
      return Effect.flatMap(CertInspector, (c) => c.inspect(t.host, t.port))
    }
    case "ct_new_certificate":
      return Effect.flatMap(CtAggregator, (ct) => ct.lookup(m.target))
    case "zone_hygiene":
      return Effect.flatMap(ZoneHygiene, (z) => z.audit(m.target, m.org_id))
    case "waf":
      return Effect.flatMap(WafDetection, (w) => w.detect({ domain: m.target, activeProbe: false, auditToken: undefined }))
  }
}

/** Guard, service, deadline and verdict; never fails (a failed check is a run that is not ok). */
export const judge = (m: MonitorRow) =>
  Effect.gen(function*() {
    const previous: Baseline | null = m.baseline === null ? null : JSON.parse(m.baseline)
    const config = yield* AppConfig
    // As for the REST operations: http-check's timeout + 2 s, every other kind OPERATION_DEADLINE_MS.
    const deadline = m.kind === "http_check" ? HTTP_TIMEOUT_MS + 2_000 : config.operationDeadlineMs
    const outcome = yield* vetMonitorTarget(m.kind, m.target).pipe(
      Effect.zipRight(Effect.suspend((): Effect.Effect<unknown, unknown, CheckServices> => check(m))),
      Effect.timeoutFail({ duration: Duration.millis(deadline), onTimeout: () => ({ message: `no answer within ${deadline / 1000} s` }) }),
      Effect.either
    )
    const now = yield* Clock.currentTimeMillis
    if (outcome._tag === "Left") return failedRun(messageOf(outcome.left), previous)
    return evaluate(m.kind, JSON.parse(m.conditions) as Conditions, outcome.right, previous, now)
  })

/** Runs a claimed monitor: quota, the check, the record, the request log. */
export const runMonitor = (m: MonitorRow, scheduledFor: number, runner: string) =>
  Effect.gen(function*() {
    const keys = yield* Keys
    const quota = yield* Quota
    const log = yield* RequestLog
    const sql = yield* SqlClient.SqlClient
    // A skipped run frees its claim at once (its next due time is already set).
    const release = sql`UPDATE monitors SET claimed_until = NULL WHERE id = ${m.id}`
    const org = yield* keys.orgById(m.org_id)
    if (Option.isNone(org)) return yield* Effect.as(release, "no_org" as const)
    const decision = yield* quota.consume(org.value)
    if (decision._tag === "Exceeded") return yield* Effect.as(release, "quota_exceeded" as const)
    const startedAt = yield* Clock.currentTimeMillis
    const t0 = performance.now()
    const verdict: Verdict = yield* judge(m)
    const durationMs = performance.now() - t0
    const step = yield* recordRun({ monitorId: m.id, scheduledFor, startedAt, durationMs, verdict, runner })
    yield* log.record({
      orgId: m.org_id,
      operation: "monitorRun",
      category: "monitors",
      method: "RUN",
      path: `/v1/monitors/${m.id}`,
      status: 200,
      latencyMs: durationMs,
      cache: null,
      ts: startedAt
    })
    return step
  }).pipe(Effect.withSpan("Monitors.run"))
