/**
 * A small in-process cache for reads that depend only on their key and the store's state.
 * An entry is served while the `version` its reader names is unchanged (writers in this
 * process bump it) and for at most `READ_CACHE_MAX_AGE_MS`: the bound on how long another
 * instance's write on the same database can go unseen here.
 */
import { setNewest } from "../../kernel/memo"

export const READ_CACHE_MAX_AGE_MS = 1_000

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
