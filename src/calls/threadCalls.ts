import { EvmAbortedError } from '../evm/interpreter.js'
import type { EvmConfig } from '../vm/evmConfig.js'
import type { CallInput, CallOutcome } from './callInput.js'
import { runCall, UnsupportedForkError } from './callRunner.js'
import { type EstimateOutcome, estimateGas } from './estimate.js'

// Calls run on the serving thread when they are cheap: a warm balanceOf is microseconds of EVM, a worker round trip
// tens of microseconds of each thread's time (docs/design.md, "Where a call runs"). Each attempt runs under a small
// budget that the EVM keeps itself (its deadline): a call that passes it is abandoned and sent to the worker lane,
// where it runs whole. Two things keep heavy calls from costing the thread: a call whose target and selector passed
// the budget lately goes to the lane at once, and all attempts together may take only a share of the thread's time
// (a bucket of credit that refills with the clock), so a flood of new heavy calls cannot hold it either.

export interface ThreadCallLimits {
  /** The longest one attempt may run, ms. */
  budgetMs: number
  /** The share of the thread's time attempts may take, on average. */
  share: number
  /** The most credit kept, ms: how long attempts may run back to back after a quiet spell. */
  burstMs: number
  /** How long a target that passed the budget goes straight to the lane, ms. */
  heavyForMs: number
}

export const THREAD_CALL_LIMITS: ThreadCallLimits = { budgetMs: 2, share: 0.5, burstMs: 20, heavyForMs: 10_000 }

/** Targets remembered as heavy, at most (the oldest forgotten first). */
const MAX_HEAVY = 4096
/** Below this credit, ms, an attempt would be stopped before it did anything useful. */
const MIN_CREDIT = 0.05

export class ThreadCalls {
  private credit: number
  private refilledAt = performance.now()
  /**
   * Target key → performance.now() until which its calls go to the lane, once it has passed the budget twice (once
   * may be a pause of the thread's: a GC, a cold start); a target that passed it once has a negative entry.
   */
  private readonly heavy = new Map<string, number>()
  /** Counted attempts, by outcome. */
  readonly counts = { thread: 0, lane: 0, abandoned: 0 }

  constructor(
    private readonly config: EvmConfig,
    private readonly limits: ThreadCallLimits = THREAD_CALL_LIMITS,
  ) {
    this.credit = limits.burstMs
  }

  /** eth_call here; undefined when it is the lane's to run (null: the block is not stored). */
  call(input: CallInput): CallOutcome | null | undefined {
    return this.attempt(input, (deadline) => runCall(this.config, input, deadline))
  }

  /** eth_estimateGas here, every run of its search within one budget; undefined when it is the lane's. */
  estimate(input: CallInput): EstimateOutcome | null | undefined {
    return this.attempt(input, (deadline) => estimateGas(this.config, input, deadline))
  }

  private attempt<T>(input: CallInput, run: (deadline: number) => T): T | undefined {
    const now = performance.now()
    this.credit = Math.min(this.limits.burstMs, this.credit + (now - this.refilledAt) * this.limits.share)
    this.refilledAt = now
    const key = targetKey(input)
    const heavyUntil = this.heavy.get(key)
    if (this.credit < MIN_CREDIT || (heavyUntil !== undefined && heavyUntil > now)) {
      this.counts.lane++
      return undefined
    }
    try {
      const out = run(now + Math.min(this.limits.budgetMs, this.credit))
      this.counts.thread++
      if (heavyUntil === -1) this.heavy.delete(key)
      return out
    } catch (e) {
      if (e instanceof EvmAbortedError) {
        this.remember(key, heavyUntil === undefined || heavyUntil > 0 ? -1 : now + this.limits.heavyForMs)
        this.counts.abandoned++
        return undefined
      }
      if (e instanceof UnsupportedForkError) {
        this.counts.lane++
        return undefined
      }
      throw e
    } finally {
      // An attempt stops itself soon after its budget: time past that was the thread stalled (a GC, the machine
      // busy), not spent on the call.
      this.credit -= Math.min(performance.now() - now, 2 * this.limits.budgetMs)
    }
  }

  private remember(key: string, until: number): void {
    this.heavy.delete(key)
    this.heavy.set(key, until)
    if (this.heavy.size > MAX_HEAVY) this.heavy.delete(this.heavy.keys().next().value!)
  }
}

/** What names a call's cost for the heavy list: its target and the first four bytes of its data (a selector). */
function targetKey(input: CallInput): string {
  const c = input.call
  const to = c.to === undefined ? 'create' : Buffer.from(c.to.buffer, c.to.byteOffset, c.to.byteLength).toString('latin1')
  const data = c.data
  return data === undefined ? to : to + Buffer.from(data.buffer, data.byteOffset, Math.min(4, data.byteLength)).toString('latin1')
}
