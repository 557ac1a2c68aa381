/**
 * `f` remembered per argument, for pure functions on a hot path whose arguments repeat (dates,
 * domains, log strings). At most `limit` answers are kept: when full, all are dropped (cheaper
 * than ordering them, and hostile inputs cannot grow it). `keep` chooses which answers to keep.
 */
export const memoize = <K, V>(f: (key: K) => V, limit: number, keep: (value: V) => boolean = () => true) => {
  const known = new Map<K, V>()
  return (key: K): V => {
    const hit = known.get(key)
    if (hit !== undefined) return hit
    const value = f(key)
    if (keep(value)) {
      if (known.size >= limit) known.clear()
      known.set(key, value)
    }
    return value
  }
}

/**
 * Sets `key` as the newest entry of an insertion-ordered map kept to at most `capacity` entries
 * (the bounded caches: key lookups, read caches, CT results and bodies, quota counters). When
 * the map is full the oldest entry goes, and is returned so the caller can let go of it.
 */
export const setNewest = <K, V>(map: Map<K, V>, key: K, value: V, capacity: number): readonly [K, V] | undefined => {
  map.delete(key)
  let evicted: [K, V] | undefined
  if (map.size >= capacity) {
    evicted = map.entries().next().value
    if (evicted !== undefined) map.delete(evicted[0])
  }
  map.set(key, value)
  return evicted
}
