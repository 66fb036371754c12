/**
 * The LMDB key layout: every named database Sponge keeps in `<datadir>/chain.mdb`, and the shape of its keys and
 * values. Names are never reused for another meaning; a new kind of record gets a new database.
 *
 * | database     | key                              | value                                                     |
 * |--------------|----------------------------------|-----------------------------------------------------------|
 * | `meta`       | ascii name                       | `head`, `safe`, `finalized`, `genesis`: a 32-byte block hash; `chainId`: ascii decimal; `logsIndexed`: present once every stored block's logs are indexed; `flatHead`: block hash ‖ state root of the flat table's block |
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
 * | `blockLogs`  | block hash (32)                  | the block's logs: address, topics and reply JSON of each (logs/blockLogs.ts) |
 * | `logIndex`   | kind ‖ address or topic ‖ number ‖ block hash | 0x01: the block logged that address or topic at that position (logs/blockLogs.ts) |
 * | `flatAccounts` | address (20)                   | account RLP, as the state trie holds it, in the flat head's post-state (store/flatState.ts) |
 * | `flatStorage`  | address (20) ‖ keccak256(slot) (32) | the slot's RLP-encoded value, as its storage trie holds it, in the flat head's post-state |
 * | `stateDiffs`   | block number (8) ‖ block hash (32) | the block's state changes (store/stateChanges.ts), kept for the flat window |
 * | `stateUndo`    | block number (8) ‖ block hash (32) | what applying them to the flat table replaced, kept for the flat window |
 *
 * Receipts and transaction JSON are written once, when the block is executed, inside the same write transaction as
 * its header, body and state: a block is known only when all of it is durable. Reads never re-execute anything;
 * a receipt lookup is two B-tree reads (`txIndex`, then `receipts`). Logs and their index too: a query over a range
 * reads the index keys of what it asks for, not the blocks in between.
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
  'blockLogs',
  'logIndex',
  'flatAccounts',
  'flatStorage',
  'stateDiffs',
  'stateUndo',
] as const

export type DatabaseName = (typeof DATABASES)[number]

/** `trie` keys of contract code: `c` ‖ code hash (the prefix EthereumJS's state manager used, kept for the stores written so far). */
export const CODE_PREFIX = Uint8Array.of(0x63)

// Key codecs write bytes by hand: a DataView over a small Uint8Array forces V8 to move it off-heap (about 1.5 µs a
// key, measured), which showed up on the receipt read path.

export function numberKey(n: bigint | number): Uint8Array {
  const v = BigInt(n)
  if (v < 0n || v > 0xffff_ffff_ffff_ffffn) throw new RangeError(`block number out of range: ${n}`)
  const k = new Uint8Array(8)
  writeUint32(k, 0, Number(v >> 32n))
  writeUint32(k, 4, Number(v & 0xffff_ffffn))
  return k
}

export function readNumberKey(k: Uint8Array): bigint {
  return (BigInt(readUint32(k, 0)) << 32n) | BigInt(readUint32(k, 4))
}

/** The stored index of a transaction in its block is a uint32: a larger quantity names no transaction. */
export const MAX_TX_INDEX = 0xffff_ffff

export function indexedKey(blockHash: Uint8Array, index: number): Uint8Array {
  return writeIndexedKey(new Uint8Array(36), blockHash, index)
}

/** indexedKey into a caller's 36-byte buffer (reused on hot paths). */
export function writeIndexedKey(into: Uint8Array, blockHash: Uint8Array, index: number): Uint8Array {
  into.set(blockHash, 0)
  writeUint32(into, 32, index)
  return into
}

export function writeUint32(k: Uint8Array, at: number, v: number): void {
  k[at] = v >>> 24
  k[at + 1] = (v >>> 16) & 0xff
  k[at + 2] = (v >>> 8) & 0xff
  k[at + 3] = v & 0xff
}

export function readUint32(k: Uint8Array, at: number): number {
  return ((k[at]! << 24) | (k[at + 1]! << 16) | (k[at + 2]! << 8) | k[at + 3]!) >>> 0
}

export function txLocationValue(blockHash: Uint8Array, index: number): Uint8Array {
  return indexedKey(blockHash, index)
}

export function readTxLocation(v: Uint8Array): { blockHash: Uint8Array; index: number } {
  return {
    blockHash: v.slice(0, 32),
    index: readUint32(v, 32),
  }
}
