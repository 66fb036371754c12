import type { BuiltPayload } from '../exec/builder.js'

interface Entry {
  build: Promise<BuiltPayload>
  createdAt: number
}

/** Payloads being built or built, by payload id. Bounded: the oldest are forgotten first, and after `ttlMs`. */
export class BuildTable {
  private readonly entries = new Map<string, Entry>()

  constructor(
    private readonly capacity = 64,
    private readonly ttlMs = 120_000,
  ) {}

  get(id: string): Promise<BuiltPayload> | undefined {
    const e = this.entries.get(id)
    if (e === undefined) return undefined
    if (Date.now() - e.createdAt > this.ttlMs) {
      this.entries.delete(id)
      return undefined
    }
    return e.build
  }

  has(id: string): boolean {
    return this.get(id) !== undefined
  }

  set(id: string, build: Promise<BuiltPayload>): void {
    // A failed build must not surface as an unhandled rejection; getPayload reports it.
    build.catch(() => {})
    this.entries.delete(id)
    this.entries.set(id, { build, createdAt: Date.now() })
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!)
  }
}
