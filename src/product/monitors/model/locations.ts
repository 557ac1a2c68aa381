/**
 * Locations, the rules of the road (pure; docs/monitors.md, "Several locations"): when a location
 * is live, a monitor's quorum, and the combined state of one due run from what its locations
 * reported. No Effect, no I/O.
 */

/** The location of an instance without INSTANCE_LOCATION, and of every run stored before there were several. */
export const DEFAULT_LOCATION = "default"

/** How often each instance records that it is alive. */
export const HEARTBEAT_EVERY_MS = 15_000
/** A location unseen this long is not live (four heartbeats missed). */
export const STALE_AFTER_MS = 60_000
/** Instances unseen this long are forgotten (their location is kept). */
export const FORGET_INSTANCE_AFTER_MS = 86_400_000

/** A location (or instance) last seen at `lastSeenAt` is live at `now`. */
export const isLive = (lastSeenAt: number, now: number): boolean => now - lastSeenAt < STALE_AFTER_MS

/** The default quorum of `n` listed locations: a majority. */
export const majority = (n: number): number => Math.floor(n / 2) + 1

/** The quorum in force: the stored one, else a majority of the listed locations. */
export const quorumOf = (locations: ReadonlyArray<string>, stored: number | null): number =>
  stored ?? majority(locations.length)

/** Why a monitor's locations and quorum are refused, or undefined when they are fine. */
export const locationsProblem = (locations: ReadonlyArray<string>, quorum: number | null): string | undefined => {
  const seen = new Set<string>()
  for (const l of locations) {
    if (seen.has(l)) return `locations names ${l} twice`
    seen.add(l)
  }
  if (quorum === null) return undefined
  if (locations.length === 0) return "quorum needs locations (with no locations a monitor runs in any one location)"
  if (quorum < 1 || quorum > locations.length) {
    return `quorum must be between 1 and ${locations.length} (the number of locations)`
  }
  return undefined
}

export type CombinedState = "ok" | "not_ok" | "unknown"

export interface RunReports {
  /** The monitor's locations, as listed. */
  readonly locations: ReadonlyArray<string>
  readonly quorum: number
  /** What each location that reported for this run saw (true: ok). */
  readonly reports: ReadonlyMap<string, boolean>
  /** The locations live now. */
  readonly live: ReadonlySet<string>
  /** The run's interval has passed (decide with what came). */
  readonly closed: boolean
}

export type Combined =
  | { readonly decided: false }
  | { readonly decided: true; readonly state: CombinedState; readonly failing: ReadonlyArray<string> }

/**
 * The combined state of one due run. It is decided once every live listed location has reported
 * (a location that reported counts as live for this run) or the interval has passed; then it is
 * `unknown` when fewer than `quorum` listed locations are live, `not_ok` when at least `quorum`
 * of them report not ok, `ok` when too few could (those that failed and the live ones that did
 * not report together stay below `quorum`), else `unknown`: too few reports came to tell, and a
 * silence must not resolve an alert (or open one). `failing` lists the locations that reported not ok.
 */
export const combine = (r: RunReports): Combined => {
  const participating = r.locations.filter((l) => r.live.has(l) || r.reports.has(l))
  const silent = participating.filter((l) => !r.reports.has(l)).length
  if (silent > 0 && !r.closed) return { decided: false }
  const failing = r.locations.filter((l) => r.reports.get(l) === false)
  if (participating.length < r.quorum) return { decided: true, state: "unknown", failing }
  if (failing.length >= r.quorum) return { decided: true, state: "not_ok", failing }
  return { decided: true, state: failing.length + silent >= r.quorum ? "unknown" : "ok", failing }
}

/**
 * The latest due time on a located monitor's cadence (`anchor` + k·interval) whose interval has
 * passed at `now`, or null when the first has not.
 */
export const lastClosedRun = (anchor: number, intervalMs: number, now: number): number | null => {
  if (now < anchor + intervalMs) return null
  return anchor + intervalMs * (Math.floor((now - anchor) / intervalMs) - 1)
}

/** The one-line summary of a decided due run, from each location's own summary. */
export const combinedSummary = (
  r: RunReports,
  c: Extract<Combined, { decided: true }>,
  summaries: ReadonlyMap<string, string>
): string => {
  const failing = c.failing.map((l) => `${l}: ${summaries.get(l) ?? "not ok"}`).join("; ")
  switch (c.state) {
    case "unknown": {
      const live = r.locations.filter((l) => r.live.has(l) || r.reports.has(l)).length
      return live < r.quorum
        ? `unknown: ${live} of ${r.locations.length} locations live, fewer than the quorum of ${r.quorum}`
        : `unknown: ${r.reports.size} of ${live} live locations reported within the interval, too few to tell against the quorum of ${r.quorum}`
    }
    case "not_ok":
      return `not ok in ${c.failing.length} of ${r.locations.length} locations (quorum ${r.quorum}): ${failing}`
    case "ok":
      return c.failing.length === 0
        ? `ok in ${r.reports.size} of ${r.locations.length} locations`
        : `ok: not ok in ${c.failing.length} of ${r.locations.length} locations, below the quorum of ${r.quorum} (${failing})`
  }
}
