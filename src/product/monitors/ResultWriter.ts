/**
 * The scheduler's result writer: finished runs are queued and stored a batch per transaction,
 * the batch being whatever finished while the previous one was written (up to MAX_BATCH). Under
 * load a transaction carries up to MAX_BATCH runs; when idle, a run is stored as soon as it ends.
 * The cap bounds how long a batch holds SQLite's one writer (API writes wait meanwhile).
 * A batch is written whole even when the scope closes meanwhile, and what is still queued is
 * written by the finalizer, so a graceful stop loses no finished run.
 */
import { Effect, Queue, Schedule } from "effect"
import { type RunRecord, recordRuns } from "../../monitors/record"

export const MAX_BATCH = 200

/** A finished run to store, or a claim to free (the run was skipped: quota, organization gone). */
export type WriterItem = { readonly _tag: "run"; readonly run: RunRecord } | { readonly _tag: "release"; readonly monitorId: string }

const write = (items: ReadonlyArray<WriterItem>) => {
  const runs: Array<RunRecord> = []
  const released: Array<string> = []
  for (const i of items) {
    if (i._tag === "run") runs.push(i.run)
    else released.push(i.monitorId)
  }
  return recordRuns(runs, released).pipe(
    // A busy or briefly unreachable store: a few retries, then the batch is reported lost (its
    // monitors' leases expire and they run again at their next due time).
    Effect.retry({ times: 3, schedule: Schedule.exponential("100 millis") }),
    Effect.catchAllCause((cause) => Effect.logWarning(`monitor result batch of ${items.length} not stored`, cause)),
    Effect.asVoid
  )
}

export const makeResultWriter = Effect.gen(function*() {
  const queue = yield* Queue.unbounded<WriterItem>()
  yield* Effect.addFinalizer(() => Effect.flatMap(Queue.takeAll(queue), (rest) => (rest.length > 0 ? write([...rest]) : Effect.void)))
  yield* Queue.takeBetween(queue, 1, MAX_BATCH).pipe(
    Effect.flatMap((batch) => Effect.uninterruptible(write([...batch]))),
    Effect.forever,
    Effect.forkScoped
  )
  return { offer: (item: WriterItem) => Queue.offer(queue, item), size: Queue.size(queue) } as const
})
