import { EvmAbortedError } from '../evm/interpreter.js'
import type { EvmConfig } from '../vm/evmConfig.js'
import type { CallInput, CallOutcome } from './callInput.js'
import { runCall } from './callRunner.js'
import { type EstimateOutcome, estimateGas } from './estimate.js'
import { type AccessListResult, createAccessList } from './accessList.js'
import { type BlockTraces, type TraceAnswer, traceBlock, traceCall } from './traceRunner.js'
import type { TraceOptions } from './traceOptions.js'

// Calls run on the serving thread when they are cheap: a warm balanceOf is microseconds of EVM, a worker round trip
// tens of microseconds of each thread's time (docs/design.md, "Where a call runs"). Each attempt runs under a small
// budget that the EVM keeps itself (its deadline): a call that passes it is abandoned and sent to the worker lane,
// where it runs whole. Two things keep heavy calls from costing the thread: a call whose target and selector passed
// the budget goes to the lane at once for a while (tried here again after 50 ms, then after twice as long each time
// it passes the budget again, up to 10 s: a pause of the thread's — a GC, a busy machine — that made a cheap call
// pass it costs 50 ms of lane trips, a really heavy target one budget per 10 s), and the time attempts spend past a cheap call's may take only a share
// of the thread's time (a bucket of credit that refills with the clock), so a flood of new heavy calls cannot hold it
// either. Cheap calls are not charged: a flood of them is ordinary load, served here as receipts are.

export interface ThreadCallLimits {
  /** The longest one attempt may run, ms. */
  budgetMs: number
  /** The share of the thread's time attempts may take past `cheapMs` each, on average. */
  share: number
  /** What an attempt may take without being charged, ms: the cost of a cheap call, a balanceOf's few microseconds. */
  cheapMs: number
  /** The most credit kept, ms: how long attempts may run back to back after a quiet spell. */
  burstMs: number
  /** How long a target that passed the budget goes straight to the lane before it is tried here again, ms (first). */
  heavyForMs: number
  /** The most that wait grows to, doubling each time the target passes the budget again, ms. */
  heavyForMaxMs: number
}

export const THREAD_CALL_LIMITS: ThreadCallLimits = {
  budgetMs: 2,
  share: 0.5,
  cheapMs: 0.1,
  burstMs: 20,
  heavyForMs: 50,
  heavyForMaxMs: 10_000,
}

/**
 * What a gas of execution stands for at most on this thread, ms: Sponge's interpreter runs 50–300 Mgas/s here
 * (bench:load's Mgas/s column), so 20 ns is the slow end. A call's charge is the least of its wall time and its gas
 * at this rate: a thread that waits for a core in the middle of a cheap call (two serving threads, their lanes'
 * workers and a load generator on two cores) does not spend the credit as if the call had been heavy — before, such
 * waits drained it and sent every call to the lanes (eth_call balanceOf at 0.38× anvil on two threads against 0.85×
 * with the credit out of the way, docs/performance.md).
 */
const MS_PER_GAS = 20e-6
/** The intrinsic gas of a call, which no execution stands behind. */
const CALL_GAS = 21_000n

/** Targets remembered as heavy, at most (the oldest forgotten first). */
const MAX_HEAVY = 4096
/** Below this credit, ms, an attempt would be stopped before it did anything useful. */
const MIN_CREDIT = 0.05

export class ThreadCalls {
  private credit: number
  private refilledAt: number
  /** Targets that passed the budget: until when (performance.now()) their calls go to the lane, and the wait then. */
  private readonly heavy = new Map<string, { until: number; waitMs: number }>()
  /** Counted attempts, by outcome. */
  readonly counts = { thread: 0, lane: 0, abandoned: 0 }

  constructor(
    private readonly config: EvmConfig,
    private readonly limits: ThreadCallLimits = THREAD_CALL_LIMITS,
    /** The thread's clock, ms (a test's stalls). */
    private readonly now: () => number = () => performance.now(),
  ) {
    this.credit = limits.burstMs
    this.refilledAt = now()
  }

  /** eth_call here; undefined when it is the lane's to run (null: the block is not stored). */
  call(input: CallInput): CallOutcome | null | undefined {
    return this.attempt(
      () => targetKey(input),
      (deadline) => runCall(this.config, input, deadline),
      callWorkMs,
    )
  }

  /** debug_traceCall here; undefined when it is the lane's. */
  traceCall(input: CallInput, opts: TraceOptions): TraceAnswer | null | undefined {
    return this.attempt(
      () => `trace:${targetKey(input)}`,
      (deadline) => traceCall(this.config, input, opts, deadline),
    )
  }

  /** debug_traceTransaction and debug_traceBlockBy* here; undefined when it is the lane's. */
  traceBlock(blockHash: Uint8Array, opts: TraceOptions, only?: number): BlockTraces | null | undefined {
    const key = () => `block:${Buffer.from(blockHash).toString('latin1')}:${only ?? ''}:${opts.tracer ?? ''}`
    return this.attempt(key, (deadline) => traceBlock(this.config, blockHash, opts, only, deadline) ?? null)
  }

  /** eth_createAccessList here, every run within one budget; undefined when it is the lane's. */
  accessList(input: CallInput): AccessListResult | null | undefined {
    return this.attempt(
      () => targetKey(input),
      (deadline) => createAccessList(this.config, input, deadline),
    )
  }

  /** eth_estimateGas here, every run of its search within one budget; undefined when it is the lane's. */
  estimate(input: CallInput): EstimateOutcome | null | undefined {
    return this.attempt(
      () => targetKey(input),
      (deadline) => estimateGas(this.config, input, deadline),
    )
  }

  /**
   * Runs `run` here under the budget, or answers undefined (the lane's); `keyOf` names what it costs (targetKey);
   * `workOf`, the most thread time an answer stands for (MS_PER_GAS), where its gas says.
   */
  private attempt<T>(keyOf: () => string, run: (deadline: number) => T, workOf?: (out: T) => number): T | undefined {
    const now = this.now()
    this.credit = Math.min(this.limits.burstMs, this.credit + (now - this.refilledAt) * this.limits.share)
    this.refilledAt = now
    // The key costs two strings: made only while some target is heavy, or when this one turns out to be.
    let key = this.heavy.size === 0 ? undefined : keyOf()
    const heavy = key === undefined ? undefined : this.heavy.get(key)
    if (this.credit < MIN_CREDIT || (heavy !== undefined && heavy.until > now)) {
      this.counts.lane++
      return undefined
    }
    let out: T | undefined
    /** Stopped twice before it had done a stretch of work: the thread was waiting, not working. */
    let waited = false
    try {
      try {
        out = run(now + Math.min(this.limits.budgetMs, this.credit))
      } catch (e) {
        // The thread paused with the call barely started (a GC, the machine busy): once more, on a fresh budget.
        if (!(e instanceof EvmAbortedError) || e.worked) throw e
        out = run(this.now() + this.limits.budgetMs)
      }
      this.counts.thread++
      if (heavy !== undefined) this.heavy.delete(key!)
      return out
    } catch (e) {
      if (e instanceof EvmAbortedError) {
        this.counts.abandoned++
        // On a machine whose cores are all taken the thread can wait past the budget twice with the call barely
        // started: this one goes to the lane, but the target is not held for heavy (the wait would double up to
        // 10 s for a balanceOf) and the credit is not spent.
        if (!e.worked) {
          waited = true
          return undefined
        }
        const waitMs = heavy === undefined ? this.limits.heavyForMs : Math.min(2 * heavy.waitMs, this.limits.heavyForMaxMs)
        key ??= keyOf()
        this.remember(key, { until: this.now() + waitMs, waitMs })
        return undefined
      }
      throw e
    } finally {
      // An attempt stops itself soon after its budget: time past that was the thread stalled (a GC, the machine
      // busy), not spent on the call.
      let spent = Math.min(this.now() - now, 2 * this.limits.budgetMs)
      if (out !== undefined && workOf !== undefined) spent = Math.min(spent, workOf(out))
      else if (waited) spent = 0
      if (spent > this.limits.cheapMs) this.credit -= spent - this.limits.cheapMs
    }
  }

  private remember(key: string, entry: { until: number; waitMs: number }): void {
    this.heavy.delete(key)
    this.heavy.set(key, entry)
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

/** An eth_call's execution at the slow end of the thread's rate (MS_PER_GAS); none when the block is not stored. */
function callWorkMs(out: CallOutcome | null): number {
  return out === null || out.gasUsed <= CALL_GAS ? 0 : Number(out.gasUsed - CALL_GAS) * MS_PER_GAS
}
