/**
 * Sets `key` as the newest entry of an insertion-ordered map and drops the oldest entries past `max`: the small
 * recency caches of the node (payload builds, call contexts, fee samples, kept sidecars) stay bounded this way.
 */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key)
  map.set(key, value)
  while (map.size > max) map.delete(map.keys().next().value as K)
}
