import type { Block, BlockHeader } from '@ethereumjs/block'
import type { MerkleStateManager } from '@ethereumjs/statemanager'
import { EthereumJSError } from '@ethereumjs/util'
import type { TxReceipt, VM } from '@ethereumjs/vm'
import type { ChainSpec } from '../chain/spec.js'
import { blockJsonPrefix } from '../codecs/block.js'
import { blockSize, bodyRlp } from '../store/blockCodec.js'
import type { BlockRecord, ChainStore } from '../store/chainStore.js'
import type { OverlayTrieDB } from '../trie/trieDb.js'
import type { AncestorView } from '../vm/ancestors.js'
import { primeRootCache } from './blockRoots.js'
import { type ProcessedBlock, processBlock } from './blockProcessor.js'
import { InvalidBlockError, StateUnavailableError } from './errors.js'
import { validateHeaderAgainstParent } from './headerValidation.js'
import { materializeTransactions } from './receipts.js'
import { blockIndexKeys, encodeBlockLogs } from '../store/blockLogs.js'
import { StateChangeRecorder } from '../state/stateChangeRecorder.js'
import { createStoreVm } from './storeVm.js'
import { equalBytes } from '../util/hex.js'
import { checkRequestContractsExist } from './systemCalls.js'

export interface ExecutedBlock {
  block: Block
  record: BlockRecord
  result: ProcessedBlock
}

/**
 * Executes blocks on top of stored state with EthereumJS's VM and turns the outcome into a BlockRecord ready to
 * be stored. One executor per thread: it keeps one VM and one trie over the store, re-rooted for every block.
 *
 * A block whose parent is the block this executor executed last runs on the caches that block left warm (accounts
 * and slots it read or wrote need no trie walk): the state manager is then exactly at the parent's state. Anything
 * else clears them — another parent, a failed block, or any other user of the VM (builds, simulations), which is
 * why the VM and state are reached only through getters that forget the warm state.
 */
export class BlockExecutor {
  /** The state root the caches hold, if they hold one block's post-state untouched since. */
  private warmRoot: Uint8Array | undefined

  /** What each block writes, for the store's flat state table; builds call `begin` on it too. */
  readonly stateChanges: StateChangeRecorder

  private constructor(
    private readonly spec: ChainSpec,
    private readonly trieDb: OverlayTrieDB,
    private readonly stateManager: MerkleStateManager,
    private readonly ownVm: VM,
    readonly ancestors: AncestorView,
  ) {
    this.stateChanges = new StateChangeRecorder(stateManager)
  }

  static async create(spec: ChainSpec, store: ChainStore): Promise<BlockExecutor> {
    const { trieDb, state, vm, ancestors } = await createStoreVm(spec, store)
    return new BlockExecutor(spec, trieDb, state, vm, ancestors)
  }

  get vm(): VM {
    this.warmRoot = undefined
    return this.ownVm
  }

  get state(): MerkleStateManager {
    this.warmRoot = undefined
    return this.stateManager
  }

  get trieOverlay(): OverlayTrieDB {
    this.warmRoot = undefined
    return this.trieDb
  }

  /** Validates and executes `block` on `parent`'s state. Throws InvalidBlockError with the reason. */
  async execute(block: Block, parent: BlockHeader): Promise<ExecutedBlock> {
    validateHeaderAgainstParent(this.spec, block.header, parent)
    primeRootCache(block)
    this.ancestors.advance(parent.hash(), parent.number, parent.parentHash)
    this.trieDb.pending.clear()
    let result: ProcessedBlock
    const missesBefore = this.trieDb.misses
    const warm = this.warmRoot !== undefined && equalBytes(this.warmRoot, parent.stateRoot)
    this.warmRoot = undefined
    const vm = this.ownVm
    try {
      vm.common.setHardforkBy({ blockNumber: block.header.number, timestamp: block.header.timestamp })
      await this.stateManager.setStateRoot(parent.stateRoot, !warm)
      this.stateChanges.begin()
      await checkRequestContractsExist(vm)
      result = await processBlock(vm, block, this.spec.depositContract)
    } catch (e) {
      this.trieDb.pending.clear()
      throw classifyFailure(e, this.trieDb.misses !== missesBefore)
    }
    this.warmRoot = block.header.stateRoot
    return { block, result, record: await this.recordOf(block, result) }
  }

  /** The record of a block executed here (by execute, or by a builder sharing this executor's state). */
  async recordOf(block: Block, result: { receipts: TxReceipt[] }): Promise<BlockRecord> {
    const { txJson, receiptJson, txHashes, logs } = materializeTransactions(block, result.receipts)
    const headerRlp = block.header.serialize()
    const body = bodyRlp(block)
    const record: BlockRecord = {
      hash: block.hash(),
      number: block.header.number,
      headerRlp,
      bodyRlp: body,
      txHashes,
      blockJson: blockJsonPrefix(block, blockSize(headerRlp, body)),
      txJson,
      receiptJson,
      logs: logs.length === 0 ? undefined : encodeBlockLogs(logs),
      logKeys: blockIndexKeys(logs, block.header.number, block.hash()),
      trieNodes: new Map(this.trieDb.pending),
      parentHash: block.header.parentHash,
      stateRoot: block.header.stateRoot,
      stateChanges: await this.stateChanges.take(),
    }
    this.trieDb.pending.clear()
    return record
  }
}

/**
 * Only consensus failures make a block invalid: our own checks (InvalidBlockError) and EthereumJS's verdicts, which
 * it throws as EthereumJSError. Anything else — state missing from the store, a TypeError, a native library failing —
 * is the node's problem and must not be remembered against the block.
 */
function classifyFailure(e: unknown, stateMissing: boolean): Error {
  if (stateMissing) return new StateUnavailableError(`state unavailable: ${e instanceof Error ? e.message : String(e)}`)
  if (e instanceof InvalidBlockError) return e
  if (e instanceof EthereumJSError) return new InvalidBlockError(e.message)
  return e instanceof Error ? e : new Error(String(e))
}
