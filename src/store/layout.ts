/**
 * The LMDB key layout: every named database Sponge keeps in `<datadir>/chain.mdb`, and the shape of its keys and
 * values. Names are never reused for another meaning; a new kind of record gets a new database.
 *
 * | database     | key                              | value                                                     |
 * |--------------|----------------------------------|-----------------------------------------------------------|
 * | `meta`       | ascii name                       | `head`, `safe`, `finalized`, `genesis`: a 32-byte block hash; `chainId`: ascii decimal |
 * | `headers`    | block hash (32)                  | RLP of the header                                         |
 * | `bodies`     | block hash (32)                  | RLP of [transactions, uncles, withdrawals?]               |
 * | `numbers`    | block hash (32)                  | block number, uint64 big-endian (8)                       |
 * | `canonical`  | block number, uint64 BE (8)      | block hash (32) of the canonical block at that height     |
 * | `txIndex`    | transaction hash (32)            | canonical block hash (32) ‖ index uint32 BE (4)          |
 * | `blockJson`  | block hash (32)                  | UTF-8 JSON of eth_getBlockBy* without `transactions`, ending before the closing `}` |
 * | `txHashes`   | block hash (32)                  | the block's transaction hashes, 32 bytes each, in order   |
 * | `txJson`     | block hash (32) ‖ index u32 BE   | UTF-8 JSON of the transaction as eth_getTransaction* returns it in that block |
 * | `receipts`   | block hash (32) ‖ index u32 BE   | UTF-8 JSON of the receipt as eth_getTransactionReceipt returns it |
 * | `trie`       | trie node hash (32), or `c`‖code hash (33) | trie node RLP / contract code (EthereumJS MPT keys) |
 * | `invalid`    | block hash (32)                  | UTF-8 JSON {latestValidHash, reason} of a block found invalid |
 *
 * Receipts and transaction JSON are written once, when the block is executed, inside the same write transaction as
 * its header, body and state: a block is known only when all of it is durable. Reads never re-execute anything;
 * a receipt lookup is two B-tree reads (`txIndex`, then `receipts`).
 */
export const DATABASES = [
  'meta',
  'headers',
  'bodies',
  'numbers',
  'canonical',
  'txIndex',
  'blockJson',
  'txHashes',
  'txJson',
  'receipts',
  'trie',
  'invalid',
] as const

export type DatabaseName = (typeof DATABASES)[number]

export function numberKey(n: bigint | number): Uint8Array {
  const k = new Uint8Array(8)
  new DataView(k.buffer).setBigUint64(0, BigInt(n))
  return k
}

export function readNumberKey(k: Uint8Array): bigint {
  return new DataView(k.buffer, k.byteOffset, 8).getBigUint64(0)
}

export function indexedKey(blockHash: Uint8Array, index: number): Uint8Array {
  const k = new Uint8Array(36)
  k.set(blockHash, 0)
  new DataView(k.buffer).setUint32(32, index)
  return k
}

export function txLocationValue(blockHash: Uint8Array, index: number): Uint8Array {
  return indexedKey(blockHash, index)
}

export function readTxLocation(v: Uint8Array): { blockHash: Uint8Array; index: number } {
  return {
    blockHash: v.subarray(0, 32),
    index: new DataView(v.buffer, v.byteOffset + 32, 4).getUint32(0),
  }
}
