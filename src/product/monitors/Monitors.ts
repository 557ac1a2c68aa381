/**
 * Monitors in the store, per organization (another organization's ids are not found): CRUD with
 * the kind's target and conditions checked and the target guard applied, results paged by id,
 * the uptime report, and `statusFor` (the MCP `monitor_status` tool's data).
 */
import { SqlClient } from "@effect/sql"
import { Clock, Effect, Option, ParseResult, Schema } from "effect"
import * as Sketch from "../metering/sketch"
import { randomBytes } from "node:crypto"
import type { Period } from "../analytics/analyze"
import type { Channel } from "../alerts/analyze"
import { replaceSecret } from "../alerts/testSend"
import type { Organization } from "../accounts/Keys"
import { AppConfig } from "../../platform/Config"
import { InvalidRequest, NotFound, PlanForbidden } from "../../kernel/errors"
import { forUpdate } from "../../platform/store/Sql"
import { kindTable, minIntervalS, type MonitorKind } from "./kindTable"
import { byLocation, firstRunAt, monitorLimit, uptimeReport, uptimeWindow } from "./model/analyze"
import { locationsOf, monitorJson, type MonitorRow, resultJson, type ResultRow } from "./rows"
import { vetUrl } from "./model/target"
import { checkLocations, viewOf, writeShares } from "./shares"

export interface MonitorInput {
  readonly name: string
  readonly kind: MonitorKind
  readonly target: string
  readonly interval_seconds: number
  readonly conditions?: Record<string, unknown>
  readonly channels?: ReadonlyArray<Channel>
  readonly enabled?: boolean
  readonly failures_before_alert?: number
  readonly cooldown_minutes?: number
  /** Locations each due run is made in ([] or absent: any one location). */
  readonly locations?: ReadonlyArray<string>
  /** Locations that must report not ok for the run to be not ok (default: a majority). */
  readonly quorum?: number
}

export type MonitorPatch = Partial<Omit<MonitorInput, "kind">>

const notFound = (id: string) => new NotFound({ message: `no monitor ${id}` })

/** The kind's conditions, or a 400 naming what is wrong. */
export const checkConditions = (kind: MonitorKind, raw: Record<string, unknown> | undefined) =>
  Effect.gen(function*() {
    const spec = kindTable[kind]
    if (raw === undefined) return spec.defaults as Record<string, unknown>
    if (Object.keys(raw).length === 0) {
      return yield* new InvalidRequest({ message: "conditions names no condition (omit it for the kind's defaults)" })
    }
    return yield* Schema.decodeUnknown(spec.conditions, { onExcessProperty: "error" })(raw).pipe(
      Effect.mapError((e) =>
        new InvalidRequest({ message: `conditions for ${kind}: ${ParseResult.TreeFormatter.formatErrorSync(e)}` })
      )
    ) as Effect.Effect<Record<string, unknown>, InvalidRequest>
  })

const checkInterval = (kind: MonitorKind, seconds: number) =>
  Effect.flatMap(AppConfig, (config) => {
    const min = minIntervalS(kind, config.monitorMinIntervalS)
    return seconds < min
      ? Effect.fail(new InvalidRequest({ message: `interval_seconds for ${kind} must be at least ${min}` }))
      : Effect.void
  })

const checkTarget = (kind: MonitorKind, raw: string) =>
  Effect.gen(function*() {
    const spec = kindTable[kind]
    const target = spec.target(raw)
    if (typeof target !== "string") {
      return yield* Effect.fail(target._tag === "InvalidRequest" ? new InvalidRequest({ message: `${kind} target: ${target.message}` }) : target)
    }
    const guard = spec.guard(target)
    yield* vetUrl(guard.url, guard.connects)
    return target
  })

export class Monitors extends Effect.Service<Monitors>()("domain-intel/Monitors", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const find = (orgId: string, id: string) =>
      Effect.orDie(sql<MonitorRow>`SELECT * FROM monitors WHERE id = ${id} AND org_id = ${orgId}`).pipe(
        Effect.flatMap((rows) => (rows[0] ? Effect.succeed(rows[0]) : Effect.fail(notFound(id))))
      )

    /** The wire form of rows, with the live locations and their shares. */
    const render = (rows: ReadonlyArray<MonitorRow>) => Effect.map(viewOf(sql, rows), (view) => rows.map((r) => monitorJson(r, view)))

    const create = Effect.fn("Monitors.create")(function*(org: Organization, input: MonitorInput) {
      const target = yield* checkTarget(input.kind, input.target)
      yield* checkInterval(input.kind, input.interval_seconds)
      const conditions = yield* checkConditions(input.kind, input.conditions)
      const locations = input.locations ?? []
      yield* checkLocations(sql, locations, input.quorum ?? null)
      const now = yield* Clock.currentTimeMillis
      const enabled = input.enabled ?? true
      const row: MonitorRow = {
        id: `mon_${randomBytes(10).toString("hex")}`,
        org_id: org.id,
        name: input.name,
        kind: input.kind,
        target,
        interval_seconds: input.interval_seconds,
        conditions: JSON.stringify(conditions),
        channels: JSON.stringify(input.channels ?? []),
        enabled: enabled ? 1 : 0,
        failures_before_alert: input.failures_before_alert ?? 1,
        cooldown_minutes: input.cooldown_minutes ?? 15,
        created_at: now,
        updated_at: now,
        next_run_at: firstRunAt(now, input.interval_seconds * 1000, Math.random()),
        claimed_until: null,
        last_run_at: null,
        last_ok: null,
        last_summary: null,
        consecutive_failures: 0,
        baseline: null,
        open_alert_id: null,
        last_alert_at: null,
        locations: JSON.stringify(locations),
        quorum: input.quorum ?? null,
        state: null,
        decided_for: null,
        last_location: null
      }
      const limit = monitorLimit[org.plan]
      const secret = yield* Effect.orDie(sql.withTransaction(Effect.gen(function*() {
        // Creates for one organization take turns (its row locked on PostgreSQL; in SQLite this
        // process's transactions run one at a time), so each counts the ones committed before it.
        yield* sql`SELECT id FROM organizations WHERE id = ${org.id} ${forUpdate(sql)}`
        const n = yield* sql<{ n: number }>`SELECT COUNT(*) AS n FROM monitors WHERE org_id = ${org.id}`
        if (Number(n[0].n) >= limit) return Option.none<string>()
        yield* sql`INSERT INTO monitors ${sql.insert({ ...row })}`
        yield* writeShares(sql, row, now, true)
        return Option.some(yield* replaceSecret(sql, row.id))
      })))
      if (Option.isNone(secret)) {
        return yield* new PlanForbidden({ message: `the ${org.plan} plan allows ${limit} monitors; delete one or upgrade` })
      }
      return { monitor: (yield* Effect.orDie(render([row])))[0], signing_secret: secret.value }
    })

    const list = Effect.fn("Monitors.list")(function*(orgId: string) {
      const rows = yield* sql<MonitorRow>`SELECT * FROM monitors WHERE org_id = ${orgId} ORDER BY created_at, id`
      return yield* render(rows)
    }, Effect.orDie)

    const get = Effect.fn("Monitors.get")(function*(orgId: string, id: string) {
      return (yield* Effect.orDie(render([yield* find(orgId, id)])))[0]
    })

    /** Validates every supplied field against the monitor's kind, then one UPDATE. */
    const update = Effect.fn("Monitors.update")(function*(orgId: string, id: string, patch: MonitorPatch) {
      const current = yield* find(orgId, id)
      const kind = current.kind
      const now = yield* Clock.currentTimeMillis
      const set: Record<string, unknown> = { updated_at: now }
      if (patch.target !== undefined) {
        set.target = yield* checkTarget(kind, patch.target)
        if (set.target !== current.target) set.baseline = null // a new target starts a new history of "seen"
      }
      const located = locationsOf(current).length > 0
      // A located monitor's next_run_at is its shares' anchor: a new interval starts a new cadence.
      let rephase = false
      if (patch.interval_seconds !== undefined) {
        yield* checkInterval(kind, patch.interval_seconds)
        set.interval_seconds = patch.interval_seconds
        const first = firstRunAt(now, patch.interval_seconds * 1000, Math.random())
        if (!located) set.next_run_at = Math.min(current.next_run_at, first)
        else if (patch.interval_seconds !== Number(current.interval_seconds)) {
          set.next_run_at = first
          rephase = true
        }
      }
      if (patch.locations !== undefined || patch.quorum !== undefined) {
        const locations = patch.locations ?? locationsOf(current)
        // A quorum set before stays while it fits the new list (no list: nothing to fit); the
        // default follows the list.
        const kept = current.quorum === null || locations.length === 0 ? null : Number(current.quorum)
        const quorum = patch.quorum ?? kept
        yield* checkLocations(sql, locations, quorum)
        set.locations = JSON.stringify(locations)
        set.quorum = quorum
        if ((locations.length > 0) !== located) {
          // Between "any one location" and located: the next run starts on a fresh cadence.
          set.next_run_at = firstRunAt(now, (patch.interval_seconds ?? current.interval_seconds) * 1000, Math.random())
          set.state = null
          rephase = true
        }
      }
      if (patch.conditions !== undefined) set.conditions = JSON.stringify(yield* checkConditions(kind, patch.conditions))
      if (patch.name !== undefined) set.name = patch.name
      if (patch.channels !== undefined) set.channels = JSON.stringify(patch.channels)
      if (patch.failures_before_alert !== undefined) set.failures_before_alert = patch.failures_before_alert
      if (patch.cooldown_minutes !== undefined) set.cooldown_minutes = patch.cooldown_minutes
      if (patch.enabled !== undefined) {
        set.enabled = patch.enabled ? 1 : 0
        if (patch.enabled && current.enabled === 0) {
          set.next_run_at = firstRunAt(now, (patch.interval_seconds ?? current.interval_seconds) * 1000, Math.random())
          rephase = true
        }
      }
      const rows = yield* Effect.orDie(sql.withTransaction(Effect.gen(function*() {
        const updated = yield* sql<MonitorRow>`UPDATE monitors SET ${sql.update(set)}
          WHERE id = ${id} AND org_id = ${orgId} RETURNING *`
        if (updated[0]) yield* writeShares(sql, updated[0], now, rephase)
        return updated
      })))
      if (rows.length === 0) return yield* notFound(id)
      return (yield* Effect.orDie(render(rows)))[0]
    })

    /** Deletes the monitor, its results and its signing secret; its alert history stays. */
    const remove = Effect.fn("Monitors.remove")(function*(orgId: string, id: string) {
      const rows = yield* Effect.orDie(sql`DELETE FROM monitors WHERE id = ${id} AND org_id = ${orgId} RETURNING id`)
      if (rows.length === 0) return yield* notFound(id)
      yield* Effect.orDie(sql`DELETE FROM monitor_results WHERE monitor_id = ${id}`)
      yield* Effect.orDie(sql`DELETE FROM monitor_rollups WHERE monitor_id = ${id}`)
      yield* Effect.orDie(sql`DELETE FROM monitor_incidents WHERE monitor_id = ${id}`)
      yield* Effect.orDie(sql`DELETE FROM monitor_shares WHERE monitor_id = ${id}`)
      yield* Effect.orDie(sql`DELETE FROM webhook_secrets WHERE owner_id = ${id}`)
    })

    const rotateSecret = Effect.fn("Monitors.rotateSecret")(function*(orgId: string, id: string) {
      yield* find(orgId, id)
      return { signing_secret: yield* Effect.orDie(replaceSecret(sql, id)) }
    })

    /** Newest first; `before` is a result id (results strictly older). */
    const results = Effect.fn("Monitors.results")(function*(
      orgId: string,
      id: string,
      page: { readonly limit?: number; readonly before?: string }
    ) {
      yield* find(orgId, id)
      const limit = page.limit ?? 50
      const rows = yield* Effect.orDie(sql<ResultRow>`SELECT id, started_at, duration_ms, ok, summary, report, location
        FROM monitor_results WHERE monitor_id = ${id} ${page.before ? sql`AND id < ${page.before}` : sql``}
        ORDER BY id DESC LIMIT ${limit + 1}`)
      const shown = rows.slice(0, limit)
      return { results: shown.map(resultJson), next_before: rows.length > limit ? shown[shown.length - 1].id : null }
    })

    const uptime = Effect.fn("Monitors.uptime")(function*(orgId: string, id: string, period: Period) {
      const monitor = yield* find(orgId, id)
      const now = yield* Clock.currentTimeMillis
      const w = uptimeWindow(period, now)
      // At most 31 rollup rows per location and the incidents overlapping the period, however many runs it holds.
      const days = (yield* Effect.orDie(sql<{ location: string; runs: number; ok_runs: number; sketch: Uint8Array }>`
        SELECT location, runs, ok_runs, sketch FROM monitor_rollups WHERE monitor_id = ${id} AND day >= ${w.from} AND day < ${w.to}`))
        .map((d) => ({ location: d.location, runs: Number(d.runs), ok_runs: Number(d.ok_runs), sketch: Sketch.decode(d.sketch) }))
      const incidents = yield* Effect.orDie(sql<{ started_at: number; ended_at: number | null }>`
        SELECT started_at, ended_at FROM monitor_incidents
        WHERE monitor_id = ${id} AND started_at < ${w.to} AND (ended_at IS NULL OR ended_at >= ${w.from})`)
      return {
        ...uptimeReport(
          period,
          days,
          incidents.map((i) => ({ started_at: Number(i.started_at), ended_at: i.ended_at === null ? null : Number(i.ended_at) }))
        ),
        by_location: byLocation(locationsOf(monitor), days)
      }
    })

    /**
     * The caller's monitors with their state, for the MCP `monitor_status` tool (read-only):
     * each monitor as the REST API shows it, plus the last run's summary.
     */
    const statusFor = Effect.fn("Monitors.statusFor")(function*(orgId: string) {
      const rows = yield* sql<MonitorRow>`SELECT * FROM monitors WHERE org_id = ${orgId} ORDER BY created_at, id`
      const shown = yield* render(rows)
      return { monitors: shown.map((m, i) => ({ ...m, last_summary: rows[i].last_summary })) }
    }, Effect.orDie)

    return { create, list, get, update, remove, rotateSecret, results, uptime, statusFor } as const
  })
}) {}
