import type { ChainSpec } from '../chain/spec.js'
import type { BuildInput, BuiltPayload, UnstoredBlock } from './worker/payloadBuilder.js'
import type { ChainReader } from '../store/chainReader.js'
import type { ChainStore } from '../store/chainStore.js'
import { HeaderView } from '../store/headerView.js'
import type { TxPool } from '../txpool/txPool.js'
import { hexToBytes, toQuantity } from '../util/hex.js'
import type { Lanes } from '../workers/pool.js'
import { type BuildEntry, BuildTable } from './payloadBuildTable.js'
import { EngineError } from './errors.js'

export interface BuildOptions {
  gasLimitTarget: bigint
  extraData: string
  /**
   * Builds the payloads forkchoiceUpdated starts on this thread instead of in the engine lane: dev mode, where each
   * send waits for its block, and the hand-offs to the engine worker and back cost more than building a block of a
   * few transactions.
   */
  buildHere?: (input: BuildInput) => Promise<BuiltPayload>
  /** With buildHere: builds dev mode's own block here without storing it (EngineService.makeHead stores it). */
  buildUnstoredHere?: (input: BuildInput) => Promise<UnstoredBlock>
  /** Dev mode: the builds forkchoiceUpdated starts are the node's own, their blobs bundles unread (BuildInput.bundleUnread). */
  bundleUnread?: boolean
}

const ZERO32 = `0x${'00'.repeat(32)}`

/** getPayloadV4/V5's and testing_buildBlockV1's result around a built payload. */
export function envelopeOf(built: BuiltPayload): Record<string, unknown> {
  return {
    executionPayload: built.executionPayload,
    blockValue: built.blockValue,
    blobsBundle: built.blobsBundle,
    executionRequests: built.executionRequests,
    shouldOverrideBuilder: false,
  }
}

/** Attributes of a build as forkchoiceUpdated receives them (V3: withdrawals and beacon root present). */
export interface BuildAttributes {
  timestamp: string
  prevRandao: string
  suggestedFeeRecipient: string
  withdrawals: BuildInput['withdrawals']
  parentBeaconBlockRoot: string | undefined
}

/**
 * Payload building: builds the consensus client starts through forkchoiceUpdated (engine lane, kept by payload id
 * for getPayload) and testing_buildBlockV1's one-off builds (public lane, nothing stored).
 */
export class PayloadBuilds {
  private readonly table = new BuildTable()

  constructor(
    private readonly spec: ChainSpec,
    private readonly store: ChainStore,
    private readonly chain: ChainReader,
    private readonly lanes: Lanes,
    private readonly txPool: TxPool,
    private readonly opts: BuildOptions,
  ) {}

  /** Starts building on `parentHash` unless a build of this id exists. */
  start(payloadId: string, parentHash: string, attrs: BuildAttributes, version: BuildEntry['version']): void {
    if (this.table.has(payloadId)) return
    this.table.set(payloadId, this.build(this.ownInput(parentHash, attrs)), version)
  }

  /** Dev mode's block built here on `parentHash`, not stored; undefined where builds are not made here. */
  buildUnstored(parentHash: string, attrs: BuildAttributes): Promise<UnstoredBlock> | undefined {
    return this.opts.buildUnstoredHere?.(this.ownInput(parentHash, attrs))
  }

  /** A build of the pool's pending transactions on `parentHash`, to be stored. */
  private ownInput(parentHash: string, attrs: BuildAttributes): BuildInput {
    return {
      parentHash,
      timestamp: attrs.timestamp,
      prevRandao: attrs.prevRandao,
      feeRecipient: attrs.suggestedFeeRecipient,
      withdrawals: attrs.withdrawals,
      parentBeaconBlockRoot: attrs.parentBeaconBlockRoot,
      ...this.poolTransactions(hexToBytes(parentHash)),
      mode: 'best',
      extraData: this.opts.extraData,
      gasLimitTarget: toQuantity(this.opts.gasLimitTarget),
      persist: true,
      ...(this.opts.bundleUnread === true ? { bundleUnread: true } : {}),
    }
  }

  /** The build of a payload id (settles when it is built), or undefined when none is known. */
  get(payloadId: string): BuildEntry | undefined {
    return this.table.get(payloadId)
  }

  /** Builds for the consensus client run in the engine lane (or here: buildHere); testing_buildBlockV1 is public work. */
  private async build(input: BuildInput): Promise<BuiltPayload> {
    const lane = input.persist ? this.lanes.engine : this.lanes.public
    const here = input.persist ? this.opts.buildHere : undefined
    const built = here === undefined ? await lane.run({ op: 'build', input }) : await here(input)
    // The block is stored: this thread must see it at once (getPayload, then newPayload of it).
    if (input.persist) this.store.refreshSnapshot()
    return built
  }

  /**
   * The pool's pending transactions, best first, at the base fee the next block will have (approximately), and their
   * senders as recovered at admission.
   */
  private poolTransactions(parentHash: Uint8Array): Pick<BuildInput, 'transactions' | 'senders'> {
    const pending = this.txPool.pending(HeaderView.read(this.store, parentHash)!.baseFee)
    return { transactions: pending.map((t) => t.raw), senders: pending.map((t) => hexToBytes(t.sender)) }
  }

  /** testing_buildBlockV1: builds on any stored parent without storing or changing anything. */
  async forTesting(
    parentHash: string,
    attrs: Partial<Omit<BuildAttributes, 'parentBeaconBlockRoot'>> & { parentBeaconBlockRoot?: string },
    transactions: string[] | null,
    extraData: string | null | undefined,
  ): Promise<Record<string, unknown>> {
    const parent = this.chain.byHash(hexToBytes(parentHash))
    if (parent === undefined) throw new EngineError('invalidParams', `unknown parent block ${parentHash}`)
    if (extraData !== undefined && extraData !== null && extraData.length > 66) {
      throw new EngineError('invalidParams', 'extraData longer than 32 bytes')
    }
    const parentTime = HeaderView.read(this.store, parent.hash)!.timestamp
    const timestamp = attrs.timestamp ?? toQuantity(parentTime + 12n)
    if (BigInt(timestamp) <= parentTime) throw new EngineError('invalidParams', "timestamp must be after the parent's")
    const number = parent.number + 1n
    const time = BigInt(timestamp)
    const built = await this.build({
      parentHash,
      timestamp,
      prevRandao: attrs.prevRandao ?? ZERO32,
      feeRecipient: attrs.suggestedFeeRecipient ?? `0x${'00'.repeat(20)}`,
      withdrawals: attrs.withdrawals ?? (this.spec.isActive('shanghai', number, time) ? [] : undefined),
      parentBeaconBlockRoot: attrs.parentBeaconBlockRoot ?? (this.spec.isActive('cancun', number, time) ? ZERO32 : undefined),
      ...(transactions === null ? this.poolTransactions(parent.hash) : { transactions: transactions.map(hexToBytes) }),
      mode: transactions === null ? 'best' : 'exact',
      extraData: extraData ?? this.opts.extraData,
      gasLimitTarget: toQuantity(this.opts.gasLimitTarget),
      persist: false,
    })
    return envelopeOf(built)
  }
}
