import type { Common } from '@ethereumjs/common'
import { keccak256 } from '../crypto/keccak.js'
import { bytesToHex, hexToBytes } from '../util/hex.js'
import { addressOfKey, decodeBlockTx, recoverSenderKey, type SignedTx, senderOf, signingRulesOf } from './blockTx.js'

// Sender recovery of a payload's transactions, shared between the engine worker that executes the payload and a
// public worker that helps it, through shared memory: a counter from which both claim chunks of transactions, and
// each transaction's status and sender public key. The helper claims chunks from the front as soon as it starts;
// the engine worker asks for each transaction's sender in its turn (evmBlock.ts), so that execution overlaps the
// helper's recovery. A transaction is recovered by whichever thread takes it first (its status, compared and
// exchanged): the engine worker takes the one it needs when nobody has, even in a chunk the helper claimed, and
// while the helper is recovering that one it recovers a chunk nobody claimed instead. It never waits: a sender the
// helper is still recovering once nothing is left to claim is recovered again here, so a helper that never starts
// (the public lane is busy), starts late, is descheduled or dies costs at most a few recoveries of its last chunk
// made twice.
//
// Layout of the SharedArrayBuffer: Int32 [next unclaimed index, status of each transaction…], then 64 bytes of
// public key per transaction.

/** A block's transaction's sender by its index, asked in the transactions' order; undefined where none recovers. */
export type SenderAt = (index: number) => Uint8Array | undefined

const PENDING = 0
const DONE = 1
const FAILED = 2
/** Taken by a thread that is recovering it. */
const RECOVERING = 3
const CHUNK = 16
const KEY_BYTES = 64
/** What a recovery that found no key writes: the transaction is marked failed. */
const NO_KEY = new Uint8Array(0)

export function createSenderSlots(count: number): SharedArrayBuffer {
  return new SharedArrayBuffer(4 * (1 + count) + KEY_BYTES * count)
}

function view(slots: SharedArrayBuffer): { control: Int32Array; keys: Uint8Array; count: number } {
  const count = (slots.byteLength - 4) / (4 + KEY_BYTES)
  return { control: new Int32Array(slots, 0, 1 + count), keys: new Uint8Array(slots, 4 * (1 + count)), count }
}

/**
 * Keys known before anyone claims — the pool recovered them when it admitted the transactions — so nobody recovers
 * those again. `known` looks a transaction up by its hash. Returns how many were known.
 */
export function putKnownSenders(slots: SharedArrayBuffer, transactions: string[], known: (hash: string) => Uint8Array | undefined): number {
  const { control, keys } = view(slots)
  let found = 0
  transactions.forEach((raw, i) => {
    const key = known(bytesToHex(keccak256(hexToBytes(raw))))
    if (key?.length !== KEY_BYTES) return
    keys.set(key, i * KEY_BYTES)
    Atomics.store(control, 1 + i, DONE)
    found++
  })
  return found
}

/**
 * Recovers transaction `i`'s sender public key with `recover` unless another thread took it; one it cannot recover
 * is marked failed (the block's run recovers it again, and gives its verdict).
 */
function take(control: Int32Array, keys: Uint8Array, i: number, recover: (index: number) => Uint8Array): void {
  if (Atomics.compareExchange(control, 1 + i, PENDING, RECOVERING) !== PENDING) return
  let key: Uint8Array | undefined
  try {
    key = recover(i)
  } catch {
    key = undefined
  }
  if (key?.length === KEY_BYTES) keys.set(key, i * KEY_BYTES)
  Atomics.store(control, 1 + i, key?.length === KEY_BYTES ? DONE : FAILED)
}

/** Claims the next chunk nobody claimed and takes each of its transactions; false when every chunk was claimed. */
function claimChunk(slots: SharedArrayBuffer, recover: (index: number) => Uint8Array): boolean {
  const { control, keys, count } = view(slots)
  if (Atomics.load(control, 0) >= count) return false
  const start = Atomics.add(control, 0, CHUNK)
  if (start >= count) return false
  for (let i = start; i < Math.min(count, start + CHUNK); i++) take(control, keys, i, recover)
  return true
}

/** Claims chunks until none is left (the helper's loop). */
export function recoverSenders(slots: SharedArrayBuffer, recover: (index: number) => Uint8Array): void {
  while (claimChunk(slots, recover));
}

/**
 * The engine worker's side: each transaction's sender in its turn, from the key the helper or the pool put in
 * `slots`, else recovered here from its signing hash (blockTx.ts).
 */
export function sharedSenders(slots: SharedArrayBuffer, txs: readonly SignedTx[]): SenderAt {
  const { control, keys } = view(slots)
  const recover = (i: number) => recoverSenderKey(txs[i]!) ?? NO_KEY
  return (i) => {
    const tx = txs[i]!
    if (tx.sender !== undefined) return tx.sender
    take(control, keys, i, recover)
    // The helper is recovering it: work nobody claimed meanwhile.
    while (Atomics.load(control, 1 + i) === RECOVERING && claimChunk(slots, recover));
    // Failed, or still with the helper: recovered (again) here.
    if (Atomics.load(control, 1 + i) !== DONE) return senderOf(tx)
    tx.sender = addressOfKey(keys.slice(i * KEY_BYTES, (i + 1) * KEY_BYTES))
    return tx.sender
  }
}

/** Each transaction's sender recovered here, in its turn: a block with no helper. */
export const ownSenders =
  (txs: readonly SignedTx[]): SenderAt =>
  (i) =>
    senderOf(txs[i]!)

/**
 * The helper's side: recovers the senders of the payload's raw transactions it claims, decoded as the engine worker
 * decodes them (blockTx.ts); one that does not decode or recover is marked failed, and the block's run gives its
 * verdict.
 */
export function recoverRawSenders(slots: SharedArrayBuffer, transactions: string[], common: Common): void {
  const rules = signingRulesOf(common)
  recoverSenders(slots, (i) => recoverSenderKey(decodeBlockTx(hexToBytes(transactions[i]!), rules)) ?? NO_KEY)
}
