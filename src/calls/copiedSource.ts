import type { AccountData } from '../evm/state.js'
import type { StoredStateSource } from '../vm/stateSources.js'

/**
 * A stored state whose accounts' hashes are the caller's own. The flat table's accounts decode to views of LMDB's
 * read buffer (vm/accountCodec.ts slices a Buffer, which does not copy), and the next read overwrites them: a
 * simulation keeps code hashes in its state across many reads, and its state roots start from storage roots read
 * before the tries' nodes are.
 */
export function copiedSource(source: StoredStateSource): StoredStateSource {
  return {
    account(address: bigint): AccountData | undefined {
      const a = source.account(address)
      return a === undefined ? undefined : { nonce: a.nonce, balance: a.balance, codeHash: Uint8Array.from(a.codeHash) }
    },
    code: (codeHash, address) => source.code(codeHash, address),
    storage: (address, slot) => source.storage(address, slot),
    hasStorage: (address) => source.hasStorage(address),
    storageRoot: (address) => Uint8Array.from(source.storageRoot(address)),
  }
}
