import { WorldState } from '../evm/state.js'
import type { EvmConfig } from '../vm/evmConfig.js'
import { type SimParent, type Simulation, simulateBlock } from './simBlock.js'
import { planChain } from './simChain.js'
import type { SimBlockResult, SimulateInput, SimulateOutcome } from './simulateInput.js'

// eth_simulateV1 on Sponge's EVM: blocks of calls on a stored block's state, each built as a real block on the one
// before (simBlock.ts), with geth's defaults for everything a call or a block leaves out. Synchronous, through the
// execution seam (vm/evmConfig.ts); nothing is stored.

export type { SimBlock, SimCall, SimCallResult, SimBlockResult, SimulateInput, SimulateOutcome } from './simulateInput.js'

/** geth's budget when --rpc.gascap is 0: no bound. */
const UNBOUNDED_GAS = (1n << 64n) - 1n

/**
 * Simulates `input`'s blocks on the state of its block; null when the store does not have that block. `deadline`
 * (performance.now(), 0 for none) stops the EVM with EvmAbortedError. Why a simulation stops is a SimulationError.
 */
export function simulate(config: EvmConfig, input: SimulateInput, deadline = 0): SimulateOutcome {
  const base = config.header(input.blockHash)
  if (base === undefined) return null
  const planned = planChain(base, input.blocks)
  const source = config.stateAt(base.stateRoot)
  // BLOCKHASH of the base and its ancestors.
  config.ancestors.advance(input.blockHash, base.number, base.parentHash)
  const sim: Simulation = {
    config,
    state: new WorldState(source),
    source,
    baseRoot: base.stateRoot,
    baseNumber: base.number,
    hashes: new Map(),
    budget: { remaining: input.gasCap === 0n ? UNBOUNDED_GAS : input.gasCap },
    validation: input.validation,
    traceTransfers: input.traceTransfers,
    fullTransactions: input.fullTransactions,
    deadline,
  }
  let parent: SimParent = {
    hash: input.blockHash,
    number: base.number,
    timestamp: base.timestamp,
    gasLimit: base.gasLimit,
    gasUsed: base.gasUsed,
    baseFee: base.hasBaseFee ? base.baseFee : undefined,
    excessBlobGas: base.excessBlobGas,
    blobGasUsed: base.blobGasUsed,
    difficulty: base.difficulty,
    coinbase: base.coinbase,
  }
  const blocks: SimBlockResult[] = []
  for (const p of planned) {
    const built = simulateBlock(sim, p, parent)
    blocks.push(built.result)
    parent = built.parent
  }
  return { blocks }
}
