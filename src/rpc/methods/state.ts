import type { BlockRef } from '../../store/chainReader.js'
import { HeaderView } from '../../store/headerView.js'
import type { StateQuery } from '../../state/stateReader.js'
import { bytesToHex, equalBytes, hexToBytes, toQuantity } from '../../util/hex.js'
import type { AccountParams, ProofParams, StorageParams, StorageValuesParams } from '../../wire/ethParams.js'
import type { NodeContext } from '../context.js'
import { InvalidParamsError, ServerError } from '../errors.js'
import type { Reply } from '../reply.js'
import { blockIdOf } from '../blockId.js'
import type { BlockNumberOrTagOrHash } from '../../wire/primitives.js'

// State reads at the state the flat table holds (the last stored block: `latest` as a rule) are answered on the
// serving thread from LMDB (state/flatStateReader.ts); any other block's state is a trie walk in the worker pool.
// An omitted block is `latest`.

/** geth's bound on eth_getStorageValues. */
const MAX_STORAGE_SLOTS = 1024
const ADDRESS = /^0x[0-9a-fA-F]{40}$/

function blockOf(ctx: NodeContext, block: BlockNumberOrTagOrHash | undefined): BlockRef {
  const ref = ctx.chain.resolve(blockIdOf(block))
  if (ref === undefined) throw new ServerError('header not found')
  return ref
}

/**
 * The state root to read on this thread: the flat table's own for its block (no header to decode), else the block's
 * from its header — the table answers any block with the same state root, and nothing else.
 */
function stateRootOf(ctx: NodeContext, ref: BlockRef): Uint8Array {
  const flat = ctx.store.flatHead()
  if (flat !== undefined && equalBytes(flat.hash, ref.hash)) return flat.stateRoot
  return HeaderView.read(ctx.store, ref.hash)!.stateRoot
}

/** A storage key as a 32-byte word (clients send quantities and words alike). */
function slotBytes(slot: string): Uint8Array {
  return hexToBytes(`0x${slot.slice(2).padStart(64, '0')}`)
}

const run = (ctx: NodeContext, query: StateQuery) => ctx.pool.run({ op: 'state', query })

function account(kind: 'balance' | 'nonce' | 'code', [address, block]: AccountParams, ctx: NodeContext): Reply | Promise<Reply> {
  const ref = blockOf(ctx, block)
  const addr = hexToBytes(address)
  const root = stateRootOf(ctx, ref)
  if (kind === 'code') {
    const code = ctx.flatState.code(root, addr)
    if (code !== undefined) return bytesToHex(code)
  } else {
    const a = ctx.flatState.account(root, addr)
    if (a !== undefined) return toQuantity(a === null ? 0n : kind === 'balance' ? a.balance : a.nonce)
  }
  return run(ctx, { kind, blockHash: ref.hash, address: addr })
}

export const balance = (p: AccountParams, ctx: NodeContext): Reply | Promise<Reply> => account('balance', p, ctx)
/** At `pending`, the nonce after the sender's pending transactions in the pool, as geth answers it. */
export async function transactionCount(p: AccountParams, ctx: NodeContext): Promise<Reply> {
  const onChain = await account('nonce', p, ctx)
  if (p[1] !== 'pending' || typeof onChain !== 'string') return onChain
  return toQuantity(ctx.txPool.nextNonce(p[0].toLowerCase(), BigInt(onChain)))
}
export const code = (p: AccountParams, ctx: NodeContext): Reply | Promise<Reply> => account('code', p, ctx)

export function storageAt([address, slot, block]: StorageParams, ctx: NodeContext): Reply | Promise<Reply> {
  const ref = blockOf(ctx, block)
  const addr = hexToBytes(address)
  const key = slotBytes(slot)
  const word = ctx.flatState.slot(stateRootOf(ctx, ref), addr, key)
  if (word !== undefined) return bytesToHex(word)
  return run(ctx, { kind: 'storage', blockHash: ref.hash, address: addr, slot: key })
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
  const ref = blockOf(ctx, block)
  const entries = addresses.map((a) => ({ address: hexToBytes(a), slots: slots[a]!.map(slotBytes) }))
  const root = stateRootOf(ctx, ref)
  const flat: string[][] = []
  for (const e of entries) {
    const values: string[] = []
    for (const s of e.slots) {
      const word = ctx.flatState.slot(root, e.address, s)
      if (word === undefined) break
      values.push(bytesToHex(word))
    }
    if (values.length < e.slots.length) break
    flat.push(values)
  }
  const values = flat.length === entries.length ? flat : ((await run(ctx, { kind: 'storageValues', blockHash: ref.hash, entries })) as string[][] | null)
  if (values === null) throw new ServerError('header not found')
  return Object.fromEntries(addresses.map((a, i) => [a, values[i]!]))
}

/** eth_getProof (EIP-1186). */
export function proof([address, keys, block]: ProofParams, ctx: NodeContext): Promise<Reply> {
  const blockHash = blockOf(ctx, block).hash
  return run(ctx, { kind: 'proof', blockHash, address: hexToBytes(address), slots: keys.map(slotBytes), keys })
}
