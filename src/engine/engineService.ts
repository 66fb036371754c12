import { RLP } from '@ethereumjs/rlp'
import type { ChainSpec } from '../chain/spec.js'
import type { BuildInput, BuiltPayload } from '../exec/builder.js'
import type { PayloadStatus } from '../exec/payloadImport.js'
import type { ForkName } from '../chain/forks.js'
import { EngineError } from './errors.js'
import type { ExecutionPayloadV3, PayloadAttributesAny } from '../rpc/wire/engineParams.js'
import type { ChainReader } from '../store/chainReader.js'
import type { ChainStore } from '../store/chainStore.js'
import type { TxPool } from '../txpool/txPool.js'
import { bytesToHex, hexToBytes, toQuantity } from '../util/hex.js'
import type { Lanes } from '../workers/pool.js'
import { BuildTable } from './buildTable.js'
import { type ForkchoiceState, applyForkchoice } from './forkchoice.js'
import { payloadIdOf } from './payloadId.js'
import { checkExecutionRequests } from './requests.js'

export interface ForkchoiceResult {
  payloadStatus: PayloadStatus
  payloadId: string | null
}

export interface EngineOptions {
  gasLimitTarget: bigint
  extraData: string
  log: (line: string) => void
}

const ZERO32 = `0x${'00'.repeat(32)}`

/** getPayloadV4/V5's and testing_buildBlockV1's result around a built payload. */
function envelopeOf(built: BuiltPayload): Record<string, unknown> {
  return {
    executionPayload: built.executionPayload,
    blockValue: built.blockValue,
    blobsBundle: built.blobsBundle,
    executionRequests: built.executionRequests,
    shouldOverrideBuilder: false,
  }
}

/**
 * The Engine API's logic on the serving thread: it owns forkchoice (the chain labels), the table of payload builds
 * and the pool's view of the chain; execution and building go to the worker pool.
 */
export class EngineService {
  private readonly builds = new BuildTable()

  constructor(
    private readonly spec: ChainSpec,
    private readonly store: ChainStore,
    private readonly chain: ChainReader,
    private readonly lanes: Lanes,
    private readonly txPool: TxPool,
    private readonly opts: EngineOptions,
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
    if (!this.isActive('prague', BigInt(payload.blockNumber), BigInt(payload.timestamp))) throw new EngineError('unsupportedFork', 'Unsupported fork')
    const status = await this.lanes.engine.run({
      op: 'newPayload',
      input: { payload, versionedHashes, parentBeaconBlockRoot, executionRequests },
    })
    // The worker committed; without this the serving thread may keep reading its older snapshot for a while.
    this.store.refreshSnapshot()
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
    this.updatePool(outcome.added, outcome.removed)
    const payloadStatus: PayloadStatus = { status: 'VALID', latestValidHash: state.headBlockHash, validationError: null }
    if (attrs === undefined || attrs === null) return { payloadStatus, payloadId: null }
    if (attrs.withdrawals === undefined || attrs.parentBeaconBlockRoot === undefined) {
      throw new EngineError('invalidParams', 'payload attributes V3 need withdrawals and parentBeaconBlockRoot')
    }
    const head = this.chain.byHash(hexToBytes(state.headBlockHash))!
    const headTime = this.headerTime(head.hash)
    const timestamp = BigInt(attrs.timestamp)
    if (timestamp <= headTime) {
      throw new EngineError('invalidPayloadAttributes', `timestamp ${timestamp} is not after the head's ${headTime}`)
    }
    if (!this.isActive('cancun', head.number + 1n, timestamp)) throw new EngineError('unsupportedFork', 'Unsupported fork')
    const payloadId = payloadIdOf(state.headBlockHash, attrs as unknown as Record<string, unknown>, version)
    if (!this.builds.has(payloadId)) {
      this.builds.set(
        payloadId,
        this.build({
          parentHash: state.headBlockHash,
          timestamp: attrs.timestamp,
          prevRandao: attrs.prevRandao,
          feeRecipient: attrs.suggestedFeeRecipient,
          withdrawals: attrs.withdrawals,
          parentBeaconBlockRoot: attrs.parentBeaconBlockRoot,
          transactions: this.poolTransactions(head.hash),
          mode: 'best',
          extraData: this.opts.extraData,
          gasLimitTarget: toQuantity(this.opts.gasLimitTarget),
          persist: true,
        }),
      )
    }
    return { payloadStatus, payloadId }
  }

  /** Builds for the consensus client run in the engine lane; testing_buildBlockV1 is public work. */
  private async build(input: BuildInput): Promise<BuiltPayload> {
    const lane = input.persist ? this.lanes.engine : this.lanes.public
    const built = await lane.run({ op: 'build', input })
    if (input.persist) this.store.refreshSnapshot()
    return built
  }

  /** The pool's pending transactions, best first, at the base fee the next block will have (approximately). */
  private poolTransactions(parentHash: Uint8Array): Uint8Array[] {
    const fields = RLP.decode(this.store.getHeaderRlp(parentHash)!) as Uint8Array[]
    const baseFee = fields[15] === undefined || fields[15].length === 0 ? 0n : BigInt(bytesToHex(fields[15]))
    return this.txPool.pending(baseFee).map((t) => t.raw)
  }

  private headerTime(hash: Uint8Array): bigint {
    const ts = (RLP.decode(this.store.getHeaderRlp(hash)!) as Uint8Array[])[11]!
    return ts.length === 0 ? 0n : BigInt(bytesToHex(ts))
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
      this.opts.log(`payload ${id} failed to build: ${(e as Error).message}`)
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

  /** testing_buildBlockV1: builds on any stored parent without storing or changing anything. */
  async buildForTesting(
    parentHash: string,
    attrs: {
      timestamp?: string
      prevRandao?: string
      suggestedFeeRecipient?: string
      withdrawals?: { index: string; validatorIndex: string; address: string; amount: string }[]
      parentBeaconBlockRoot?: string
    },
    transactions: string[] | null,
    extraData: string | null | undefined,
  ): Promise<Record<string, unknown>> {
    const parent = this.chain.byHash(hexToBytes(parentHash))
    if (parent === undefined) throw new EngineError('invalidParams', `unknown parent block ${parentHash}`)
    if (extraData !== undefined && extraData !== null && extraData.length > 66) {
      throw new EngineError('invalidParams', 'extraData longer than 32 bytes')
    }
    const parentTime = this.headerTime(parent.hash)
    const timestamp = attrs.timestamp ?? toQuantity(parentTime + 12n)
    if (BigInt(timestamp) <= parentTime) throw new EngineError('invalidParams', 'timestamp must be after the parent\'s')
    const number = parent.number + 1n
    const time = BigInt(timestamp)
    const built = await this.build({
      parentHash,
      timestamp,
      prevRandao: attrs.prevRandao ?? ZERO32,
      feeRecipient: attrs.suggestedFeeRecipient ?? `0x${'00'.repeat(20)}`,
      withdrawals: attrs.withdrawals ?? (this.isActive('shanghai', number, time) ? [] : undefined),
      parentBeaconBlockRoot: attrs.parentBeaconBlockRoot ?? (this.isActive('cancun', number, time) ? ZERO32 : undefined),
      transactions: transactions === null ? this.poolTransactions(parent.hash) : transactions.map(hexToBytes),
      mode: transactions === null ? 'best' : 'exact',
      extraData: extraData ?? this.opts.extraData,
      gasLimitTarget: toQuantity(this.opts.gasLimitTarget),
      persist: false,
    })
    return envelopeOf(built)
  }

  /** eth_sendRawTransaction: validated in the pool against the head, then admitted. Returns the hash. */
  async submitTransaction(raw: Uint8Array): Promise<string> {
    const head = this.chain.head()
    const v = await this.lanes.public.run({ op: 'validateTx', raw, headHash: head.hash })
    this.txPool.add(
      {
        hash: v.hash,
        raw,
        sender: v.sender,
        nonce: BigInt(v.nonce),
        maxFee: BigInt(v.maxFee),
        maxPriorityFee: BigInt(v.maxPriorityFee),
        json: v.json,
      },
      BigInt(v.stateNonce),
    )
    return v.hash
  }

  /** Sender, nonce and hash of each transaction of a stored block, read from its stored JSON. */
  private blockTxs(blockHash: Uint8Array): { hash: string; sender: string; nonce: bigint }[] {
    const decoder = new TextDecoder()
    const out: { hash: string; sender: string; nonce: bigint }[] = []
    const count = this.store.getTxCount(blockHash) ?? 0
    for (let i = 0; i < count; i++) {
      const t = JSON.parse(decoder.decode(this.store.getTxJsonBytes(blockHash, i)!)) as { hash: string; from: string; nonce: string }
      out.push({ hash: t.hash, sender: t.from, nonce: BigInt(t.nonce) })
    }
    return out
  }

  /** Drops what the new canonical blocks included; re-validates and re-pools what the old ones had. */
  private updatePool(added: Uint8Array[], removed: Uint8Array[]): void {
    const included = added.flatMap((h) => this.blockTxs(h))
    if (included.length > 0) this.txPool.removeIncluded(included)
    for (const blockHash of removed) {
      const body = this.store.getBodyRlp(blockHash)
      if (body === undefined) continue
      const [txs] = RLP.decode(body) as [(Uint8Array | Uint8Array[])[]]
      for (const t of txs) {
        const raw = t instanceof Uint8Array ? t : RLP.encode(t)
        // Blob transactions come back without their sidecars and cannot be re-pooled.
        if (raw[0] === 3) continue
        this.submitTransaction(raw).catch(() => {})
      }
    }
  }
}
