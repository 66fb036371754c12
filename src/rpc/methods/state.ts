import type { BlockRef } from '../../store/chainReader.js'
import { HeaderView } from '../../store/headerView.js'
import type { AccountField } from '../../state/flatStateReader.js'
import type { StateQuery } from '../../vm/stateQuery.js'
import { bytesToHex, equalBytes, hexToBytes, toQuantity } from '../../util/hex.js'
import type { AccountParams, ProofParams, StorageParams, StorageValuesParams } from '../../wire/ethParams.js'
import type { NodeContext } from '../context.js'
import { InvalidParamsError } from '../errors.js'
import { headerNotFound } from '../../store/errors.js'
import { blockIdOf } from '../blockId.js'
import type { BlockNumberOrTagOrHash, Bytes, Hash32, Quantity } from '../../wire/primitives.js'
import type { AccountProofResult } from '../../wire/results.js'

// State reads at the state the flat table holds (the canonical head's: `latest` as a rule) are answered on the
// serving thread from LMDB (state/flatStateReader.ts); any other block's state is a trie walk in the worker pool.
// An omitted block is `latest`.

/** geth's bound on eth_getStorageValues. */
const MAX_STORAGE_SLOTS = 1024
const ADDRESS = /^0x[0-9a-fA-F]{40}$/

/** The block resolved, the flat table read on this thread, the lane for any other state. */
type Ctx = Pick<NodeContext, 'chain' | 'store' | 'flatState' | 'pool'>

function blockOf(ctx: Pick<NodeContext, 'chain'>, block: BlockNumberOrTagOrHash | undefined): BlockRef {
  const ref = ctx.chain.resolve(blockIdOf(block))
  if (ref === undefined) throw headerNotFound()
  return ref
}

/**
 * The state root to read on this thread: the flat table's own for its block (no header to decode), else the block's
 * from its header — the table answers any block with the same state root, and nothing else.
 */
function stateRootOf(ctx: Pick<NodeContext, 'store'>, ref: BlockRef): Uint8Array {
  const flat = ctx.store.flatHead()
  if (flat !== undefined && equalBytes(flat.hash, ref.hash)) return flat.stateRoot
  return HeaderView.read(ctx.store, ref.hash)!.stateRoot
}

/** A storage key as a 32-byte word (clients send quantities and words alike). */
function slotBytes(slot: string): Uint8Array {
  return hexToBytes(`0x${slot.slice(2).padStart(64, '0')}`)
}

const run = (ctx: Pick<NodeContext, 'pool'>, query: StateQuery) => ctx.pool.run({ op: 'state', query })

/**
 * A balance, nonce, code or slot from the lane: a hex string (the lane answers null only for a block without a
 * header, and the block was resolved before asking).
 */
const scalar = (ctx: Pick<NodeContext, 'pool'>, query: StateQuery) => run(ctx, query) as Promise<string>

/** A block parameter that names the canonical head's state, which the flat table usually holds. */
const isHead = (block: unknown): boolean => block === undefined || block === 'latest' || block === 'pending'

function account(kind: AccountField, [address, block]: AccountParams, ctx: Ctx): string | Promise<string> {
  if (isHead(block)) {
    const text = ctx.flatState.headAccount(kind, address)
    if (text !== undefined) return text
  }
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
  return scalar(ctx, { kind, blockHash: ref.hash, address: addr })
}

/**
 * An account read's reply kept at the head (MethodDef.kept): [address] or [address, a head tag], `pending` only where
 * it names the same state (not for a nonce, which counts the pool's transactions there).
 */
function keptAccount(field: AccountField, params: readonly unknown[], ctx: Pick<NodeContext, 'flatState'>, pendingToo: boolean): string | undefined {
  const address = params[0]
  if (typeof address !== 'string') return undefined
  const n = params.length
  if (n !== 1 && !(n === 2 && (pendingToo ? isHead(params[1]) : params[1] === 'latest'))) return undefined
  return ctx.flatState.keptAccount(field, address)
}

type FlatCtx = Pick<NodeContext, 'flatState'>
export const keptBalance = (params: readonly unknown[], ctx: FlatCtx) => keptAccount('balance', params, ctx, true)
export const keptCode = (params: readonly unknown[], ctx: FlatCtx) => keptAccount('code', params, ctx, true)
export const keptTransactionCount = (params: readonly unknown[], ctx: FlatCtx) => keptAccount('nonce', params, ctx, false)

/** A storage read's reply kept at the head: [address, slot] or [address, slot, a head tag]. */
export function keptStorageAt(params: readonly unknown[], ctx: FlatCtx): string | undefined {
  const [address, slot] = params
  if (typeof address !== 'string' || typeof slot !== 'string') return undefined
  const n = params.length
  if (n !== 2 && !(n === 3 && isHead(params[2]))) return undefined
  return ctx.flatState.keptSlot(address, slot)
}

export const balance = (p: AccountParams, ctx: Ctx): Quantity | Promise<Quantity> => account('balance', p, ctx)
/** At `pending`, the nonce after the sender's pending transactions in the pool, as geth answers it. */
export function transactionCount(p: AccountParams, ctx: Ctx & Pick<NodeContext, 'txPool'>): Quantity | Promise<Quantity> {
  const onChain = account('nonce', p, ctx)
  if (p[1] !== 'pending') return onChain
  const pool = ctx.txPool
  // A reader holds no pool: its pending nonce is the head's (readerTable.ts asks the upstream instead when it has one).
  if (pool === undefined) return onChain
  const next = (nonce: string) => toQuantity(pool.nextNonce(p[0].toLowerCase(), BigInt(nonce)))
  // Answered in this turn when the nonce is: a promise costs the envelope a reply buffer of its own.
  return typeof onChain === 'string' ? next(onChain) : onChain.then(next)
}
export const code = (p: AccountParams, ctx: Ctx): Bytes | Promise<Bytes> => account('code', p, ctx)

export function storageAt([address, slot, block]: StorageParams, ctx: Ctx): Hash32 | Promise<Hash32> {
  if (isHead(block)) {
    const text = ctx.flatState.headSlot(address, slot)
    if (text !== undefined) return text
  }
  const ref = blockOf(ctx, block)
  const addr = hexToBytes(address)
  const key = slotBytes(slot)
  const word = ctx.flatState.slot(stateRootOf(ctx, ref), addr, key)
  if (word !== undefined) return bytesToHex(word)
  return scalar(ctx, { kind: 'storage', blockHash: ref.hash, address: addr, slot: key })
}

/** Every asked slot from the flat table; undefined when the table does not hold this state (then no slot is there). */
function flatSlots(ctx: Ctx, root: Uint8Array, entries: { address: Uint8Array; slots: Uint8Array[] }[]): string[][] | undefined {
  const out: string[][] = []
  for (const e of entries) {
    const values: string[] = []
    for (const s of e.slots) {
      const word = ctx.flatState.slot(root, e.address, s)
      if (word === undefined) return undefined
      values.push(bytesToHex(word))
    }
    out.push(values)
  }
  return out
}

/** eth_getStorageValues: for each address, its slots' values in the order asked. */
export function storageValues([slots, block]: StorageValuesParams, ctx: Ctx): Record<string, Hash32[]> | Promise<Record<string, Hash32[]>> {
  const addresses = Object.keys(slots)
  if (addresses.length === 0) throw new InvalidParamsError('empty request')
  let total = 0
  for (const a of addresses) {
    if (!ADDRESS.test(a)) throw new InvalidParamsError(`invalid address ${a.slice(0, 50)}`)
    total += slots[a]!.length
  }
  if (total > MAX_STORAGE_SLOTS) throw new InvalidParamsError(`too many slots (max ${MAX_STORAGE_SLOTS})`)
  const byAddress = (values: string[][]) => Object.fromEntries(addresses.map((a, i) => [a, values[i]!]))
  const head = isHead(block) ? ctx.flatState.headSlots(slots, addresses) : undefined
  if (head !== undefined) return byAddress(head)
  const ref = blockOf(ctx, block)
  const entries = addresses.map((a) => ({ address: hexToBytes(a), slots: slots[a]!.map(slotBytes) }))
  const flat = flatSlots(ctx, stateRootOf(ctx, ref), entries)
  if (flat !== undefined) return byAddress(flat)
  return run(ctx, { kind: 'storageValues', blockHash: ref.hash, entries }).then((values) => {
    if (values === null) throw headerNotFound()
    return byAddress(values as string[][])
  })
}

/** geth's bound on eth_getProof's storage keys. */
const MAX_PROOF_KEYS = 1024

/**
 * A storage key echoed in eth_getProof's reply as geth echoes it: a key given as 32 bytes as those bytes, any other
 * as the quantity it names.
 */
function echoedKey(key: string): string {
  const digits = key.slice(2).toLowerCase()
  if (digits.length > 62) return `0x${digits.padStart(64, '0')}`
  return toQuantity(BigInt(key))
}

/** eth_getProof (EIP-1186). */
export function proof([address, keys, block]: ProofParams, ctx: Pick<NodeContext, 'chain' | 'pool'>): Promise<AccountProofResult> {
  if (keys.length > MAX_PROOF_KEYS) throw new InvalidParamsError(`too many storage keys requested (max ${MAX_PROOF_KEYS}, got ${keys.length})`)
  const blockHash = blockOf(ctx, block).hash
  const query: StateQuery = { kind: 'proof', blockHash, address: hexToBytes(address), slots: keys.map(slotBytes), keys: keys.map(echoedKey) }
  return run(ctx, query) as Promise<unknown> as Promise<AccountProofResult>
}
