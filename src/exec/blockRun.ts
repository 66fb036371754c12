import { GAS_PER_BLOB } from '../chain/blobFee.js'
import { Fork } from '../chain/evmFork.js'
import type { RawLog } from '../codecs/receipt.js'
import { Status } from '../evm/frame.js'
import { Evm } from '../evm/interpreter.js'
import { type Log, WorldState } from '../evm/state.js'
import { applyTransaction, effectiveGasPrice, type EvmTransaction, type TxOutcome } from '../evm/transaction.js'
import { addressToBytes, bytesToWord, wordToBytes } from '../evm/words.js'
import type { HeaderView } from '../store/headerView.js'
import { orderedTrieRoot } from '../trie/orderedTrie.js'
import { type BlockCommit, commitBlockState } from '../vm/blockCommit.js'
import { type BlockContext, blockContextOf } from '../vm/blockContext.js'
import { applyWithdrawals, blockRequests } from '../vm/blockEnd.js'
import { applyBlockStart } from '../vm/blockStart.js'
import { applyDaoFork, isDaoForkBlock } from '../vm/daoFork.js'
import type { EvmConfig } from '../vm/evmConfig.js'
import { BlockReceiptsEncoder, rawLogsBloom } from '../vm/receiptCodec.js'
import { stateRootAfter } from '../vm/stateRoot.js'
import type { StoredStateSource } from '../vm/stateSources.js'
import type { BlockReceipt } from './receipts.js'
import { blockPhases, Phase } from '../util/blockPhases.js'

// One block being made on Sponge's EVM, what executing a given block (evmBlock.ts) and building one (the payload
// builder) share: the start-of-block system calls, each transaction with its receipt, logs bloom and gas, the
// withdrawals and EIP-7685's requests at the end, and the commit of the state.

export interface Withdrawn {
  address: Uint8Array
  /** In gwei. */
  amount: bigint
}

export class BlockRun {
  readonly ctx: BlockContext
  readonly state: WorldState
  readonly evm: Evm
  /** What the stored replies are made from (receipts.ts). */
  readonly receipts: BlockReceipt[] = []
  /** The receipts' consensus encodings, for the receipts root. */
  private readonly encoded = new BlockReceiptsEncoder()
  readonly bloom = new Uint8Array(256)
  private readonly logs: Log[] = []
  gasUsed = 0n
  blobGasUsed = 0n
  /** What the fee recipient earned in tips. */
  minerValue = 0n

  /**
   * A block with header `header` (whose hash is `hash`; a block being built has none yet, and BLOCKHASH never asks
   * for its own) on `source`, the state with root `parentRoot`.
   */
  constructor(
    private readonly config: EvmConfig,
    header: HeaderView,
    hash: Uint8Array,
    private readonly source: StoredStateSource,
    private readonly parentRoot: Uint8Array,
  ) {
    this.ctx = blockContextOf(config.spec, header, hash, config.ancestors)
    this.state = new WorldState(source)
    this.evm = new Evm({ fork: this.ctx.fork, block: this.ctx.env, state: this.state, scratch: config.scratch })
    if (isDaoForkBlock(config.spec, header.number)) applyDaoFork(this.state)
    applyBlockStart(this.evm, header)
  }

  get fork(): Fork {
    return this.ctx.fork
  }

  /** The blob base fee its blob transactions pay (their receipts report it); undefined before Cancun. */
  get blobGasPrice(): bigint | undefined {
    return this.fork >= Fork.cancun ? this.ctx.env.blobBaseFee : undefined
  }

  /** Applies a transaction and records its receipt. Throws TxRejectedError, the state as it was, when it cannot apply. */
  apply(tx: EvmTransaction): TxOutcome {
    const outcome = applyTransaction(this.evm, tx, this.ctx.limits)
    this.state.endTransaction()
    const gas = BigInt(outcome.gasUsed)
    this.gasUsed += gas
    this.blobGasUsed += GAS_PER_BLOB * BigInt(tx.blobHashes.length)
    const baseFee = this.fork >= Fork.london ? this.ctx.env.baseFee : 0n
    this.minerValue += gas * (effectiveGasPrice(tx, baseFee, this.fork) - baseFee)
    const phases = blockPhases
    const m = phases?.mark()
    const logs = outcome.logs
    for (const l of logs) this.logs.push(l)
    // Each log's address and topics as bytes once, for the bloom, the encoding and the replies.
    const rawLogs = logs.map((l): RawLog => [addressToBytes(l.address), l.topics.map(wordToBytes), l.data])
    const bloom = rawLogsBloom(rawLogs, this.encoded.newBloom())
    for (let b = 0; b < 256; b++) this.bloom[b]! |= bloom[b]!
    if (this.fork < Fork.byzantium) {
      // Before Byzantium a receipt carries the state root after its transaction (EIP-658 replaced it with a status).
      const root = stateRootAfter(
        this.parentRoot,
        this.state.changes(),
        (a) => this.source.storageRoot(a),
        (x) => this.config.store.getTrieNode(x),
      )
      this.receipts.push({ stateRoot: root, cumulativeGasUsed: this.gasUsed, bloom, logs: rawLogs })
      this.encoded.add(tx.type, root, this.gasUsed, bloom, rawLogs)
    } else {
      const success = outcome.status === Status.success
      this.receipts.push({ status: success ? 1 : 0, cumulativeGasUsed: this.gasUsed, bloom, logs: rawLogs })
      this.encoded.add(tx.type, success, this.gasUsed, bloom, rawLogs)
    }
    if (m !== undefined) phases!.end(Phase.receipts, m)
    return outcome
  }

  /** Credits `amount` wei to `address` outside any transaction (a pre-merge block's rewards). */
  credit(address: bigint, amount: bigint): void {
    this.state.addBalance(this.state.get(address), amount)
    this.state.endTransaction()
  }

  /**
   * The block's end: withdrawals (Shanghai on), then EIP-7685's requests (Prague on; throws InvalidRequestsError when a
   * deposit log or a request contract's call makes them invalid).
   */
  finish(withdrawals: readonly Withdrawn[] | undefined): Uint8Array[] {
    if (this.fork >= Fork.shanghai) {
      applyWithdrawals(
        this.evm,
        (withdrawals ?? []).map((w) => ({ address: bytesToWord(w.address), amount: w.amount })),
      )
    }
    const deposit = this.config.spec.depositContract
    return blockRequests(this.evm, this.logs, deposit === undefined ? undefined : bytesToWord(deposit))
  }

  receiptsRoot(): Uint8Array {
    return orderedTrieRoot(this.encoded.encodings())
  }

  commit(): BlockCommit {
    return commitBlockState(this.parentRoot, this.state.changes(), this.source, this.config.store)
  }
}
