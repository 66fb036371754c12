import type { Block } from '@ethereumjs/block'
import type { MerkleStateManager } from '@ethereumjs/statemanager'
import type { TypedTransaction } from '@ethereumjs/tx'
import { type AfterTxEvent, type VM, runBlock, runTx } from '@ethereumjs/vm'
import type { ChainSpec } from '../chain/spec.js'
import { readBlock, readHeader } from '../store/blockCodec.js'
import type { ChainStore } from '../store/chainStore.js'
import type { OverlayTrieDB } from '../trie/trieDb.js'
import { bytesToHex } from '../util/hex.js'
import type { AncestorView } from '../vm/ancestors.js'
import { processorApplies } from '../exec/blockProcessor.js'
import { createStoreVm } from '../exec/storeVm.js'
import { applyStartOfBlockSystemWrites } from '../exec/systemCalls.js'
import type { TraceOptions } from './tracer.js'
import { attachTracer } from './attachTracer.js'

// debug_traceTransaction / debug_traceBlockBy*: the block re-executed from its parent's state in a worker, with a
// tracer listening while the traced transactions run: geth's struct logger (the default), callTracer or
// prestateTracer.

/** Re-executes stored blocks with tracers on; one per worker, created on the first trace. */
export class EthereumjsTraceRunner {
  private constructor(
    private readonly spec: ChainSpec,
    private readonly store: ChainStore,
    private readonly trieDb: OverlayTrieDB,
    private readonly sm: MerkleStateManager,
    private readonly vm: VM,
    private readonly ancestors: AncestorView,
  ) {}

  static async create(spec: ChainSpec, store: ChainStore): Promise<EthereumjsTraceRunner> {
    const { trieDb, state, vm, ancestors } = await createStoreVm(spec, store)
    return new EthereumjsTraceRunner(spec, store, trieDb, state, vm, ancestors)
  }

  /**
   * The traces of a block's transactions (all, or the one at `only`), each as `{ txHash, result }`; undefined when
   * the block or its parent is not stored.
   */
  async traceBlock(blockHash: Uint8Array, opts: TraceOptions, only?: number): Promise<{ txHash: string; result: unknown }[] | undefined> {
    const block = readBlock(this.spec, this.store, blockHash)
    if (block === undefined) return undefined
    const parent = readHeader(this.spec, this.store, block.header.parentHash)
    if (parent === undefined) return undefined
    this.sm.clearCaches()
    this.trieDb.pending.clear()
    this.ancestors.advance(parent.hash(), parent.number, parent.parentHash)
    this.vm.common.setHardforkBy({ blockNumber: block.header.number, timestamp: block.header.timestamp })
    await this.sm.setStateRoot(parent.stateRoot, true)
    const out: { txHash: string; result: unknown }[] = []
    let index = -1
    let attached: ReturnType<typeof attachTracer> | undefined
    let failure: unknown
    const onBeforeTx = (tx: TypedTransaction, resolve?: () => void) => {
      index++
      if (only === undefined || only === index) {
        attached = attachTracer(this.vm, opts)
        void (attached.tracer.start?.(tx, block.header.coinbase, this.vm.stateManager) ?? Promise.resolve()).then(
          () => resolve?.(),
          (e: unknown) => {
            failure ??= e
            resolve?.()
          },
        )
        return
      }
      resolve?.()
    }
    const onAfterTx = (after: AfterTxEvent, resolve?: () => void) => {
      const current = attached
      attached = undefined
      if (current === undefined) return resolve?.()
      current.detach()
      failure ??= current.failure()
      const tx = block.transactions[index]!
      void Promise.resolve(current.tracer.result(tx, after, this.vm.stateManager)).then(
        (result) => {
          out.push({ txHash: bytesToHex(tx.hash()), result })
          resolve?.()
        },
        (e: unknown) => {
          failure ??= e
          resolve?.()
        },
      )
    }
    this.vm.events.on('beforeTx', onBeforeTx)
    this.vm.events.on('afterTx', onAfterTx)
    try {
      if (processorApplies(this.vm)) await this.replayTransactions(block as Block, only)
      else
        await runBlock(this.vm, { block: block as Block, skipHeaderValidation: true, skipBlockValidation: true, generate: true, setHardfork: true })
    } finally {
      attached?.detach()
      this.vm.events.off('beforeTx', onBeforeTx)
      this.vm.events.off('afterTx', onAfterTx)
      this.trieDb.pending.clear()
    }
    if (failure !== undefined) throw failure
    return out
  }

  /**
   * A post-merge block's start-of-block writes and its transactions up to the traced one, in one checkpoint that is
   * thrown away: what the traces see, without runBlock's state root, receipts trie and withdrawals, which no trace
   * reads (they were most of a one-transaction block's trace).
   */
  private async replayTransactions(block: Block, only: number | undefined): Promise<void> {
    const journal = this.vm.evm.journal
    await journal.checkpoint()
    try {
      await applyStartOfBlockSystemWrites(this.vm, block.header)
      let blockGasUsed = 0n
      for (const [i, tx] of block.transactions.entries()) {
        if (only !== undefined && i > only) break
        blockGasUsed += (await runTx(this.vm, { tx, block, blockGasUsed })).totalGasSpent
      }
    } finally {
      await journal.revert()
    }
  }
}
