import type { Common } from '@ethereumjs/common'
import { keccak256 } from '../crypto/keccak.js'
import { bytesToHex, hexToBytes } from '../util/hex.js'
import { blockPhases, Phase } from '../util/blockPhases.js'
import { addressOfKey, decodeBlockTx, recoverSenderKey, type SignedTx, signingRulesOf } from './blockTx.js'

// Sender recovery of a payload's transactions, shared between the engine worker that executes the payload and a
// public worker that helps it. Both claim chunks of transactions from one counter in shared memory and write each
// sender's public key there; the engine worker then takes the keys the helper recovered. A helper that never
// starts (the public lane is busy) costs nothing: the engine worker claims every chunk itself.
//
// Layout of the SharedArrayBuffer: Int32 [next unclaimed index, status of each transaction…], then 64 bytes of
// public key per transaction.

const PENDING = 0
const DONE = 1
const FAILED = 2
const CHUNK = 16
const KEY_BYTES = 64
/** What a recovery that found no key writes: the transaction is marked failed. */
const NO_KEY = new Uint8Array(0)
/** How long the engine worker waits for a transaction the helper claimed, once, before recovering the rest itself. */
const HELPER_WAIT_MS = 2000

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
 * Claims chunks until none is left and recovers each claimed transaction's sender public key with `recover`; a
 * transaction it cannot recover is marked failed (EthereumJS recovers it again when asked, and gives its verdict).
 */
export function recoverSenders(slots: SharedArrayBuffer, recover: (index: number) => Uint8Array): void {
  const { control, keys, count } = view(slots)
  for (;;) {
    const start = Atomics.add(control, 0, CHUNK)
    if (start >= count) return
    for (let i = start; i < Math.min(count, start + CHUNK); i++) {
      if (Atomics.load(control, 1 + i) !== PENDING) continue
      let key: Uint8Array | undefined
      try {
        key = recover(i)
      } catch {
        key = undefined
      }
      if (key?.length === KEY_BYTES) keys.set(key, i * KEY_BYTES)
      Atomics.store(control, 1 + i, key?.length === KEY_BYTES ? DONE : FAILED)
      Atomics.notify(control, 1 + i)
    }
  }
}

/**
 * The engine worker's side: recovers what the helper has not claimed, from each transaction's signing hash
 * (blockTx.ts), then gives each transaction the sender whose key the helper or the pool found for it. Returns how
 * many it was given.
 */
export function takeSenders(slots: SharedArrayBuffer, txs: readonly SignedTx[]): number {
  const phases = blockPhases
  const m = phases?.mark()
  recoverSenders(slots, (i) => recoverSenderKey(txs[i]!) ?? NO_KEY)
  const { control, keys } = view(slots)
  let helped = 0
  let waiting = true
  for (let i = 0; i < txs.length; i++) {
    const tx = txs[i]!
    if (tx.sender !== undefined) continue
    // A chunk the helper claimed and is still working on: a short wait. A helper that died mid-chunk: one timeout,
    // then the block's run recovers whatever is left.
    while (waiting && Atomics.load(control, 1 + i) === PENDING) {
      if (Atomics.wait(control, 1 + i, PENDING, HELPER_WAIT_MS) === 'timed-out') waiting = false
    }
    if (Atomics.load(control, 1 + i) !== DONE) continue
    tx.sender = addressOfKey(keys.slice(i * KEY_BYTES, (i + 1) * KEY_BYTES))
    helped++
  }
  if (m !== undefined) phases!.end(Phase.senders, m)
  return helped
}

/**
 * The helper's side: recovers the senders of the payload's raw transactions it claims, decoded as the engine worker
 * decodes them (blockTx.ts); one that does not decode or recover is marked failed, and the block's run gives its
 * verdict.
 */
export function recoverRawSenders(slots: SharedArrayBuffer, transactions: string[], common: Common): void {
  const rules = signingRulesOf(common)
  recoverSenders(slots, (i) => recoverSenderKey(decodeBlockTx(hexToBytes(transactions[i]!), rules)) ?? NO_KEY)
}
