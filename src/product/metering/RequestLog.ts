/**
 * The request log every analytics report reads: one record per authenticated request.
 * `record` only appends to memory; a background fiber writes batches in one transaction
 * every `flushIntervalMs` (or sooner when the buffer fills), and the layer's finalizer writes
 * what is left, so SIGTERM/SIGINT lose nothing and no response waits on the disk.
 */
import { SqlClient } from "@effect/sql"
import { Duration, Effect, Runtime, Schedule } from "effect"
import type { RequestRecord } from "./RequestRecord"
import { type EndpointBucket, makeAggregator, MINUTE, type OrgBucket } from "./rollup"
import { writeBatch } from "./writeBatch"

/** An organization's records not written yet, as minute buckets (see `unwrittenBuckets`). */
export interface UnwrittenBuckets {
  readonly org: ReadonlyArray<OrgBucket>
  readonly endpoint: ReadonlyArray<EndpointBucket>
}

export type { RequestRecord } from "./RequestRecord"

const MINUTE_MS = 60_000

/** Record counts: organization → minute → category → count. */
type Tally = Map<string, Map<number, Map<string, number>>>

const addToTally = (tally: Tally, orgId: string, minute: number, category: string, n: number) => {
  let byMinute = tally.get(orgId)
  if (byMinute === undefined) tally.set(orgId, byMinute = new Map())
  let byCategory = byMinute.get(minute)
  if (byCategory === undefined) byMinute.set(minute, byCategory = new Map())
  byCategory.set(category, (byCategory.get(category) ?? 0) + n)
}

/** Adds every count of `from` into `into`. */
const mergeTally = (into: Tally, from: Tally) => {
  for (const [orgId, byMinute] of from) {
    for (const [minute, byCategory] of byMinute) for (const [category, n] of byCategory) addToTally(into, orgId, minute, category, n)
  }
}

const flushIntervalMs = 200
const softLimit = 2_000

export class RequestLog extends Effect.Service<RequestLog>()("domain-intel/RequestLog", {
  scoped: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    let buffer: Array<RequestRecord> = []
    let written = 0
    // Records appended so far, and how many of them are known written: a flush asked for after
    // another one already wrote its records returns at once (group commit for the reports, which
    // flush before every read).
    let appended = 0
    let committed = 0
    // How many batches were written: `unwrittenBuckets` below.
    let version = 0
    // The same records counted per organization, minute and category (the buffer's and the
    // in-flight batch's), so a reader that only counts them costs a few Map reads, not a scan.
    let bufferTally: Tally = new Map()
    let inFlightTally: Tally = new Map()
    // And aggregated into minute buckets as the writer's rollups will be: a report adds these few
    // buckets instead of aggregating every unwritten record on each read (docs/analytics.md).
    let bufferAgg = makeAggregator(MINUTE)
    let inFlightAgg = makeAggregator(MINUTE)

    const flush = Effect.suspend(() => {
      if (buffer.length === 0) return Effect.void
      const batch = buffer
      const through = appended
      buffer = []
      inFlightTally = bufferTally
      bufferTally = new Map()
      inFlightAgg = bufferAgg
      bufferAgg = makeAggregator(MINUTE)
      return writeBatch(sql, batch, inFlightAgg).pipe(
        Effect.tap(() => Effect.sync(() => {
          written += batch.length
          committed = Math.max(committed, through)
          inFlightTally = new Map()
          inFlightAgg = makeAggregator(MINUTE)
          version++
        })),
        Effect.catchAllCause((cause) =>
          // Keep the records for the next attempt rather than lose them.
          Effect.sync(() => {
            buffer = batch.concat(buffer)
              mergeTally(bufferTally, inFlightTally)
            inFlightTally = new Map()
            bufferAgg = makeAggregator(MINUTE)
            for (const r of buffer) bufferAgg.add(r)
            inFlightAgg = makeAggregator(MINUTE)
          }).pipe(
            Effect.zipRight(Effect.logError("request log flush failed", cause))
          )
        )
      )
    })
    // One flush at a time: the periodic one, an early one on a full buffer, the final one.
    const lock = yield* Effect.makeSemaphore(1)
    const flushLocked = lock.withPermits(1)(flush)
    /** Everything appended before this call is written when it returns (or the write failed, logged). */
    const flushAppended = Effect.suspend(() => {
      const target = appended
      if (target <= committed) return Effect.void
      return lock.withPermits(1)(Effect.suspend(() => (target <= committed ? Effect.void : flush)))
    })

    yield* flushLocked.pipe(
      Effect.repeat(Schedule.spaced(Duration.millis(flushIntervalMs))),
      Effect.forkScoped
    )
    yield* Effect.addFinalizer(() => flushLocked)

    const runFork = Runtime.runFork(yield* Effect.runtime<never>())
    let earlyFlushQueued = false
    const earlyFlush = Effect.ensuring(flushLocked, Effect.sync(() => { earlyFlushQueued = false }))
    /** Appends without an Effect around it (callers outside an Effect); a full buffer starts one flush. */
    const unsafeRecord = (entry: RequestRecord): void => {
      buffer.push(entry)
      appended++
      addToTally(bufferTally, entry.orgId, entry.ts - (entry.ts % MINUTE_MS), entry.category, 1)
      bufferAgg.add(entry)
      if (buffer.length >= softLimit && !earlyFlushQueued) {
        earlyFlushQueued = true
        // Scheduled, not run inline: the write must not sit in the response of this request.
        runFork(earlyFlush, { immediate: false })
      }
    }
    const record = (entry: RequestRecord): Effect.Effect<void> => Effect.sync(() => unsafeRecord(entry))

    return {
      record,
      unsafeRecord,
      /**
       * Write everything recorded before this call (tests, reports that must see the latest
       * requests); concurrent callers share the writes already under way.
       */
      flush: flushAppended,
      /**
       * The organization's unwritten records as minute buckets (the batch being written and the
       * buffer, so a minute may come twice), with the count of written batches. The buckets
       * are live: records appended later may join them, which only counts newer unwritten requests.
       * A reader that sees the same batch count after reading the store has read the store and
       * these buckets without overlap or gap (no batch committed in between).
       */
      unwrittenBuckets: (orgId: string): UnwrittenBuckets & { readonly version: number } => {
        const org: Array<OrgBucket> = []
        const endpoint: Array<EndpointBucket> = []
        for (const agg of [inFlightAgg, bufferAgg]) {
          for (const b of agg.org.values()) if (b.orgId === orgId) org.push(b)
          for (const b of agg.endpoint.values()) if (b.orgId === orgId) endpoint.push(b)
        }
        return { org, endpoint, version }
      },
      /**
       * The organization's unwritten records counted by minute (epoch ms at the minute's start)
       * and category: `f` is called once per pair with its count. Returns the batch count, read
       * in the same synchronous step (see `unwrittenBuckets`).
       */
      eachUnwrittenCount: (orgId: string, f: (minute: number, category: string, count: number) => void): number => {
        for (const tally of [inFlightTally, bufferTally]) {
          const byMinute = tally.get(orgId)
          if (byMinute === undefined) continue
          for (const [minute, byCategory] of byMinute) for (const [category, n] of byCategory) f(minute, category, n)
        }
        return version
      },
      /** Count of batches written so far (see `unwrittenBuckets`). */
      version: (): number => version,
      stats: Effect.sync(() => ({ buffered: buffer.length, written }))
    } as const
  })
}) {}
