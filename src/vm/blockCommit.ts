import type { AccountChange } from '../evm/state.js'
import { EMPTY_CODE_HASH } from '../evm/state.js'
import { addressToBytes } from '../evm/words.js'
import type { ChainStore, TrieNodeWrite } from '../store/chainStore.js'
import { CODE_PREFIX } from '../store/layout.js'
import { ACCOUNT, ChangeWriter, SLOT, WIPE } from '../store/stateChanges.js'
import { equalBytes } from '../util/hex.js'
import { stateRootAfter } from './stateRoot.js'
import type { StoredStateSource } from './stateSources.js'

// What a block executed on Sponge's EVM writes to the store, from the EVM's change set: the new trie nodes and the
// code it deployed (keyed as the store's `trie` database keys them: the node's hash, CODE_PREFIX ‖ the code's hash),
// the flat table's change list (store/stateChanges.ts), and the state root they make.

export interface BlockCommit {
  stateRoot: Uint8Array
  trieNodes: TrieNodeWrite[]
  stateChanges: Uint8Array
  /** Each changed account as it now is, with its storage root: what the next block's warm state starts from. */
  accounts: CommittedAccount[]
}

export interface CommittedAccount {
  change: AccountChange
  storageRoot: Uint8Array
}

/**
 * The changes that change something: a block's change set also holds what it only read (the slots of every account
 * a transaction touched, accounts touched and left as they were), and each of those put into a trie would hash its
 * whole path again for nothing. Compared with the parent's values, which the block read through `source` already.
 */
function changed(changes: readonly AccountChange[], source: StoredStateSource): AccountChange[] {
  const out: AccountChange[] = []
  for (const c of changes) {
    if (c.storageWiped) {
      out.push(c)
      continue
    }
    let storage = c.storage
    for (const [slot, value] of c.storage) {
      if (source.storage(c.address, slot) !== value) continue
      if (storage === c.storage) storage = new Map(c.storage)
      storage.delete(slot)
    }
    const before = source.account(c.address)
    const a = c.account
    const same =
      a === undefined
        ? before === undefined
        : before !== undefined && before.nonce === a.nonce && before.balance === a.balance && equalBytes(before.codeHash, a.codeHash)
    if (same && storage.size === 0) continue
    out.push(storage === c.storage ? c : { ...c, storage })
  }
  return out
}

export function commitBlockState(
  parentRoot: Uint8Array,
  changes: readonly AccountChange[],
  source: StoredStateSource,
  store: Pick<ChainStore, 'getTrieNode'>,
): BlockCommit {
  const trieNodes: TrieNodeWrite[] = []
  const out = new ChangeWriter()
  const accounts: CommittedAccount[] = []
  const codeKey = new Uint8Array(CODE_PREFIX.length + 32)
  codeKey.set(CODE_PREFIX)
  const stateRoot = stateRootAfter(
    parentRoot,
    changed(changes, source),
    (a) => source.storageRoot(a),
    (h) => store.getTrieNode(h),
    (hash, encoded) => trieNodes.push([hash, encoded]),
    (c, rlp, storageRoot, slots) => {
      accounts.push({ change: c, storageRoot })
      const address = addressToBytes(c.address)
      // A deleted account, or one whose storage was cleared (destroyed, or created over an old address): its old
      // slots go first, then whatever it holds now.
      if (rlp === undefined || c.storageWiped) out.add(WIPE, address, undefined)
      if (rlp !== undefined) {
        for (const { hashedSlot, rlp: value } of slots) {
          const key = new Uint8Array(52)
          key.set(address, 0)
          key.set(hashedSlot, 20)
          if (value !== undefined) out.add(SLOT, key, value)
          else if (!c.storageWiped) out.add(SLOT, key, undefined)
        }
        const code = c.account!.code
        if (code !== undefined && code.length > 0 && c.account!.codeHash !== EMPTY_CODE_HASH) {
          codeKey.set(c.account!.codeHash, CODE_PREFIX.length)
          // Code already stored (an old contract whose code the block ran) is not written again.
          if (store.getTrieNode(codeKey) === undefined) trieNodes.push([codeKey.slice(), code])
        }
      }
      out.add(ACCOUNT, address, rlp)
    },
  )
  return { stateRoot, trieNodes, stateChanges: out.finish(), accounts }
}
