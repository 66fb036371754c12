import type { EthereumjsCallRunner as CallRunner } from './ethereumjsCallRunner.js'
import type { AccessListEntry } from './callInput.js'
import type { CallOutcome } from './callInput.js'
import type { CallInput } from './callInput.js'
import { TxRejectedError } from '../exec/errors.js'

import type { EstimateOutcome } from './estimate.js'

const TX_GAS = 21_000n
const CALL_STIPEND = 2_300n
/** geth stops the search once the interval is within 1.5% of the upper bound. */
const ERROR_RATIO_PERMILLE = 15n

/**
 * eth_estimateGas as geth does it: a plain transfer is 21000 at once; otherwise the call runs with all the gas it may
 * have (a failure there is the answer), then with an optimistic limit (gas used + refund + stipend, × 64/63), then a
 * binary search between what it used and what sufficed.
 */
export async function estimateGas(runner: CallRunner, input: CallInput): Promise<EstimateOutcome> {
  const block = await runner.prepare(input)
  const c = input.call
  let hi = runner.gasLimitOf({ ...input, call: { ...c, gas: c.gas ?? block.header.gasLimit } }, block)
  const price = c.gasPrice ?? c.maxFeePerGas ?? 0n
  if (price > 0n) {
    const allowance = (await runner.balanceAvailable(input, block)) / price
    if (allowance < hi) hi = allowance
  }
  // Below this the call cannot start: the search never tries it.
  const least = runner.minimumGas(input, block)
  const fails = async (gas: bigint): Promise<boolean> => (await runner.run(input, block, gas)).status !== 'success'
  if (c.to !== undefined && (c.data === undefined || c.data.length === 0) && !(await runner.hasCode(input, block, c.to))) {
    if (least <= TX_GAS && !(await fails(TX_GAS))) return { status: 'estimated', gas: TX_GAS }
  }
  const atHi = await runner.run(input, block, hi)
  if (atHi.status === 'revert') return atHi
  if (atHi.status === 'halt') return atHi.error === 'out of gas' ? { status: 'capped', cap: hi } : atHi
  let lo = (atHi.gasUsed > least ? atHi.gasUsed : least) - 1n
  const optimistic = ((atHi.gasUsed + atHi.gasRefund + CALL_STIPEND) * 64n) / 63n
  if (optimistic < hi) {
    if (!(await fails(optimistic))) hi = optimistic
    else lo = optimistic
  }
  while (lo + 1n < hi) {
    if (((hi - lo) * 1000n) / hi < ERROR_RATIO_PERMILLE) break
    let mid = (hi + lo) / 2n
    if (mid > lo * 2n) mid = lo * 2n
    if (!(await fails(mid))) hi = mid
    else lo = mid
  }
  return { status: 'estimated', gas: hi }
}

export interface AccessListResult {
  accessList: AccessListEntry[]
  gasUsed: bigint
  /** Set when the call fails with the final list (geth still answers the list). */
  failure?: Exclude<CallOutcome, { status: 'success' }>
}

/** eth_createAccessList as geth does it: run, take what was touched as the list, and again until it no longer grows. */
export async function createAccessList(runner: CallRunner, input: CallInput): Promise<AccessListResult> {
  const block = await runner.prepare(input)
  // geth builds an access-list transaction to run: before Berlin there is none.
  if (!block.common.isActivatedEIP(2930)) throw new TxRejectedError('transaction type not supported: access list tx', 'txTypeNotSupported')
  const gas = runner.gasLimitOf(input, block)
  let list: AccessListEntry[] = normalize(
    (input.call.accessList ?? []).map((a) => ({
      address: `0x${Buffer.from(a.address).toString('hex')}`,
      storageKeys: a.storageKeys.map((k) => `0x${Buffer.from(k).toString('hex')}`),
    })),
  )
  for (let round = 0; round < 16; round++) {
    const outcome = await runner.run(input, block, gas, true, list)
    const touched = normalize(merge(list, outcome.accessList ?? [], input))
    if (JSON.stringify(touched) === JSON.stringify(list)) {
      return { accessList: list, gasUsed: outcome.gasUsed, ...(outcome.status === 'success' ? {} : { failure: outcome }) }
    }
    list = touched
  }
  throw new TxRejectedError('access list did not settle', 'accessListUnsettled')
}

/**
 * The union of two lists. The sender and the recipient are warm anyway: geth lists them only for their storage
 * slots, never as bare addresses.
 */
function merge(a: AccessListEntry[], b: AccessListEntry[], input: CallInput): AccessListEntry[] {
  const hex = (x: Uint8Array | undefined) => (x === undefined ? undefined : `0x${Buffer.from(x).toString('hex')}`)
  const skip = new Set([hex(input.call.from ?? new Uint8Array(20)), hex(input.call.to)])
  const byAddress = new Map<string, Set<string>>()
  for (const e of [...a, ...b]) {
    const address = e.address.toLowerCase()
    if (skip.has(address) && e.storageKeys.length === 0) continue
    const keys = byAddress.get(address) ?? new Set()
    for (const k of e.storageKeys) keys.add(k.toLowerCase())
    byAddress.set(address, keys)
  }
  return [...byAddress].map(([address, keys]) => ({ address, storageKeys: [...keys] }))
}

/** Addresses and keys in order (geth sorts them), keys as 32-byte words. */
function normalize(list: AccessListEntry[]): AccessListEntry[] {
  return list
    .map((e) => ({ address: e.address, storageKeys: e.storageKeys.map((k) => `0x${k.slice(2).padStart(64, '0')}`).sort() }))
    .sort((x, y) => (x.address < y.address ? -1 : x.address > y.address ? 1 : 0))
}
