import type { BuiltPayload } from './worker/payloadBuilder.js'
import { setBounded } from '../util/boundedMap.js'

/** A build, and the forkchoiceUpdated version that started it (getPayload versions serve some only). */
export interface BuildEntry {
  build: Promise<BuiltPayload>
  version: 1 | 2 | 3
}

interface Entry extends BuildEntry {
  createdAt: number
}

/**
 * Payloads being built or built, by payload id. Bounded: the oldest are forgotten first, and after `ttlMs`. Ten, as
 * geth tracks (maxTrackedPayloads): a consensus client asks for the payload of the slot it just started, and a full
 * block's payload is a few hundred kB of JSON strings, held until it is forgotten.
 */
export class BuildTable {
  private readonly entries = new Map<string, Entry>()

  constructor(
    private readonly capacity = 10,
    private readonly ttlMs = 120_000,
  ) {}

  get(id: string): BuildEntry | undefined {
    const e = this.entries.get(id)
    if (e === undefined) return undefined
    if (Date.now() - e.createdAt > this.ttlMs) {
      this.entries.delete(id)
      return undefined
    }
    return e
  }

  has(id: string): boolean {
    return this.get(id) !== undefined
  }

  set(id: string, build: Promise<BuiltPayload>, version: BuildEntry['version']): void {
    // A failed build must not surface as an unhandled rejection; getPayload reports it.
    build.catch(() => {})
    setBounded(this.entries, id, { build, version, createdAt: Date.now() }, this.capacity)
  }
}
