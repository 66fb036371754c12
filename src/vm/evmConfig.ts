import type { ChainSpec } from '../chain/spec.js'
import { type EvmScratch, newScratch } from '../evm/interpreter.js'
import type { ChainStore } from '../store/chainStore.js'
import { HeaderView } from '../store/headerView.js'
import { equalBytes } from '../util/hex.js'
import { AncestorView } from './ancestors.js'
import { type BlockContext, type BlockEnvOverrides, blockContextOf } from './blockContext.js'
import { CodeCache } from './codeCache.js'
import { stateSourceAt, type StoredStateSource } from './stateSources.js'

// The execution seam (reth's ConfigureEvm): every path that runs the EVM — calls, estimates, simulations, traces,
// and the blocks themselves — gets its block context and its state source here, one per thread over its store. It
// owns what executions on one thread share: the code cache (one array per code hash, so the interpreter's analysis
// of a contract is reused) and the ancestors BLOCKHASH reads.

interface KeptBlock {
  header: HeaderView
  contexts: Map<bigint, BlockContext>
}

/** Blocks whose header and contexts are kept (calls mostly name the head, over and over). */
const KEPT_BLOCKS = 8

export class EvmConfig {
  readonly codes: CodeCache
  readonly ancestors: AncestorView
  /** The stacks and memories of the thread's EVMs, which run one at a time. */
  readonly scratch: EvmScratch = newScratch()
  /** Recent blocks by hash (latin1): the decoded header and the contexts made without overrides, by base fee. */
  private readonly blocks = new Map<string, KeptBlock>()

  constructor(
    readonly spec: ChainSpec,
    readonly store: ChainStore,
  ) {
    this.codes = new CodeCache(store)
    this.ancestors = new AncestorView(store, new Uint8Array(32), 0n)
  }

  /** The stored header of a block; undefined when the store does not have it. */
  header(hash: Uint8Array): HeaderView | undefined {
    return this.kept(hash)?.header
  }

  private kept(hash: Uint8Array): KeptBlock | undefined {
    // Calls name the same block over and over: the last one is found without making its key.
    const last = this.last
    if (last !== undefined && equalBytes(last.hash, hash)) return last.entry
    const key = Buffer.from(hash.buffer, hash.byteOffset, 32).toString('latin1')
    let k = this.blocks.get(key)
    if (k === undefined) {
      const header = HeaderView.read(this.store, hash)
      if (header === undefined) return undefined
      k = { header, contexts: new Map() }
      if (this.blocks.size >= KEPT_BLOCKS) this.blocks.delete(this.blocks.keys().next().value!)
      this.blocks.set(key, k)
    }
    this.last = { hash: hash.slice(), entry: k }
    return k
  }

  private last: { hash: Uint8Array; entry: KeptBlock } | undefined

  /**
   * The context of a stored block (with overrides). Contexts without overrides other than the base fee are kept with
   * the header: the same object for every call at a block.
   */
  blockContext(header: HeaderView, hash: Uint8Array, overrides?: BlockEnvOverrides): BlockContext {
    const onlyBaseFee = overrides === undefined || Object.keys(overrides).every((k) => k === 'baseFee')
    const kept = onlyBaseFee ? this.kept(hash) : undefined
    if (kept === undefined || kept.header !== header) return blockContextOf(this.spec, header, hash, this.ancestors, overrides)
    const baseFee = overrides?.baseFee ?? -1n
    let ctx = kept.contexts.get(baseFee)
    if (ctx === undefined) {
      if (kept.contexts.size >= 4) kept.contexts.clear()
      ctx = blockContextOf(this.spec, header, hash, this.ancestors, overrides)
      kept.contexts.set(baseFee, ctx)
    } else this.ancestors.advance(hash, header.number, header.parentHash)
    return ctx
  }

  /** The state with this root, as the EVM reads it: from the flat table when it holds it, else from the tries. */
  stateAt(stateRoot: Uint8Array): StoredStateSource {
    return stateSourceAt(this.store, stateRoot, this.codes)
  }
}
