import type { NodeContext } from '../../node/context.js'
import type { BlockSelector } from '../../store/chainReader.js'
import { hexToBytes, toQuantity } from '../../util/hex.js'
import { ServerError } from '../errors.js'
import type { Reply } from '../reply.js'
import type { AccountParams, StorageParams } from '../wire/ethParams.js'

// State reads walk the trie (hashing keys, decoding nodes): they run in the worker pool.

function blockHashOf(ctx: NodeContext, sel: BlockSelector): Uint8Array {
  const ref = ctx.chain.resolve(sel)
  if (ref === undefined) throw new ServerError('header not found')
  return ref.hash
}

async function account(kind: 'balance' | 'nonce' | 'code', [address, block]: AccountParams, ctx: NodeContext) {
  const blockHash = blockHashOf(ctx, block as BlockSelector)
  return ctx.pool.run({ op: 'state', query: { kind, blockHash, address: hexToBytes(address) } })
}

export const balance = (p: AccountParams, ctx: NodeContext): Promise<Reply> => account('balance', p, ctx)
/** At `pending`, the nonce after the sender's pending transactions in the pool, as geth answers it. */
export async function transactionCount(p: AccountParams, ctx: NodeContext): Promise<Reply> {
  const onChain = await account('nonce', p, ctx)
  if (p[1] !== 'pending' || onChain === null) return onChain
  return toQuantity(ctx.txPool.nextNonce(p[0].toLowerCase(), BigInt(onChain)))
}
export const code = (p: AccountParams, ctx: NodeContext): Promise<Reply> => account('code', p, ctx)

export function storageAt([address, slot, block]: StorageParams, ctx: NodeContext): Promise<Reply> {
  const blockHash = blockHashOf(ctx, block as BlockSelector)
  const hex = slot.slice(2).padStart(64, '0')
  return ctx.pool.run({
    op: 'state',
    query: { kind: 'storage', blockHash, address: hexToBytes(address), slot: Buffer.from(hex, 'hex') },
  })
}
