import type { NodeContext } from '../context.js'
import type { BlockSelector } from '../../store/chainReader.js'
import { hexToBytes, toQuantity } from '../../util/hex.js'
import type { StateQuery } from '../../state/stateReader.js'
import { InvalidParamsError, ServerError } from '../errors.js'
import type { Reply } from '../reply.js'
import type { AccountParams, ProofParams, StorageParams, StorageValuesParams } from '../../wire/ethParams.js'

// State reads walk the trie (hashing keys, decoding nodes): they run in the worker pool. An omitted block is `latest`.

/** geth's bound on eth_getStorageValues. */
const MAX_STORAGE_SLOTS = 1024
const ADDRESS = /^0x[0-9a-fA-F]{40}$/

function blockHashOf(ctx: NodeContext, sel: BlockSelector | undefined): Uint8Array {
  const ref = ctx.chain.resolve(sel ?? 'latest')
  if (ref === undefined) throw new ServerError('header not found')
  return ref.hash
}

/** A storage key as a 32-byte word (clients send quantities and words alike). */
function slotBytes(slot: string): Uint8Array {
  return hexToBytes(`0x${slot.slice(2).padStart(64, '0')}`)
}

const run = (ctx: NodeContext, query: StateQuery) => ctx.pool.run({ op: 'state', query })

async function account(kind: 'balance' | 'nonce' | 'code', [address, block]: AccountParams, ctx: NodeContext) {
  return run(ctx, { kind, blockHash: blockHashOf(ctx, block as BlockSelector | undefined), address: hexToBytes(address) })
}

export const balance = (p: AccountParams, ctx: NodeContext): Promise<Reply> => account('balance', p, ctx)
/** At `pending`, the nonce after the sender's pending transactions in the pool, as geth answers it. */
export async function transactionCount(p: AccountParams, ctx: NodeContext): Promise<Reply> {
  const onChain = await account('nonce', p, ctx)
  if (p[1] !== 'pending' || typeof onChain !== 'string') return onChain
  return toQuantity(ctx.txPool.nextNonce(p[0].toLowerCase(), BigInt(onChain)))
}
export const code = (p: AccountParams, ctx: NodeContext): Promise<Reply> => account('code', p, ctx)

export function storageAt([address, slot, block]: StorageParams, ctx: NodeContext): Promise<Reply> {
  const blockHash = blockHashOf(ctx, block as BlockSelector | undefined)
  return run(ctx, { kind: 'storage', blockHash, address: hexToBytes(address), slot: slotBytes(slot) })
}

/** eth_getStorageValues: for each address, its slots' values in the order asked. */
export async function storageValues([slots, block]: StorageValuesParams, ctx: NodeContext): Promise<Reply> {
  const addresses = Object.keys(slots)
  if (addresses.length === 0) throw new InvalidParamsError('empty request')
  let total = 0
  for (const a of addresses) {
    if (!ADDRESS.test(a)) throw new InvalidParamsError(`invalid address ${a.slice(0, 50)}`)
    total += slots[a]!.length
  }
  if (total > MAX_STORAGE_SLOTS) throw new InvalidParamsError(`too many slots (max ${MAX_STORAGE_SLOTS})`)
  const blockHash = blockHashOf(ctx, block as BlockSelector | undefined)
  const entries = addresses.map((a) => ({ address: hexToBytes(a), slots: slots[a]!.map(slotBytes) }))
  const values = (await run(ctx, { kind: 'storageValues', blockHash, entries })) as string[][] | null
  if (values === null) throw new ServerError('header not found')
  return Object.fromEntries(addresses.map((a, i) => [a, values[i]!]))
}

/** eth_getProof (EIP-1186). */
export function proof([address, keys, block]: ProofParams, ctx: NodeContext): Promise<Reply> {
  const blockHash = blockHashOf(ctx, block as BlockSelector | undefined)
  return run(ctx, { kind: 'proof', blockHash, address: hexToBytes(address), slots: keys.map(slotBytes), keys })
}
