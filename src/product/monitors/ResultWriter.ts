/**
 * The scheduler's result writer: finished runs are queued and stored a batch per transaction,
 * the batch being what finished within WINDOW of the first waiting run (up to MAX_BATCH). Under
 * load a transaction carries many runs; when idle, a run is stored WINDOW after it ends.
 * The cap bounds how long a batch holds SQLite's one writer (API writes wait meanwhile).
 * A batch is written whole even when the scope closes meanwhile, and what is still queued is
 * written by the finalizer, so a graceful stop loses no finished run.
 */
import { Duration, Effect, Queue, Schedule } from "effect"
import { type Release, type RunRecord, recordRuns } from "./record"

export const MAX_BATCH = 200
/** How long the writer gathers finished runs before a transaction (a lease is freed this much later). */
export const WINDOW = Duration.millis(50)

/**
 * A finished run to store, or a claim to free (the run was skipped: quota, organization gone;
 * `share`: a located monitor's location, null for an any-location monitor).
 */
export type WriterItem = { readonly _tag: "run"; readonly run: RunRecord } | ({ readonly _tag: "release" } & Release)

const write = (items: ReadonlyArray<WriterItem>) => {
  const runs: Array<RunRecord> = []
  const released: Array<Release> = []
  for (const i of items) {
    if (i._tag === "run") runs.push(i.run)
    else released.push({ monitorId: i.monitorId, share: i.share })
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
  // Runs taken from the queue and waiting out the window: the finalizer stores them too.
  let holding: Array<WriterItem> = []
  yield* Effect.addFinalizer(() =>
    Effect.flatMap(Queue.takeAll(queue), (rest) => {
      const left = [...holding, ...rest]
      holding = []
      return left.length > 0 ? write(left) : Effect.void
    })
  )
  // Group commit: after the first finished run, wait WINDOW for more (a commit costs more than
  // a row), then store what came, up to MAX_BATCH. A run taken from the queue is in `holding`
  // until its batch is written (uninterruptibly), so a stop in between loses nothing.
  const cycle = Effect.gen(function*() {
    yield* Effect.uninterruptibleMask((restore) =>
      Effect.tap(restore(Queue.take(queue)), (first) => Effect.sync(() => { holding = [first] }))
    )
    yield* Effect.sleep(WINDOW)
    yield* Effect.uninterruptible(Effect.gen(function*() {
      const batch = [...holding, ...(yield* Queue.takeUpTo(queue, MAX_BATCH - 1))]
      holding = []
      yield* write(batch)
    }))
  })
  yield* cycle.pipe(Effect.forever, Effect.forkScoped)
  return { offer: (item: WriterItem) => Queue.offer(queue, item), size: Queue.size(queue) } as const
})
