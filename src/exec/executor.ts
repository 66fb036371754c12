import type { Block, BlockHeader } from '@ethereumjs/block'
import { EthereumJSError } from '@ethereumjs/util'
import type { ChainSpec } from '../chain/spec.js'
import type { BlockRecord, ChainStore } from '../store/chainStore.js'
import { MissingTrieNodeError } from '../trie/trieBatch.js'
import type { BlockCommit } from '../vm/blockCommit.js'
import { EvmConfig } from '../vm/evmConfig.js'
import type { HeaderView } from '../store/headerView.js'
import { BlockRun } from './blockRun.js'
import { WarmState } from '../vm/warmState.js'
import { TimedStateSource } from '../vm/timedSource.js'
import { blockPhases, Phase } from '../util/blockPhases.js'
import type { StoredStateSource } from '../vm/stateSources.js'
import { validateBody } from './blockRoots.js'
import { blockRecord } from './blockRecord.js'
import { partsOfBlock } from '../codecs/blockParts.js'
import { decodeBlockTx, type SignedTx, signingRulesOf } from './blockTx.js'
import { InvalidBlockError, StateUnavailableError, TxRejectedError } from './errors.js'
import { executeBlockOnEvm } from './evmBlock.js'
import { ownSenders, sharedSenders } from './senderRecovery.js'
import { validateHeaderAgainstParent } from './headerValidation.js'

export interface ExecutedBlock {
  block: Block
  record: BlockRecord
  /** Its EIP-7685 requests (type ‖ data), Prague on. */
  requests: Uint8Array[]
}

const MAX_GAS_LIMIT = 1n << 63n
/** A block being built has no hash; BLOCKHASH never asks for the block's own. */
const NO_HASH_YET = new Uint8Array(32)

/**
 * Executes blocks on top of stored state with Sponge's EVM through the execution seam (evmBlock.ts) and turns the
 * outcome into a BlockRecord ready to be stored. One executor per thread. A block whose parent is the block this
 * executor executed last runs on the state that block left warm (warmState.ts): the accounts and slots either
 * touched are not read from the store again.
 */
export class BlockExecutor {
  private readonly warm = new WarmState()

  private constructor(
    private readonly spec: ChainSpec,
    readonly config: EvmConfig,
  ) {}

  /** `config` is the thread's execution seam, shared with its calls (its code cache and scratch); else its own. */
  static create(spec: ChainSpec, store: ChainStore, config?: EvmConfig): Promise<BlockExecutor> {
    return Promise.resolve(new BlockExecutor(spec, config ?? new EvmConfig(spec, store)))
  }

  /**
   * Validates and executes `block` on `parent`'s state. Throws InvalidBlockError with the reason. `txs`: its
   * transactions decoded from the bytes it was made of (a payload's, blockTx.ts), in place of `block.transactions`;
   * without them, those are decoded the same way from their encodings. `senders`: shared with a helper recovering
   * them alongside (senderRecovery.ts); without it, each is recovered here in its turn.
   */
  async execute(block: Block, parent: BlockHeader, txs?: readonly SignedTx[], senders?: SharedArrayBuffer): Promise<ExecutedBlock> {
    validateHeaderAgainstParent(this.spec, block.header, parent)
    const header = block.header
    try {
      if (header.gasLimit >= MAX_GAS_LIMIT) throw new InvalidBlockError('Invalid block with gas limit greater than (2^63 - 1)')
      const blockTxs = txs ?? decodeBlockTxs(block)
      validateBody(block, blockTxs)
      // From here on synchronous: the store's snapshot, which the source reads, does not move under the block.
      this.config.ancestors.advance(parent.hash(), parent.number, parent.parentHash)
      const source = this.warm.at(parent.stateRoot, this.storeSource(parent.stateRoot))
      const senderAt = senders === undefined ? ownSenders(blockTxs) : sharedSenders(senders, blockTxs)
      const parts = partsOfBlock(block)
      const run = executeBlockOnEvm(this.config, block, parts, blockTxs, source, parent.stateRoot, senderAt)
      this.warm.advance(header.stateRoot, run.commit.accounts)
      const phases = blockPhases
      const m = phases?.mark()
      const record = blockRecord(parts, blockTxs, run.receipts, run.commit.trieNodes, run.commit.stateChanges, run.senders, run.blobGasPrice)
      if (m !== undefined) phases!.end(Phase.record, m)
      return { block, record, requests: run.requests }
    } catch (e) {
      throw classifyFailure(e)
    }
  }

  /**
   * A block to build on the stored block `parentHash` (whose header is `parent`): `header` is the block's header as far
   * as its transactions read it (its roots, gas used and hash are not known yet).
   */
  startBuild(parentHash: Uint8Array, parent: HeaderView, header: HeaderView): BlockRun {
    this.config.ancestors.advance(parentHash, parent.number, parent.parentHash)
    const source = this.warm.at(parent.stateRoot, this.storeSource(parent.stateRoot))
    return new BlockRun(this.config, header, NO_HASH_YET, source, parent.stateRoot)
  }

  /** The store's state at `root`, its reads timed while block phases are kept. */
  private storeSource(root: Uint8Array): StoredStateSource {
    const base = this.config.stateAt(root)
    return blockPhases === undefined ? base : new TimedStateSource(base, blockPhases)
  }

  /** A block built with startBuild is stored: its children run on the state it left warm. */
  builtBlockStored(stateRoot: Uint8Array, commit: BlockCommit): void {
    this.warm.advance(stateRoot, commit.accounts)
  }
}

/** A block's EthereumJS transactions in the block path's form, checked as a payload's are. */
function decodeBlockTxs(block: Block): SignedTx[] {
  const rules = signingRulesOf(block.common)
  return block.transactions.map((tx, i) => {
    try {
      return decodeBlockTx(tx.serialize(), rules)
    } catch (e) {
      if (e instanceof TxRejectedError) throw new InvalidBlockError(`invalid transaction ${i}: ${e.message}`)
      throw e
    }
  })
}

/**
 * Only consensus failures make a block invalid: our own checks (InvalidBlockError) and EthereumJS's verdicts, which
 * it throws as EthereumJSError. Anything else — state missing from the store, a TypeError, a native library failing —
 * is the node's problem and must not be remembered against the block.
 */
function classifyFailure(e: unknown): Error {
  if (e instanceof MissingTrieNodeError) return new StateUnavailableError(`state unavailable: ${e.message}`)
  if (e instanceof InvalidBlockError) return e
  if (e instanceof EthereumJSError) return new InvalidBlockError(e.message)
  return e instanceof Error ? e : new Error(String(e))
}
