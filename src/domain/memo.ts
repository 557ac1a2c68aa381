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
