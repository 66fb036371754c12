import { RLP } from '@ethereumjs/rlp'
import { keccak256 } from '../crypto/keccak.js'
import type { AccountChange } from '../evm/state.js'
import { addressToBytes, wordToBytes } from '../evm/words.js'
import type { NodeSink } from '../trie/orderedTrie.js'
import { type NodeLoader, TrieBatch } from '../trie/trieBatch.js'
import { EMPTY_TRIE_ROOT } from './accountCodec.js'

// The state root after the EVM's changes (WorldState.changes): each changed account's storage written into its
// storage trie in one batch (from empty when its storage was wiped), then the accounts into the state trie in one
// batch. Nodes go to `sink` (a block's commit stores them; a simulation keeps none).

/** Where an account's storage trie starts: its root in the state the changes apply to. */
export type StorageRootOf = (address: bigint) => Uint8Array

/** A storage slot as its account's trie keys it (keccak-256 of the slot) and holds it (RLP; undefined when zero). */
export interface SlotWritten {
  hashedSlot: Uint8Array
  rlp: Uint8Array | undefined
}

/**
 * Each account as the state trie now holds it (its RLP, undefined when deleted), for a block's commit to record, with
 * its storage changes in the order of `change.storage` (none for a deleted account).
 */
export type AccountCommitted = (change: AccountChange, rlp: Uint8Array | undefined, storageRoot: Uint8Array, slots: readonly SlotWritten[]) => void

const NO_SLOTS: readonly SlotWritten[] = []

const NO_BYTES = new Uint8Array()

/** The minimal big-endian bytes of a word (empty for zero): RLP's integer form. */
export function minimal(v: bigint): Uint8Array {
  if (v === 0n) return NO_BYTES
  const w = wordToBytes(v)
  let i = 0
  while (w[i] === 0) i++
  return w.subarray(i)
}

/** A nonzero slot value as the storage trie holds it: the RLP string of its minimal bytes. */
function encodeSlotValue(v: bigint): Uint8Array {
  const m = minimal(v)
  if (m.length === 1 && m[0]! < 0x80) return m.slice()
  const out = new Uint8Array(1 + m.length)
  out[0] = 0x80 + m.length
  out.set(m, 1)
  return out
}

export function stateRootAfter(
  root: Uint8Array,
  changes: readonly AccountChange[],
  storageRootOf: StorageRootOf,
  load: NodeLoader,
  sink: NodeSink = () => {},
  committed?: AccountCommitted,
): Uint8Array {
  const accounts = new TrieBatch(root, load)
  for (const c of changes) {
    const key = keccak256(addressToBytes(c.address))
    if (c.account === undefined) {
      accounts.del(key)
      committed?.(c, undefined, EMPTY_TRIE_ROOT, NO_SLOTS)
      continue
    }
    let storageRoot = c.storageWiped ? EMPTY_TRIE_ROOT : storageRootOf(c.address)
    let slots = NO_SLOTS
    if (c.storage.size > 0) {
      const trie = new TrieBatch(storageRoot, load)
      const written: SlotWritten[] = []
      for (const [slot, value] of c.storage) {
        const hashedSlot = keccak256(wordToBytes(slot))
        const rlp = value === 0n ? undefined : encodeSlotValue(value)
        if (rlp === undefined) trie.del(hashedSlot)
        else trie.put(hashedSlot, rlp)
        written.push({ hashedSlot, rlp })
      }
      storageRoot = trie.commit(sink)
      slots = written
    }
    const a = c.account
    const rlp = RLP.encode([minimal(a.nonce), minimal(a.balance), storageRoot, a.codeHash])
    accounts.put(key, rlp)
    committed?.(c, rlp, storageRoot, slots)
  }
  return accounts.commit(sink)
}
