import { HeaderView } from '../store/headerView.js'
import { createHash, randomBytes } from 'node:crypto'
import type { ChainSpec } from '../chain/spec.js'
import type { EngineService } from '../engine/engineService.js'
import type { ExecutionPayload } from '../wire/engineParams.js'
import type { ChainReader } from '../store/chainReader.js'
import type { ChainStore } from '../store/chainStore.js'
import { StoreWriteError } from '../store/errors.js'
import type { TxPool } from '../txpool/txPool.js'
import type { Logger } from '../util/logger.js'
import { bytesToHex, hexToBytes, toQuantity } from '../util/hex.js'
import { DevChainError } from './errors.js'

const ZERO32 = `0x${'00'.repeat(32)}`

/**
 * Dev mode's consensus stand-in: makes blocks through the node's own Engine API path — forkchoiceUpdated with
 * attributes, getPayload, newPayload, forkchoiceUpdated — on every newly pending transaction, or every `periodSeconds`.
 */
export class DevDriver {
  private running: Promise<void> | undefined
  private again = false
  private timer: NodeJS.Timeout | undefined
  private stopped = false
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
  ) {
    this.minesOnDemand = !(periodSeconds !== undefined && periodSeconds > 0)
    if (periodSeconds !== undefined && periodSeconds > 0) {
      this.timer = setInterval(() => this.trigger(), periodSeconds * 1000)
    } else {
      txPool.onPending(() => this.trigger())
    }
  }

  stop(): void {
    this.stopped = true
    if (this.timer !== undefined) clearInterval(this.timer)
  }

  /**
   * Settles once the transaction `txHash`, pooled just before, has had its block: the block being made when it
   * arrived may have read the pool before it, the one its arrival triggered (`again`) did not. At most two blocks, so
   * a steady stream of transactions cannot keep a sender waiting. If it is not in the chain then because the last
   * block failed (its block could not be stored: a full disk), the send fails with that error and the transaction
   * leaves the pool: a send is acknowledged only when its block exists, and a refused one must not be mined later
   * behind the client's back.
   */
  async afterNextBlock(txHash: string): Promise<void> {
    let waited = false
    for (let i = 0; i < 2 && this.running !== undefined; i++) {
      waited = true
      await this.running
    }
    // No block was made for it (queued behind a nonce gap): an earlier block's failure is not its answer.
    const failure = waited ? this.failure : undefined
    if (failure === undefined || this.store.getTxLocation(hexToBytes(txHash)) !== undefined) return
    this.txPool.drop(txHash)
    throw failure
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
    this.running = this.produce()
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
      .finally(() => {
        this.running = undefined
        if (this.again && !this.stopped) {
          this.again = false
          this.trigger()
        }
      })
  }

  /** evm_setNextBlockTimestamp: the next block's timestamp (once). */
  private nextTimestamp: bigint | undefined
  /** evm_snapshot ids (hex counters) and the heads they saved. */
  private readonly snapshots = new Map<string, string>()
  private snapshotCount = 0

  setNextTimestamp(timestamp: bigint): void {
    const headTime = HeaderView.read(this.store, this.chain.head().hash)!.timestamp
    if (timestamp <= headTime) throw new DevChainError(`timestamp ${timestamp} is not after the head's ${headTime}`)
    this.nextTimestamp = timestamp
  }

  /** evm_mine: a block now, with whatever the pool holds (possibly none), after any block in the making. */
  async mine(): Promise<string> {
    await this.idle()
    const made = this.produce()
    this.running = made.then(
      () => {},
      () => {},
    )
    try {
      return await made
    } finally {
      this.running = undefined
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
    const headHex = bytesToHex(head.hash)
    const headTime = HeaderView.read(this.store, head.hash)!.timestamp
    const now = BigInt(Math.floor(Date.now() / 1000))
    const timestamp = this.nextTimestamp ?? (now > headTime ? now : headTime + 1n)
    this.nextTimestamp = undefined
    const fc = { headBlockHash: headHex, safeBlockHash: headHex, finalizedBlockHash: headHex }
    const started = await this.engine.forkchoiceUpdated(
      fc,
      {
        timestamp: toQuantity(timestamp),
        prevRandao: bytesToHex(randomBytes(32)),
        suggestedFeeRecipient: `0x${'00'.repeat(20)}`,
        withdrawals: [],
        parentBeaconBlockRoot: ZERO32,
      },
      3,
    )
    if (started.payloadId === null) throw new Error(`forkchoiceUpdated started no build: ${started.payloadStatus.status}`)
    const version = this.spec.isActive('osaka', head.number + 1n, timestamp) ? 5 : 4
    const built = (await this.engine.getPayload(started.payloadId, version)) as {
      executionPayload: ExecutionPayload
      blobsBundle: { commitments: string[] }
      executionRequests: string[]
    }
    const payload = built.executionPayload
    const hashes = blobHashesOf(built.blobsBundle.commitments)
    const status = await this.engine.newPayloadV4(payload, hashes, ZERO32, built.executionRequests)
    if (status.status !== 'VALID') throw new Error(`own payload not valid: ${status.validationError ?? status.status}`)
    const next = { headBlockHash: payload.blockHash, safeBlockHash: payload.blockHash, finalizedBlockHash: payload.blockHash }
    const moved = await this.engine.forkchoiceUpdated(next, null, 3)
    if (moved.payloadStatus.status !== 'VALID') {
      throw new Error(`own block ${payload.blockHash} not made head: ${moved.payloadStatus.status}`)
    }
    this.log.info('dev block', { number: Number(BigInt(payload.blockNumber)), hash: payload.blockHash, txs: payload.transactions.length })
    return payload.blockHash
  }
}

/** EIP-4844 versioned hashes of the commitments: 0x01 ‖ sha256(commitment)[1:]. */
function blobHashesOf(commitments: string[]): string[] {
  return commitments.map((c) => {
    const d = createHash('sha256')
      .update(Buffer.from(c.slice(2), 'hex'))
      .digest()
    d[0] = 1
    return bytesToHex(d)
  })
}
