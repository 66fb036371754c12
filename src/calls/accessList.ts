import { Fork } from '../chain/evmFork.js'
import type { AccessListEntry as EvmAccessListEntry } from '../evm/transaction.js'
import { TxRejectedError } from '../exec/errors.js'
import { AccessListTracer, accessListExclusions } from '../tracers/accessListTracer.js'
import type { EvmConfig } from '../vm/evmConfig.js'
import type { AccessListEntry, CallInput, CallOutcome } from './callInput.js'
import { gasLimitOf, outcomeOf, prepareCall } from './callRunner.js'
import { AccessListUnsettledError } from './errors.js'
import { addressHex, wordHex } from '../tracers/format.js'

/** What eth_createAccessList answers: the list, the gas the call used with it, and its failure if it failed. */
export interface AccessListResult {
  accessList: AccessListEntry[]
  gasUsed: bigint
  /** Set when the call fails with the final list (geth still answers the list). */
  failure?: Exclude<CallOutcome, { status: 'success' }>
}

/** geth loops until the list settles; a list that keeps growing for this many runs is refused. */
const MAX_ROUNDS = 16

/**
 * eth_createAccessList as geth's AccessList: the call run with a list (the request's, else none), the addresses and
 * slots its opcodes touch (AccessListTracer, less the sender, the recipient and the precompiles) taken as the next
 * list, and again until a run finds the list it ran with. Null: unknown block.
 */
export function createAccessList(config: EvmConfig, input: CallInput, deadline = 0): AccessListResult | null {
  const call = prepareCall(config, input, deadline)
  if (call === null) return null
  // geth makes an access-list transaction of the call: before Berlin there is none.
  if (call.ctx.fork < Fork.berlin) throw new TxRejectedError('transaction type not supported: access list tx', 'txTypeNotSupported')
  const tx = call.tx
  // A creation's address, which the list leaves out, is the sender's next (geth takes the state's nonce).
  tx.nonce = call.state.get(tx.sender).nonce
  const exclude = accessListExclusions(tx, call.ctx.fork, call.ctx.env.chainId)
  const gas = gasLimitOf(input)
  let previous = new AccessListTracer(tx.accessList, exclude)
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const list = previous.result()
    tx.accessList = list
    const tracer = new AccessListTracer(list, exclude)
    const outcome = outcomeOf(call.runRaw(gas, tracer))
    if (tracer.equals(previous)) {
      return { accessList: list.map(wire), gasUsed: outcome.gasUsed, ...(outcome.status === 'success' ? {} : { failure: outcome }) }
    }
    previous = tracer
  }
  throw new AccessListUnsettledError()
}

function wire(e: EvmAccessListEntry): AccessListEntry {
  return { address: addressHex(e.address), storageKeys: e.storageKeys.map(wordHex) }
}
