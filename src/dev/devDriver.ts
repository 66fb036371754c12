import { HeaderView } from '../store/headerView.js'
import { randomBytes } from 'node:crypto'
import type { ChainSpec } from '../chain/spec.js'
import type { EngineService } from '../engine/engineService.js'
import type { ChainReader } from '../store/chainReader.js'
import type { ChainStore } from '../store/chainStore.js'
import { StoreWriteError } from '../store/errors.js'
import type { TxPool } from '../txpool/txPool.js'
import type { Logger } from '../util/logger.js'
import { bytesToHex, hexToBytes, toQuantity } from '../util/hex.js'
import { DevChainError } from './errors.js'

const ZERO32 = `0x${'00'.repeat(32)}`
/** How long a send queued behind a nonce gap waits for the gap to be filled before it is answered unmined, ms. */
export const GAP_WAIT_MS = 2000

/** Whether dev mode makes a block for each newly pending transaction (no --dev.period), each send waiting for it. */
export const minesOnDemand = (periodSeconds: number | undefined): boolean => !(periodSeconds !== undefined && periodSeconds > 0)

/**
 * Dev mode's consensus stand-in: makes blocks through the node's Engine API service (EngineService.makeHead: built
 * and stored with the forkchoice that makes it head, in one write) on every newly pending transaction, or every
 * `periodSeconds`.
 */
export class DevDriver {
  private running: Promise<void> | undefined
  private again = false
  private timer: NodeJS.Timeout | undefined
  private stopped = false
  /** Waiters for the next block to start (nextBlockEvent). */
  private readonly starts = new Set<() => void>()
  /** Why the last block attempt failed; undefined once one succeeds. */
  private failure: Error | undefined
  /** Blocks are made for each newly pending transaction (no --dev.period). */
  readonly minesOnDemand: boolean

  constructor(
    private readonly spec: ChainSpec,
    private readonly store: ChainStore,
    private readonly chain: ChainReader,
    private readonly engine: EngineService,
    private readonly txPool: TxPool,
    private readonly log: Logger,
    periodSeconds: number | undefined,
    /** GAP_WAIT_MS unless given (tests that must not depend on the machine's speed). */
    private readonly gapWaitMs = GAP_WAIT_MS,
  ) {
    this.minesOnDemand = minesOnDemand(periodSeconds)
    if (this.minesOnDemand) {
      txPool.onPending(() => this.trigger())
    } else {
      this.timer = setInterval(() => this.trigger(), periodSeconds! * 1000)
    }
  }

  stop(): void {
    this.stopped = true
    if (this.timer !== undefined) clearInterval(this.timer)
    this.blockStarted()
  }

  /**
   * Settles once the transaction `txHash`, pooled just before, is in a block: as soon as the block that includes it
   * is head. The block being made when it became pending may have read the pool before it, the one its arrival
   * triggered (`again`) did not: at most two blocks while it is pending, so a steady stream of transactions cannot
   * keep a sender waiting. Queued behind a nonce gap, it waits up to `gapWaitMs` for the gap to be filled: sends
   * fired together by a client that hands out nonces itself (viem's nonce manager) reach the pool in any order, and
   * the send that fills the gap is mostly on its way; answered unmined, the client finds no receipt and looks again
   * only seconds later (viem: 4 s). After that it is answered unmined (a gap the client left). If it is not in the
   * chain because the last block failed (its block could not be stored: a full disk), the send fails with that error
   * and the transaction leaves the pool: a send is acknowledged only when its block exists, and a refused one must
   * not be mined later behind the client's back.
   */
  async afterNextBlock(txHash: string): Promise<void> {
    const hash = hexToBytes(txHash)
    const gapDeadline = performance.now() + this.gapWaitMs
    let waited = false
    let pendingBlocks = 0
    for (;;) {
      if (this.txPool.isPendingHash(txHash)) {
        if (this.running === undefined || pendingBlocks++ === 2) break
        waited = true
        await this.running
      } else {
        const left = gapDeadline - performance.now()
        if (left <= 0 || this.stopped) break
        // A block ending or starting: the gap may have been filled meanwhile.
        await this.nextBlockEvent(left)
      }
      if (this.store.getTxLocation(hash) !== undefined) return
      // Dropped or replaced: no block is coming for it.
      if (this.txPool.get(txHash) === undefined) break
    }
    // No block was made for it (queued behind a nonce gap): an earlier block's failure is not its answer.
    const failure = waited ? this.failure : undefined
    if (this.store.getTxLocation(hash) !== undefined) return
    if (failure === undefined) {
      const pooled = this.txPool.get(txHash) === undefined ? 'gone' : this.txPool.isPendingHash(txHash) ? 'pending' : 'queued'
      this.log.debug('send answered before its block', { hash: txHash, pooled, pendingBlocks })
      return
    }
    this.txPool.drop(txHash)
    throw failure
  }

  /** Settles when the block being made is made (or fails), else when the next one starts; or after `ms`, or on stop(). */
  private nextBlockEvent(ms: number): Promise<void> {
    if (this.stopped) return Promise.resolve()
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer)
        this.starts.delete(done)
        resolve()
      }
      const timer = setTimeout(done, ms)
      if (this.running === undefined) this.starts.add(done)
      else void this.running.finally(done)
    })
  }

  /** Settles when no block is being made (after stop(), none will be again). */
  async idle(): Promise<void> {
    while (this.running !== undefined) await this.running
  }

  /** Coalesces triggers: one block at a time, and one more if transactions arrived meanwhile. */
  trigger(): void {
    if (this.stopped) return
    if (this.running !== undefined) {
      this.again = true
      return
    }
    // On the next turn of the event loop, not inside the pool's admission of the transaction that triggered it: the
    // block is built on this thread, in one synchronous stretch, and the sends already received (a burst, or sends
    // from one account queued behind its nonce lock) are pooled first and share it instead of taking a block each.
    this.running = new Promise<void>((resolve) => setImmediate(resolve))
      // Stopped meanwhile (the node closing): no block is started.
      .then(() => (this.stopped ? undefined : this.produce()))
      .then(
        () => {
          this.failure = undefined
        },
        (e: unknown) => {
          this.failure = e instanceof Error ? e : new Error(String(e))
          // The engine logged a failed write already, once for a run of them: this would repeat it per block.
          if (e instanceof StoreWriteError) this.log.debug('dev block not stored', { error: e.message })
          else this.log.error('dev block production failed', { error: this.failure.message })
        },
      )
      .finally(() => this.blockEnded())
    this.blockStarted()
  }

  /** A block is made (or failed): the next one starts if transactions became pending meanwhile. */
  private blockEnded(): void {
    this.running = undefined
    if (this.again && !this.stopped) {
      this.again = false
      this.trigger()
    }
  }

  private blockStarted(): void {
    for (const done of [...this.starts]) done()
  }

  /** evm_setNextBlockTimestamp: the next block's timestamp (once). */
  private nextTimestamp: bigint | undefined
  /** evm_snapshot ids (hex counters) and the heads they saved. */
  private readonly snapshots = new Map<string, string>()
  private snapshotCount = 0

  setNextTimestamp(timestamp: bigint): void {
    const headTime = this.chain.headHeader().timestamp
    if (timestamp <= headTime) throw new DevChainError(`timestamp ${timestamp} is not after the head's ${headTime}`)
    this.nextTimestamp = timestamp
  }

  /**
   * evm_mine: a block now, with whatever the pool holds (possibly none), after any block in the making. A transaction
   * that became pending while it was made gets the next block, as it would after any other block.
   */
  async mine(): Promise<string> {
    await this.idle()
    const made = this.produce()
    this.running = made.then(
      () => {},
      () => {},
    )
    this.blockStarted()
    try {
      return await made
    } finally {
      this.blockEnded()
    }
  }

  /** evm_snapshot: remembers the head; the id reverts to it. */
  snapshot(): string {
    const id = `0x${(++this.snapshotCount).toString(16)}`
    this.snapshots.set(id, bytesToHex(this.chain.head().hash))
    return id
  }

  /**
   * evm_revert: forkchoice back to the snapshot's head (safe and finalized with it), as anvil does; the undone blocks'
   * transactions return to the pool. That snapshot and later ones are used up. False for an unknown id.
   */
  async revert(id: string): Promise<boolean> {
    const head = this.snapshots.get(id)
    if (head === undefined) return false
    for (const [k] of this.snapshots) if (BigInt(k) >= BigInt(id)) this.snapshots.delete(k)
    await this.idle()
    const moved = await this.engine.forkchoiceUpdated({ headBlockHash: head, safeBlockHash: head, finalizedBlockHash: head }, null, 3)
    if (moved.payloadStatus.status !== 'VALID') throw new Error(`revert to ${head} failed: ${moved.payloadStatus.status}`)
    // What was undone is pooled again before the answer: a transaction sent next gets the nonce after it.
    await this.engine.repooled()
    return true
  }

  async produce(): Promise<string> {
    const head = this.chain.head()
    const headTime = HeaderView.read(this.store, head.hash)!.timestamp
    const now = BigInt(Math.floor(Date.now() / 1000))
    const timestamp = this.nextTimestamp ?? (now > headTime ? now : headTime + 1n)
    this.nextTimestamp = undefined
    const attrs = {
      timestamp: toQuantity(timestamp),
      prevRandao: bytesToHex(randomBytes(32)),
      suggestedFeeRecipient: `0x${'00'.repeat(20)}`,
      withdrawals: [],
      parentBeaconBlockRoot: ZERO32,
    }
    const block = await this.engine.makeHead(attrs, this.spec.isActive('osaka', head.number + 1n, timestamp) ? 5 : 4)
    const made = { number: Number(block.number), hash: block.hash, txs: block.txs }
    // After the sends waiting for the block are answered: the line's write to a terminal or a pipe wakes the process
    // reading it, ~0.1 ms on a busy machine that the answers need not wait for.
    setImmediate(() => this.log.info('dev block', made))
    return block.hash
  }
}
