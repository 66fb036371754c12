import type { ChainSpec } from '../chain/spec.js'
import type { StateSource } from '../evm/state.js'
import type { ChainStore } from '../store/chainStore.js'
import { HeaderView } from '../store/headerView.js'
import { AncestorView } from './ancestors.js'
import { type BlockContext, type BlockEnvOverrides, blockContextOf } from './blockContext.js'
import { CodeCache } from './codeCache.js'
import { stateSourceAt } from './stateSources.js'

// The execution seam (reth's ConfigureEvm): every path that runs the EVM — calls, estimates, simulations, traces,
// and the blocks themselves — gets its block context and its state source here, one per thread over its store. It
// owns what executions on one thread share: the code cache (one array per code hash, so the interpreter's analysis
// of a contract is reused) and the ancestors BLOCKHASH reads.

export class EvmConfig {
  readonly codes: CodeCache
  readonly ancestors: AncestorView

  constructor(
    readonly spec: ChainSpec,
    readonly store: ChainStore,
  ) {
    this.codes = new CodeCache(store)
    this.ancestors = new AncestorView(store, new Uint8Array(32), 0n)
  }

  /** The stored header of a block; undefined when the store does not have it. */
  header(hash: Uint8Array): HeaderView | undefined {
    return HeaderView.read(this.store, hash)
  }

  /** The context of a stored block (with overrides); undefined when Sponge's EVM does not run its fork. */
  blockContext(header: HeaderView, hash: Uint8Array, overrides?: BlockEnvOverrides): BlockContext | undefined {
    return blockContextOf(this.spec, header, hash, this.ancestors, overrides)
  }

  /** The state with this root, as the EVM reads it: from the flat table when it holds it, else from the tries. */
  stateAt(stateRoot: Uint8Array): StateSource {
    return stateSourceAt(this.store, stateRoot, this.codes)
  }
}
