/**
 * `GET /health` for balancers: whether this process should get traffic, decided from its lifecycle, its head
 * block's timestamp and the clock. Pure: the caller reads the head and the time.
 */

/** Where the process is: its port open before everything is up, serving, or draining after SIGTERM. */
export type Lifecycle = 'starting' | 'serving' | 'draining'
export type HealthStatus = 'ok' | 'starting' | 'draining' | 'stale'

export interface HeadStamp {
  number: bigint
  /** The head block's timestamp, seconds. */
  timestamp: bigint
}

export interface HealthInput {
  lifecycle: Lifecycle
  /** The head; undefined when it cannot be read (it is then reported as unknown, never as fresh). */
  head: HeadStamp | undefined
  nowSeconds: number
  /** The head's age past which the process is stale; 0: never stale. */
  maxAgeSeconds: number
  /** A reader's: blocks the head it has taken in is behind the store's, and the most that is still fresh. */
  lag?: { blocks: number; max: number }
  /**
   * A reader's: why what it serves cannot be trusted to be the node's chain now, whatever its head says (the node has
   * stopped or does not answer, the datadir is gone or was replaced); undefined when nothing is wrong.
   */
  problem?: string
}

export interface Health {
  status: HealthStatus
  head?: number
  /** Seconds since the head block's timestamp, never below 0 (a head from the future is fresh). */
  age?: number
  /** A reader's lag, blocks (HealthInput.lag). */
  lag?: number
  /** A reader's: why it is stale, when it knows (HealthInput.problem). */
  reason?: string
}

/** The status: draining and starting first (they say why no traffic), then the head's age against the bound. */
export function decideHealth(input: HealthInput): Health {
  const { head } = input
  const known = {
    ...(head === undefined ? {} : { head: Number(head.number), age: Math.max(0, Math.floor(input.nowSeconds) - Number(head.timestamp)) }),
    ...(input.lag === undefined ? {} : { lag: input.lag.blocks }),
  }
  if (input.lifecycle !== 'serving') return { status: input.lifecycle, ...known }
  if (known.age === undefined) return { status: 'stale', ...known }
  const stale =
    (input.maxAgeSeconds > 0 && known.age > input.maxAgeSeconds) ||
    (input.lag !== undefined && input.lag.blocks > input.lag.max) ||
    input.problem !== undefined
  return { status: stale ? 'stale' : 'ok', ...known, ...(input.problem === undefined ? {} : { reason: input.problem }) }
}

/** The reply: 200 only when ok, 503 otherwise (what HAProxy's `option httpchk` and its kin look at); a JSON body. */
export function healthReply(h: Health): { ok: boolean; body: string } {
  return { ok: h.status === 'ok', body: JSON.stringify(h) }
}

/**
 * --health.maxage when not given: `base` seconds; in dev mode 0 (never stale) when blocks come only with
 * transactions (an idle dev chain's head is old with nothing wrong), and at least two periods with --dev.period.
 */
export function defaultHealthMaxAge(dev: { period?: number } | undefined, base: number): number {
  if (dev === undefined) return base
  if (dev.period === undefined || dev.period === 0) return 0
  return Math.max(base, 2 * dev.period)
}
