/**
 * In-process caches for reads that depend only on their key and the store's state. An entry is
 * served while the `version` its reader names is unchanged (writers in this process bump it)
 * and for at most `READ_CACHE_MAX_AGE_MS`: the bound on how long another instance's write on the
 * same database can go unseen here.
 *
 * - `makeVersionedCache`: Effect's `Cache`, for readers that know the version before they read
 *   (alert rule lists, the quota's stored count). The version is part of the cache key, so a
 *   write here makes every older entry unreachable at once, a read still running included;
 *   concurrent misses share one read.
 * - `makeReadCache`: a map, for a reader that learns the version only from the read itself (the
 *   usage report's stored counts: src/product/analytics/Analytics.ts), which a `Cache` key,
 *   fixed before the lookup, cannot carry.
 */
import { Cache, Duration, Effect, Exit } from "effect"
import { setNewest } from "../../kernel/memo"

export const READ_CACHE_MAX_AGE_MS = 1_000

export interface VersionedCache<V, E> {
  /** The value of `key` read at `version`, read now unless one younger than the bound is held. */
  readonly get: (key: string, version: number) => Effect.Effect<V, E>
}

export const makeVersionedCache = <V, E>(
  read: (key: string) => Effect.Effect<V, E>,
  capacity = 10_000
): Effect.Effect<VersionedCache<V, E>> =>
  Effect.map(
    Cache.makeWith({
      capacity,
      lookup: (versioned: string) => read(versioned.slice(versioned.indexOf(" ") + 1)),
      // Failed reads are not kept.
      timeToLive: (exit: Exit.Exit<V, E>) => (Exit.isSuccess(exit) ? Duration.millis(READ_CACHE_MAX_AGE_MS) : Duration.zero)
    }),
    (cache) => ({ get: (key, version) => cache.get(`${version} ${key}`) })
  )

export interface ReadCache<K, V> {
  /** The cached value read at `version`, if not older than the bound. */
  readonly get: (key: K, version: number, now: number) => V | undefined
  readonly set: (key: K, version: number, now: number, value: V) => void
}

export const makeReadCache = <K, V>(capacity = 10_000, maxAgeMs = READ_CACHE_MAX_AGE_MS): ReadCache<K, V> => {
  const entries = new Map<K, { readonly version: number; readonly at: number; readonly value: V }>()
  return {
    get: (key, version, now) => {
      const e = entries.get(key)
      return e !== undefined && e.version === version && now - e.at < maxAgeMs && now >= e.at ? e.value : undefined
    },
    set: (key, version, now, value) => {
      setNewest(entries, key, { version, at: now, value }, capacity)
    }
  }
}
