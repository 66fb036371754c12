import type { ChainSpec } from '../chain/spec.js'
import type { ForkName } from '../chain/forks.js'
import type { BuiltPayload } from '../exec/builder.js'
import type { PayloadStatus } from '../exec/payloadImport.js'
import type { ExecutionPayloadV3, PayloadAttributesAny } from '../rpc/wire/engineParams.js'
import type { ChainReader } from '../store/chainReader.js'
import type { ChainStore } from '../store/chainStore.js'
import { HeaderView } from '../store/headerView.js'
import type { Logger } from '../node/logger.js'
import type { TxSubmission } from '../txpool/txSubmission.js'
import { hexToBytes } from '../util/hex.js'
import type { WorkerPool } from '../workers/pool.js'
import { EngineError } from './errors.js'
import { type ForkchoiceState, applyForkchoice } from './forkchoice.js'
import { type PayloadBuilds, envelopeOf } from './payloadBuilds.js'
import { payloadIdOf } from './payloadId.js'
import { checkExecutionRequests } from './requests.js'

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

  constructor(
    private readonly spec: ChainSpec,
    private readonly store: ChainStore,
    private readonly chain: ChainReader,
    private readonly lane: WorkerPool,
    private readonly builds: PayloadBuilds,
    private readonly txs: TxSubmission,
    private readonly log: Logger,
  ) {}

  /** The fork a block with this number and timestamp belongs to. */
  forkAt(number: bigint, timestamp: bigint): ForkName | 'frontier' {
    return this.spec.forkAt(number, timestamp)
  }

  private isActive(fork: ForkName, number: bigint, timestamp: bigint): boolean {
    return this.spec.isActive(fork, number, timestamp)
  }

  /** engine_newPayloadV4 (prague.md): Prague and later (Osaka and the BPO forks keep V4). */
  async newPayloadV4(
    payload: ExecutionPayloadV3,
    versionedHashes: string[],
    parentBeaconBlockRoot: string,
    executionRequests: string[],
  ): Promise<PayloadStatus> {
    const reason = checkExecutionRequests(executionRequests.map(hexToBytes))
    if (reason !== undefined) throw new EngineError('invalidParams', reason)
    if (!this.isActive('prague', BigInt(payload.blockNumber), BigInt(payload.timestamp))) {
      throw new EngineError('unsupportedFork', 'Unsupported fork')
    }
    const started = performance.now()
    const status = await this.lane.run({
      op: 'newPayload',
      input: { payload, versionedHashes, parentBeaconBlockRoot, executionRequests },
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
    if (status.status === 'INVALID') this.log.warn('invalid block', { ...facts, reason: status.validationError })
    else this.log.info('validated block', facts)
    return status
  }

  /** engine_forkchoiceUpdatedV3 (cancun.md): moves the labels, then starts a build when attributes are given. */
  async forkchoiceUpdated(state: ForkchoiceState, attrs: PayloadAttributesAny | null | undefined, version: 3): Promise<ForkchoiceResult> {
    // A worker may have stored the head moments ago (newPayload through the other endpoint, or a build).
    this.store.refreshSnapshot()
    const outcome = applyForkchoice(this.store, state)
    if (outcome.status === 'SYNCING') {
      return { payloadStatus: { status: 'SYNCING', latestValidHash: null, validationError: null }, payloadId: null }
    }
    if (outcome.status === 'INVALID') {
      return {
        payloadStatus: { status: 'INVALID', latestValidHash: outcome.latestValidHash, validationError: outcome.validationError },
        payloadId: null,
      }
    }
    this.txs.afterForkchoice(outcome.added, outcome.removed)
    const payloadStatus: PayloadStatus = { status: 'VALID', latestValidHash: state.headBlockHash, validationError: null }
    if (attrs === undefined || attrs === null) return { payloadStatus, payloadId: null }
    if (attrs.withdrawals === undefined || attrs.parentBeaconBlockRoot === undefined) {
      throw new EngineError('invalidParams', 'payload attributes V3 need withdrawals and parentBeaconBlockRoot')
    }
    const head = this.chain.byHash(hexToBytes(state.headBlockHash))!
    const headTime = HeaderView.read(this.store, head.hash)!.timestamp
    const timestamp = BigInt(attrs.timestamp)
    if (timestamp <= headTime) {
      throw new EngineError('invalidPayloadAttributes', `timestamp ${timestamp} is not after the head's ${headTime}`)
    }
    if (!this.isActive('cancun', head.number + 1n, timestamp)) throw new EngineError('unsupportedFork', 'Unsupported fork')
    const payloadId = payloadIdOf(state.headBlockHash, attrs as unknown as Record<string, unknown>, version)
    this.builds.start(payloadId, state.headBlockHash, {
      timestamp: attrs.timestamp,
      prevRandao: attrs.prevRandao,
      suggestedFeeRecipient: attrs.suggestedFeeRecipient,
      withdrawals: attrs.withdrawals,
      parentBeaconBlockRoot: attrs.parentBeaconBlockRoot,
    })
    return { payloadStatus, payloadId }
  }

  /**
   * engine_getPayloadV1/V4/V5: the payload built for the id. The method version must match the payload's fork:
   * V1 before Shanghai, V4 for Prague, V5 from Osaka on.
   */
  async getPayload(id: string, version: 1 | 4 | 5): Promise<Record<string, unknown>> {
    const pending = this.builds.get(id)
    if (pending === undefined) throw new EngineError('unknownPayload', 'Unknown payload')
    let built: BuiltPayload
    try {
      built = await pending
    } catch (e) {
      this.log.warn('payload build failed', { payloadId: id, error: (e as Error).message })
      throw new EngineError('unknownPayload', 'Unknown payload')
    }
    const number = BigInt(built.blockNumber)
    const time = BigInt(built.timestamp)
    const fits =
      version === 1
        ? !this.isActive('shanghai', number, time)
        : version === 4
          ? this.isActive('prague', number, time) && !this.isActive('osaka', number, time)
          : this.isActive('osaka', number, time)
    if (!fits) throw new EngineError('unsupportedFork', 'Unsupported fork')
    if (version === 1) {
      const { withdrawals: _w, blobGasUsed: _b, excessBlobGas: _e, ...v1 } = built.executionPayload
      return v1
    }
    return envelopeOf(built)
  }
}
