import type { ChainSpec } from '../chain/spec.js'
import type { BuiltPayload } from './worker/payloadBuilder.js'
import type { PayloadStatus } from './worker/payloadImport.js'
import type { PayloadData } from './worker/payloadBlock.js'
import { createSenderSlots, putKnownSenders } from '../exec/senderRecovery.js'
import type { ExecutionPayload, PayloadAttributesAny } from '../wire/engineParams.js'
import type { ChainReader } from '../store/chainReader.js'
import type { BlockRecord, ChainStore } from '../store/chainStore.js'
import { StoreWriteError } from '../store/errors.js'
import { HeaderView } from '../store/headerView.js'
import { StoreWriteWatch } from '../store/writeFailure.js'
import type { Logger } from '../util/logger.js'
import type { TxSubmission } from '../txpool/txSubmission.js'
import type { TxPool } from '../txpool/txPool.js'
import { bytesToHex, hexToBytes } from '../util/hex.js'

/** engine_getBlobsV1/V2 must serve at least 128 hashes; more is -38004. */
const MAX_BLOBS_REQUEST = 128
import { ENGINE_CLIENT, type WorkerPool } from '../workers/pool.js'
import { EngineError } from './errors.js'
import { type ForkchoiceState, applyForkchoice } from './forkchoice.js'
import { type BuildAttributes, type PayloadBuilds, envelopeOf } from './payloadBuilds.js'
import {
  type ForkchoiceVersion,
  type GetPayloadVersion,
  type NewPayloadVersion,
  checkAttributes,
  checkNewPayload,
  getPayloadFits,
  payloadOfFork,
} from './payloadVersions.js'
import { payloadIdOf } from './payloadId.js'
import { checkExecutionRequests } from '../exec/requests.js'

/** Below this many transactions a payload's senders are recovered by the engine worker alone (a hop costs ~50 µs). */
const MIN_SHARED_RECOVERY = 64

export interface ForkchoiceResult {
  payloadStatus: PayloadStatus
  payloadId: string | null
}

/**
 * The Engine API on the serving thread: newPayload (executed in the engine lane), forkchoiceUpdated (moves the
 * chain labels here, starts builds) and getPayload. Building lives in PayloadBuilds, the pool's side of a head
 * change in TxSubmission.
 */
export class EngineService {
  /** Observer of every newPayload (metrics): its status, time and gas. */
  onValidated: ((status: string, seconds: number, gasUsed: bigint) => void) | undefined
  /** Observer of every canonical chain change (subscriptions): blocks that joined (ascending) and that left. */
  onCanonicalChange: ((added: Uint8Array[], removed: Uint8Array[]) => void) | undefined
  /**
   * Around every forkchoice write, whatever it comes to (a head, safe or finalized block moved, or nothing written):
   * `onForkchoiceWriting` before it begins, `onForkchoiceWritten` once it has ended, before onCanonicalChange.
   */
  onForkchoiceWriting: (() => void) | undefined
  onForkchoiceWritten: (() => void) | undefined
  /** The last forkchoice's undone transactions, back in the pool (or refused) once this resolves. */
  private repooling: Promise<void> = Promise.resolve()
  /** Every write the Engine API asks for goes through here: failures reach the log once per run of them. */
  private readonly writes: StoreWriteWatch

  constructor(
    private readonly spec: ChainSpec,
    private readonly store: ChainStore,
    private readonly chain: ChainReader,
    private readonly lane: WorkerPool,
    private readonly builds: PayloadBuilds,
    private readonly txs: TxSubmission,
    private readonly txPool: TxPool,
    private readonly log: Logger,
    /** The public lane, whose idle workers recover a payload's senders alongside the engine worker. */
    private readonly helpers?: WorkerPool,
  ) {
    this.writes = new StoreWriteWatch(log)
  }

  /** A failed write is the caller's error to answer and the operator's to hear (once); anything else passes. */
  private writeFailed(e: unknown): void {
    if (e instanceof StoreWriteError) this.writes.failed(e)
  }

  /** Resolves when the transactions of blocks the last forkchoice undid are back in the pool (evm_revert waits). */
  repooled(): Promise<void> {
    return this.repooling
  }

  /**
   * engine_getBlobsV1 (cancun.md; -38005 once Osaka is active): sidecars of pooled blob transactions by versioned
   * hash, null per missing blob, with their blob proofs.
   */
  getBlobsV1(hashes: string[]): (object | null)[] {
    const head = this.blobsHead(hashes)
    if (head.osaka || !head.cancun) throw new EngineError('unsupportedFork', 'Unsupported fork')
    return hashes.map((h) => {
      const b = this.txPool.blob(h)
      return b === undefined || b.cellProofs ? null : { blob: bytesToHex(b.blob), proof: bytesToHex(b.proofs[0]!) }
    })
  }

  /**
   * engine_getBlobsV2 (osaka.md): the same with each blob's cell proofs; null as a whole when any blob is missing or
   * has no cell proofs (and before Osaka). A blob whose version-0 sidecar is being given its cell proofs
   * (txpool/txSubmission.ts) is answered once it has them.
   */
  async getBlobsV2(hashes: string[]): Promise<object[] | null> {
    if (!this.blobsHead(hashes).osaka) return null
    await this.txPool.blobsWithCellProofs(hashes)
    const found = hashes.map((h) => this.txPool.blob(h))
    if (found.some((b) => b === undefined || !b.cellProofs)) return null
    return found.map((b) => ({ blob: bytesToHex(b!.blob), proofs: b!.proofs.map((p) => bytesToHex(p)) }))
  }

  /** getBlobs' request bound (-38004), and the forks active at the head. */
  private blobsHead(hashes: string[]): { cancun: boolean; osaka: boolean } {
    if (hashes.length > MAX_BLOBS_REQUEST) throw new EngineError('tooLargeRequest', `requested ${hashes.length} blobs, limit ${MAX_BLOBS_REQUEST}`)
    const head = this.chain.headHeader()
    return { cancun: this.spec.isActive('cancun', head.number, head.timestamp), osaka: this.spec.isActive('osaka', head.number, head.timestamp) }
  }

  /**
   * engine_newPayloadV1…V4: the payload's members and fork are checked against the version (payloadVersions.ts),
   * then the block is rebuilt, hashed, executed and stored in the engine lane.
   */
  async newPayload(
    version: NewPayloadVersion,
    payload: ExecutionPayload,
    extras: { versionedHashes?: string[]; parentBeaconBlockRoot?: string; executionRequests?: string[] } = {},
  ): Promise<PayloadStatus> {
    const checked = checkNewPayload(this.spec, version, payload)
    if (extras.executionRequests !== undefined) {
      const reason = checkExecutionRequests(extras.executionRequests.map(hexToBytes))
      if (reason !== undefined) throw new EngineError('invalidParams', reason)
    }
    const started = performance.now()
    const senders = this.recoverSendersAlongside(checked)
    const status = await this.lane
      .run({
        op: 'newPayload',
        input: { version, payload: checked, ...extras, ...(senders === undefined ? {} : { senders }) },
      })
      .catch((e: unknown) => {
        this.writeFailed(e)
        throw e
      })
    const seconds = (performance.now() - started) / 1000
    // The worker committed; without this the serving thread may keep reading its older snapshot for a while.
    this.store.refreshSnapshot()
    this.onValidated?.(status.status, seconds, BigInt(payload.gasUsed))
    const facts = {
      number: Number(BigInt(payload.blockNumber)),
      hash: payload.blockHash,
      status: status.status,
      txs: payload.transactions.length,
      gasUsed: Number(BigInt(payload.gasUsed)),
      ms: Number((seconds * 1000).toFixed(1)),
    }
    if (status.status === 'INVALID' || status.status === 'INVALID_BLOCK_HASH') {
      this.log.warn('invalid block', { ...facts, reason: status.validationError })
    } else {
      this.log.info('validated block', facts)
    }
    return status
  }

  /**
   * The payload's senders, found ahead of execution in memory shared with the engine worker (senderRecovery.ts): the
   * public keys of transactions the pool holds (recovered when they were admitted), and a public worker recovering
   * the rest, claiming chunks alongside the engine worker — only when the public lane would admit it; the engine
   * never waits for the public lane: it recovers whatever the helper has not claimed.
   */
  private recoverSendersAlongside(payload: PayloadData): SharedArrayBuffer | undefined {
    const n = payload.transactions.length
    const helper = this.helpers !== undefined && n >= MIN_SHARED_RECOVERY && this.helpers.admits(1) === 1 ? this.helpers : undefined
    if (n === 0 || (helper === undefined && this.txPool.size === 0)) return undefined
    const slots = createSenderSlots(n)
    if (this.txPool.size > 0) putKnownSenders(slots, payload.transactions, (hash) => this.txPool.get(hash)?.senderKey)
    if (helper !== undefined) {
      const task = {
        op: 'recoverSenders',
        slots,
        transactions: payload.transactions,
        number: payload.blockNumber,
        timestamp: payload.timestamp,
      } as const
      // As the engine's work: the public lane is held while this engine call is answered (node.ts), and would send
      // the task only once every chunk had been claimed.
      helper.runAs(ENGINE_CLIENT, task).catch((e: unknown) => this.log.debug('sender recovery helper failed', { error: String(e) }))
    }
    return slots
  }

  /** engine_newPayloadV4, as the dev driver calls it. */
  newPayloadV4(
    payload: ExecutionPayload,
    versionedHashes: string[],
    parentBeaconBlockRoot: string,
    executionRequests: string[],
  ): Promise<PayloadStatus> {
    return this.newPayload(4, payload, { versionedHashes, parentBeaconBlockRoot, executionRequests })
  }

  /**
   * engine_forkchoiceUpdatedV1…V3 (paris.md, shanghai.md, cancun.md): moves the labels, then, when attributes are
   * given, checks them against the version (after the labels moved, as the spec orders it) and starts a build.
   */
  async forkchoiceUpdated(
    state: ForkchoiceState,
    attrs: PayloadAttributesAny | null | undefined,
    version: ForkchoiceVersion,
  ): Promise<ForkchoiceResult> {
    const payloadStatus = this.moveLabels(state)
    if (payloadStatus.status !== 'VALID' || attrs === undefined || attrs === null) return { payloadStatus, payloadId: null }
    const head = this.chain.byHash(hexToBytes(state.headBlockHash))!
    checkAttributes(this.spec, version, head.number + 1n, attrs)
    const headTime = HeaderView.read(this.store, head.hash)!.timestamp
    const timestamp = BigInt(attrs.timestamp)
    if (timestamp <= headTime) {
      throw new EngineError('invalidPayloadAttributes', `timestamp ${timestamp} is not after the head's ${headTime}`)
    }
    const payloadId = payloadIdOf(state.headBlockHash, attrs as unknown as Record<string, unknown>, version)
    this.builds.start(
      payloadId,
      state.headBlockHash,
      {
        timestamp: attrs.timestamp,
        prevRandao: attrs.prevRandao,
        suggestedFeeRecipient: attrs.suggestedFeeRecipient,
        withdrawals: attrs.withdrawals ?? undefined,
        parentBeaconBlockRoot: attrs.parentBeaconBlockRoot ?? undefined,
      },
      version,
    )
    return { payloadStatus, payloadId }
  }

  /**
   * Moves the labels (and stores `newBlock`, built here, in the same transaction when it is the head), then tells
   * the pool and the subscribers.
   */
  private moveLabels(state: ForkchoiceState, newBlock?: BlockRecord): PayloadStatus {
    // A worker may have stored the head moments ago (newPayload through the other endpoint, or a build).
    this.store.refreshSnapshot()
    let outcome: ReturnType<typeof applyForkchoice>
    this.onForkchoiceWriting?.()
    try {
      outcome = applyForkchoice(this.store, state, newBlock)
    } catch (e) {
      this.writeFailed(e)
      throw e
    } finally {
      this.onForkchoiceWritten?.()
    }
    if (outcome.status === 'SYNCING') return { status: 'SYNCING', latestValidHash: null, validationError: null }
    if (outcome.status === 'INVALID') {
      return { status: 'INVALID', latestValidHash: outcome.latestValidHash, validationError: outcome.validationError }
    }
    if (outcome.wrote) this.writes.succeeded()
    this.repooling = this.txs.afterForkchoice(outcome.added, outcome.removed)
    if (outcome.added.length > 0 || outcome.removed.length > 0) this.onCanonicalChange?.(outcome.added, outcome.removed)
    return { status: 'VALID', latestValidHash: state.headBlockHash, validationError: null }
  }

  /**
   * Dev mode's block: built on the head with the pool's pending transactions, then made the head, safe and
   * finalized. Built on this thread (dev mode without a period), the block is stored by the forkchoice's write: one
   * commit a block, done before any send waiting for the block is answered. Otherwise as a consensus client makes
   * one: forkchoiceUpdated with attributes, getPayload (the engine worker builds and stores it), forkchoiceUpdated.
   */
  async makeHead(attrs: BuildAttributes, version: 4 | 5): Promise<{ hash: string; number: bigint; txs: number }> {
    const parent = bytesToHex(this.chain.head().hash)
    const unstored = this.builds.buildUnstored(parent, attrs)
    if (unstored !== undefined) {
      const block = await unstored
      const hash = bytesToHex(block.record.hash)
      const moved = this.moveLabels({ headBlockHash: hash, safeBlockHash: hash, finalizedBlockHash: hash }, block.record)
      if (moved.status !== 'VALID') throw new Error(`own block ${hash} not made head: ${moved.status}`)
      block.stored()
      return { hash, number: block.record.number, txs: block.record.txHashes.length }
    }
    const fc = { headBlockHash: parent, safeBlockHash: parent, finalizedBlockHash: parent }
    const started = await this.forkchoiceUpdated(fc, attrs, 3)
    if (started.payloadId === null) throw new Error(`forkchoiceUpdated started no build: ${started.payloadStatus.status}`)
    const built = (await this.getPayload(started.payloadId, version)) as { executionPayload: ExecutionPayload }
    // The build stored the block (engine_newPayload of it would find it stored and only re-derive its hash, one more
    // hop to the engine worker a block): forkchoice makes it head.
    const payload = built.executionPayload
    const hash = payload.blockHash
    const moved = await this.forkchoiceUpdated({ headBlockHash: hash, safeBlockHash: hash, finalizedBlockHash: hash }, null, 3)
    if (moved.payloadStatus.status !== 'VALID') throw new Error(`own block ${hash} not made head: ${moved.payloadStatus.status}`)
    return { hash, number: BigInt(payload.blockNumber), txs: payload.transactions.length }
  }

  /**
   * engine_getPayloadV1…V5: the payload built for the id, if this version serves the forkchoiceUpdated version that
   * started it and the payload's fork (-38005 otherwise); shaped as the version returns it.
   */
  async getPayload(id: string, version: GetPayloadVersion): Promise<Record<string, unknown>> {
    const entry = this.builds.get(id)
    if (entry === undefined) throw new EngineError('unknownPayload', 'Unknown payload')
    let built: BuiltPayload
    try {
      built = await entry.build
    } catch (e) {
      // The build ran but its block could not be stored: that, not an unknown payload, is the answer.
      if (e instanceof StoreWriteError) {
        this.writeFailed(e)
        throw e
      }
      this.log.warn('payload build failed', { payloadId: id, error: (e as Error).message })
      throw new EngineError('unknownPayload', 'Unknown payload')
    }
    // The build stored its block.
    this.writes.succeeded()
    const number = BigInt(built.blockNumber)
    const time = BigInt(built.timestamp)
    if (!getPayloadFits(this.spec, version, entry.version, number, time)) throw new EngineError('unsupportedFork', 'Unsupported fork')
    const payload = payloadOfFork(this.spec, built.executionPayload, number, time)
    switch (version) {
      case 1:
        return payload
      case 2:
        return { executionPayload: payload, blockValue: built.blockValue }
      case 3:
        return { executionPayload: payload, blockValue: built.blockValue, blobsBundle: built.blobsBundle, shouldOverrideBuilder: false }
      default:
        return envelopeOf(built)
    }
  }
}
