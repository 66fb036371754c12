import type { EventEmitter } from 'node:events'
import { join } from 'node:path'
import { type Database, type RootDatabase, open } from 'lmdb'
import { type FlatDbs, type FlatHead, flatHeadIsAt, followHead, readFlatHead, recordFlatChanges, seedFlatState } from './flatState.js'
import { DATABASES, type DatabaseName, indexedKey, numberKey, readNumberKey, readTxLocation, txLocationValue, writeIndexedKey } from './layout.js'
import { makeDirs } from '../util/makeDirs.js'
import { equalBytes } from '../util/hex.js'
import { storeWriteError } from './writeFailure.js'
import { blockPhases, Phase } from '../util/blockPhases.js'

/** Everything one executed block adds to the store, written in one transaction. */
export interface BlockRecord {
  hash: Uint8Array
  number: bigint
  headerRlp: Uint8Array
  bodyRlp: Uint8Array
  txHashes: Uint8Array[]
  /** JSON text of the block without transactions, up to (not including) the closing brace. */
  blockJson: string
  /** Each transaction's reply, UTF-8 JSON. */
  txJson: Uint8Array[]
  receiptJson: Uint8Array[]
  /** The block's logs (logs/blockLogs.ts), when it has any. */
  logs: Uint8Array | undefined
  /** Its keys in the log index (logs/blockLogs.ts). */
  logKeys: Uint8Array[]
  /**
   * Trie nodes and code written while executing the block, [key, value] as the trie database keys them (a node by
   * its hash, code by CODE_PREFIX ‖ its hash). A pair may come twice (the same node made twice): put twice, the same.
   */
  trieNodes: TrieNodeWrite[]
  parentHash: Uint8Array
  stateRoot: Uint8Array
  /**
   * The block's state changes (store/stateChanges.ts) for the flat table; for genesis, its whole state. Without
   * them the flat table cannot follow the block when it becomes the head, and stays where it is.
   */
  stateChanges: Uint8Array | undefined
}

export type TrieNodeWrite = [key: Uint8Array, value: Uint8Array]

export interface InvalidRecord {
  /** Hex hash of the latest valid ancestor. */
  latestValidHash: string
  reason: string
}

/**
 * ChainStore's read side: what the serving thread's method handlers are given (src/rpc/context.ts). Writes go
 * through the engine, the pool and the executor, never through a handler.
 */
export type ChainStoreReads = Omit<
  ChainStore,
  | 'close'
  | 'refreshSnapshot'
  | 'staleReaders'
  | 'db'
  | 'putBlockSync'
  | 'putCanonicalHeadSync'
  | 'putGenesisSync'
  | 'putBlockLogsSync'
  | 'markInvalidSync'
>

export type ForkchoiceLabel = 'head' | 'safe' | 'finalized'

/** A thread's hold on its own read snapshots (ChainStore.pinSnapshots). */
export interface PinnedSnapshots {
  /** Refreshes the snapshot when the head the thread must answer has moved (node/headSequence.ts). */
  keep(): void
  /**
   * On a node's serving thread, names the forkchoice writes its snapshot holds (HeadSequence.stableCount): while it
   * stays the same, a check of the head holds across snapshots too.
   */
  generation?: () => number | undefined
  /** A snapshot began (a read after the last one ended): the thread ends it once its pass of requests is over. */
  began(): void
}

const utf8 = new TextEncoder()

/** The meta table's keys by label, encoded once: a block tag is resolved on most reads, and encoding took ~2 µs. */
const metaKeys = new Map<string, Uint8Array>()
function metaKey(label: string): Uint8Array {
  let k = metaKeys.get(label)
  if (k === undefined) {
    k = utf8.encode(label)
    metaKeys.set(label, k)
  }
  return k
}
/** The value of a key whose presence is the record (LMDB stores no empty values through lmdb-js). */
const PRESENT = new Uint8Array([1])
/** The meta key that says every stored block's logs are in the log index. */
const LOGS_INDEXED = 'logsIndexed'
const utf8d = new TextDecoder()
/** The LMDB environment's data file in the datadir (its lock file beside it: chain.mdb-lock). */
export const CHAIN_FILE = 'chain.mdb'

/**
 * The chain store over one LMDB environment. Every thread opens its own ChainStore on the same path; LMDB gives
 * each read a consistent snapshot, and write transactions are serialised by LMDB itself.
 */
export class ChainStore {
  private readonly root: RootDatabase
  private readonly dbs: Record<DatabaseName, Database<Uint8Array, Uint8Array>>
  /** See snapshotEpoch. */
  private epoch = 0
  /** See pinSnapshots. */
  private pinned: PinnedSnapshots | undefined
  /** Reused key of the per-transaction databases for transient reads (LMDB copies keys before reading). */
  private readonly indexKey = new Uint8Array(36)

  /**
   * Opens (creating) the store of `datadir`. `readOnly`: a reader's (`sponge rpc`), of a store a node made: LMDB's
   * read-only environment, which has no write transactions at all (lmdb-js then defines no write methods), so
   * nothing this process runs can change the data file; it only takes a slot in LMDB's reader table (lock.mdb), as
   * every LMDB reader does. It throws while the node has not yet created every database.
   *
   * `flushes` false: commits are not flushed to the disk (LMDB's noSync), for a node that makes its own throwaway
   * chain (dev mode). Each block's commits then cost no fdatasync (2–50 ms a block on a shared disk); a process that
   * ends, even killed, loses nothing (the data is in the page cache), only a crash of the machine may lose or damage
   * the datadir. The other threads' stores of the same path share this environment and its flags.
   */
  constructor(
    readonly datadir: string,
    readonly readOnly = false,
    flushes = true,
  ) {
    if (!readOnly) makeDirs(datadir)
    this.root = open({
      path: join(datadir, CHAIN_FILE),
      readOnly,
      ...(flushes ? {} : { noSync: true }),
      maxDbs: 32,
      // Room to grow without remapping; LMDB maps lazily, so this is address space, not memory.
      mapSize: 64 * 1024 ** 3,
      noMemInit: true,
      // Never useWritemap: LMDB then extends the file to the whole map and writes through the mapping, and on a full
      // filesystem the first page with no room behind it kills the process with SIGBUS (tried on a small tmpfs)
      // instead of failing the write with ENOSPC (writeFailure.ts).
    })
    const dbs = {} as Record<DatabaseName, Database<Uint8Array, Uint8Array>>
    for (const name of DATABASES) {
      const db = this.root.openDB<Uint8Array, Uint8Array>({ name, keyEncoding: 'binary', encoding: 'binary' })
      // Read-only, lmdb-js answers a database the node has not made yet with undefined, not an error.
      if ((db as Database<Uint8Array, Uint8Array> | undefined) === undefined) {
        void this.root.close()
        throw new Error(`the store's database ${name} is not made yet`)
      }
      dbs[name] = db
    }
    this.dbs = dbs
    // lmdb-js begins a snapshot at the first read after one ended (its zero timer's, refreshSnapshot's, a commit's),
    // telling the database read through: the epoch moves with every snapshot, whatever ended the one before.
    const began = () => {
      this.epoch++
      this.pinned?.began()
    }
    // addListener: a writable store's own `on` (lmdb-js's write.js) cannot reach EventEmitter's for other events.
    for (const db of [this.root, ...Object.values(dbs)]) (db as unknown as EventEmitter).addListener('begin-transaction', began)
  }

  close(): Promise<void> {
    return this.root.close()
  }

  /**
   * Makes the next read see everything committed so far. lmdb-js keeps a thread's read snapshot until a timer
   * fires, and a Piscina worker that goes from task to task through Atomics.wait never lets it fire: without this a
   * worker reads the chain as it was at its previous idle moment.
   */
  refreshSnapshot(): void {
    this.root.resetReadTxn()
    this.epoch++
  }

  /**
   * Moves each time this thread's read snapshot may have been replaced: a snapshot begun (after lmdb-js's zero timer,
   * refreshSnapshot or a commit ended the one before), refreshSnapshot, a write. A snapshot ended by lmdb-js's timer
   * and not yet followed by a read is not seen: it ends in a later turn, which util/syncRun.ts's runs never span.
   */
  get snapshotEpoch(): number {
    return this.epoch
  }

  /**
   * Said by a thread that ends its read snapshot itself after each pass of requests that began one (a serving thread:
   * node/servingThread.ts): lmdb-js's zero timer then never ends a snapshot between two requests of a pass, and a
   * check made against the snapshot holds until the epoch moves (store/snapshotStamp.ts). See PinnedSnapshots.
   */
  pinSnapshots(pinned: PinnedSnapshots): void {
    this.pinned = pinned
  }

  /** On a thread that pins its snapshots: brings the snapshot to the head it must answer, and true; else false. */
  keepPinnedSnapshot(): boolean {
    const pinned = this.pinned
    if (pinned === undefined) return false
    pinned.keep()
    return true
  }

  /**
   * The forkchoice writes the pinned snapshot holds, when the thread knows them and none is under way
   * (PinnedSnapshots.generation); undefined otherwise. Asked after keepPinnedSnapshot.
   */
  headGeneration(): number | undefined {
    return this.pinned?.generation?.()
  }

  /**
   * LMDB's reader-table slots (every thread of every process on this datadir) holding a snapshot older than the last
   * commit: each keeps the pages freed since from reuse, so the file grows while it is held.
   */
  staleReaders(): number {
    const last = (this.root.getStats() as { lastTxnId: number }).lastTxnId
    let stale = 0
    // Lines of "pid thread txnid", the txnid "-" for a slot holding no snapshot.
    for (const line of this.root.readerList().split('\n')) {
      const id = Number(line.trim().split(/\s+/)[2])
      if (Number.isInteger(id) && id < last) stale++
    }
    return stale
  }

  db(name: DatabaseName): Database<Uint8Array, Uint8Array> {
    return this.dbs[name]
  }

  // ---- reads (synchronous: LMDB reads are memory-mapped and take microseconds) ----

  getMeta(label: string): Uint8Array | undefined {
    return this.dbs.meta.getBinary(metaKey(label))
  }

  getLabel(label: ForkchoiceLabel | 'genesis'): Uint8Array | undefined {
    return this.getMeta(label)
  }

  getHeaderRlp(hash: Uint8Array): Uint8Array | undefined {
    return this.dbs.headers.getBinary(hash)
  }

  getBodyRlp(hash: Uint8Array): Uint8Array | undefined {
    return this.dbs.bodies.getBinary(hash)
  }

  getNumber(hash: Uint8Array): bigint | undefined {
    const v = this.dbs.numbers.getBinary(hash)
    return v === undefined ? undefined : readNumberKey(v)
  }

  getCanonicalHash(number: bigint): Uint8Array | undefined {
    return this.dbs.canonical.getBinary(numberKey(number))
  }

  getTxLocation(txHash: Uint8Array): { blockHash: Uint8Array; index: number } | undefined {
    const v = this.dbs.txIndex.getBinary(txHash)
    return v === undefined ? undefined : readTxLocation(v)
  }

  getBlockJson(hash: Uint8Array): string | undefined {
    const v = this.dbs.blockJson.getBinary(hash)
    return v === undefined ? undefined : utf8d.decode(v)
  }

  getTxHashes(hash: Uint8Array): Uint8Array[] | undefined {
    const v = this.dbs.txHashes.getBinary(hash)
    if (v === undefined) return undefined
    const out: Uint8Array[] = []
    for (let i = 0; i < v.length; i += 32) out.push(v.subarray(i, i + 32))
    return out
  }

  /** The block's transaction hashes as stored: 32 bytes each, concatenated. */
  getTxHashesRaw(hash: Uint8Array): Uint8Array | undefined {
    return this.dbs.txHashes.getBinary(hash)
  }

  getTxCount(hash: Uint8Array): number | undefined {
    const v = this.dbs.txHashes.getBinary(hash)
    return v === undefined ? undefined : v.length / 32
  }

  /** Raw UTF-8 JSON bytes, to be spliced into a reply without re-encoding. */
  getTxJsonBytes(blockHash: Uint8Array, index: number): Uint8Array | undefined {
    return this.dbs.txJson.getBinary(indexedKey(blockHash, index))
  }

  getReceiptJsonBytes(blockHash: Uint8Array, index: number): Uint8Array | undefined {
    return this.dbs.receipts.getBinary(indexedKey(blockHash, index))
  }

  // ---- transient reads, for the serving thread's hot paths ----
  // A view into LMDB's shared read buffer, valid only until the next read on this thread: the envelope copies it
  // into the reply at once. A safe copy is an off-heap allocation (about 3 µs for a receipt), a fifth of a lookup.

  /** The receipt JSON of a canonical transaction, by transaction hash. Transient. */
  receiptJsonView(txHash: Uint8Array): Uint8Array | undefined {
    return this.viewAtTxLocation(this.dbs.receipts, txHash)
  }

  /** The JSON of a canonical transaction, by transaction hash. Transient. */
  txJsonViewByTxHash(txHash: Uint8Array): Uint8Array | undefined {
    return this.viewAtTxLocation(this.dbs.txJson, txHash)
  }

  /** The JSON of the index-th transaction of a block. Transient. */
  txJsonView(blockHash: Uint8Array, index: number): Uint8Array | undefined {
    return view(this.dbs.txJson.getBinaryFast(writeIndexedKey(this.indexKey, blockHash, index)))
  }

  /** The txIndex value (block hash ‖ index) is the key of the per-transaction databases: no decoding in between. */
  private viewAtTxLocation(db: Database<Uint8Array, Uint8Array>, txHash: Uint8Array): Uint8Array | undefined {
    const loc = this.dbs.txIndex.getBinaryFast(txHash)
    if (loc === undefined) return undefined
    // Copied byte by byte: `loc` is LMDB's shared buffer, whose length property lmdb-js overrides.
    for (let i = 0; i < 36; i++) this.indexKey[i] = loc[i]!
    return view(db.getBinaryFast(this.indexKey))
  }

  /** The block's stored logs record (logs/blockLogs.ts); undefined when it has no logs. Transient. */
  blockLogsView(hash: Uint8Array): Uint8Array | undefined {
    return view(this.dbs.blockLogs.getBinaryFast(hash))
  }

  /** The log index's keys from `start` up to `end` (exclusive), in key order (store/blockLogs.ts lays them out). */
  logIndexKeys(start: Uint8Array, end: Uint8Array): Iterable<Uint8Array> {
    return this.dbs.logIndex.getKeys({ start, end }) as Iterable<Uint8Array>
  }

  /** Whether `hash` is the canonical block at `number`, compared in LMDB's buffer (no copy). */
  isCanonical(number: bigint, hash: Uint8Array): boolean {
    const c = this.dbs.canonical.getBinaryFast(numberKey(number))
    return c !== undefined && equalBytes(c, hash)
  }

  /** Whether the canonical head is `hash`, compared in LMDB's buffer (no copy). */
  headIs(hash: Uint8Array): boolean {
    const h = this.dbs.meta.getBinaryFast(metaKey('head'))
    return h !== undefined && equalBytes(h, hash)
  }

  /**
   * A trie node or code in LMDB's read buffer: valid until the next read, indexable up to its length only (lmdb-js
   * reports the value's length on a buffer that is longer). For walks that read a node and move on (trie/trieRead.ts).
   */
  trieNodeView(key: Uint8Array): Uint8Array | undefined {
    return this.dbs.trie.getBinaryFast(key)
  }

  getTrieNode(key: Uint8Array): Uint8Array | undefined {
    return this.dbs.trie.getBinary(key)
  }

  /**
   * An account as the state with root `stateRoot` holds it (its RLP; null when absent), read from the flat table —
   * or undefined when the table is not at that state. The table's block and the value are read in the same LMDB
   * snapshot (one synchronous stretch), so a block stored meanwhile by another thread cannot mix two states.
   */
  flatAccount(stateRoot: Uint8Array, address: Uint8Array): Uint8Array | null | undefined {
    if (!flatHeadIsAt(this.dbs.meta, stateRoot)) return undefined
    return this.dbs.flatAccounts.getBinary(address) ?? null
  }

  /** A storage slot (RLP-encoded value; null when absent) by address ‖ keccak256(slot), as flatAccount. */
  flatSlot(stateRoot: Uint8Array, addressAndHashedSlot: Uint8Array): Uint8Array | null | undefined {
    if (!flatHeadIsAt(this.dbs.meta, stateRoot)) return undefined
    return this.dbs.flatStorage.getBinary(addressAndHashedSlot) ?? null
  }

  /** The block whose post-state the flat table holds. */
  flatHead(): FlatHead | undefined {
    return readFlatHead(this.dbs.meta)
  }

  getInvalid(hash: Uint8Array): InvalidRecord | undefined {
    const v = this.dbs.invalid.getBinary(hash)
    return v === undefined ? undefined : (JSON.parse(utf8d.decode(v)) as InvalidRecord)
  }

  hasBlock(hash: Uint8Array): boolean {
    return this.dbs.headers.doesExist(hash)
  }

  // ---- writes ----

  /**
   * Runs `txn` in one write transaction. A write that fails for want of space throws StoreWriteError naming `what`
   * and the cause (ENOSPC, …); the transaction is then aborted whole, so the store holds exactly what it held before.
   */
  private write(what: string, txn: () => void): void {
    try {
      this.root.transactionSync(txn)
    } catch (e) {
      throw storeWriteError(e, what, this.datadir) ?? e
    } finally {
      this.epoch++
    }
  }

  /** Stores an executed block and its state. Does not make it canonical, nor move the flat table to it. */
  putBlockSync(rec: BlockRecord): void {
    const phases = blockPhases
    const m = phases?.mark()
    this.write(`cannot store block ${rec.number}`, () => this.putBlockInTxn(rec))
    if (m !== undefined) phases!.end(Phase.store, m)
  }

  /** Stores a block and makes it the canonical head in the same transaction (import path). */
  putCanonicalHeadSync(rec: BlockRecord): void {
    this.write(`cannot store block ${rec.number}`, () => {
      this.putBlockInTxn(rec)
      this.indexCanonicalInTxn(rec.number, rec.hash, rec.txHashes)
      this.dbs.meta.putSync(metaKey('head'), rec.hash)
      followHead(this.flatDbs(), rec.hash)
    })
  }

  private putBlockInTxn(rec: BlockRecord): void {
    const { hash } = rec
    const d = this.dbs
    for (const [k, v] of rec.trieNodes) d.trie.putSync(k, v)
    d.headers.putSync(hash, rec.headerRlp)
    d.bodies.putSync(hash, rec.bodyRlp)
    d.numbers.putSync(hash, numberKey(rec.number))
    d.blockJson.putSync(hash, utf8.encode(rec.blockJson))
    const hashes = new Uint8Array(rec.txHashes.length * 32)
    for (let i = 0; i < rec.txHashes.length; i++) hashes.set(rec.txHashes[i]!, i * 32)
    d.txHashes.putSync(hash, hashes)
    for (let i = 0; i < rec.txJson.length; i++) d.txJson.putSync(indexedKey(hash, i), rec.txJson[i]!)
    for (let i = 0; i < rec.receiptJson.length; i++) d.receipts.putSync(indexedKey(hash, i), rec.receiptJson[i]!)
    if (rec.logs !== undefined) d.blockLogs.putSync(hash, rec.logs)
    for (const k of rec.logKeys) d.logIndex.putSync(k, PRESENT)
    if (rec.stateChanges !== undefined && rec.number > 0n) recordFlatChanges(this.flatDbs(), rec, rec.stateChanges)
  }

  private flatDbs(): FlatDbs {
    const d = this.dbs
    return {
      meta: d.meta,
      headers: d.headers,
      flatAccounts: d.flatAccounts,
      flatStorage: d.flatStorage,
      stateDiffs: d.stateDiffs,
      stateUndo: d.stateUndo,
    }
  }

  private indexCanonicalInTxn(number: bigint, hash: Uint8Array, txHashes: Uint8Array[]): void {
    this.dbs.canonical.putSync(numberKey(number), hash)
    for (let i = 0; i < txHashes.length; i++) this.dbs.txIndex.putSync(txHashes[i]!, txLocationValue(hash, i))
  }

  putGenesisSync(rec: BlockRecord, chainId: bigint): void {
    this.write('cannot store the genesis block', () => {
      this.putBlockInTxn(rec)
      this.indexCanonicalInTxn(rec.number, rec.hash, rec.txHashes)
      for (const label of ['head', 'safe', 'finalized', 'genesis'] as const) {
        // safe/finalized start unset: they are known only once a consensus client says so (or on dev chains).
        if (label === 'safe' || label === 'finalized') continue
        this.dbs.meta.putSync(metaKey(label), rec.hash)
      }
      this.dbs.meta.putSync(utf8.encode('chainId'), utf8.encode(chainId.toString()))
      // Every block of this store will have its logs indexed as it is stored.
      this.dbs.meta.putSync(utf8.encode(LOGS_INDEXED), PRESENT)
      if (rec.stateChanges !== undefined) seedFlatState(this.flatDbs(), rec, rec.stateChanges)
    })
  }

  /**
   * Makes `head` canonical: rewrites the number→hash index above `forkPoint` (the highest block the old and new
   * chains share) and the transaction index of every block that joins or leaves the canonical chain, then moves the
   * labels — all in one transaction, with the flat table moved to the new head (store/flatState.ts followHead: in
   * the same transaction, so no reader sees the new head with the table elsewhere). `branch` lists the new canonical
   * blocks above the fork point, ascending. `newBlock`, the last of them when given, is stored in the same
   * transaction (dev mode's block: one commit a block, made before the sends waiting for it are answered).
   */
  setCanonicalSync(
    forkPoint: bigint,
    branch: { number: bigint; hash: Uint8Array }[],
    oldHeadNumber: bigint,
    labels: Partial<Record<ForkchoiceLabel, Uint8Array>>,
    newBlock?: BlockRecord,
  ): void {
    this.write(newBlock === undefined ? 'cannot store the forkchoice update' : `cannot store block ${newBlock.number}`, () => {
      if (newBlock !== undefined) this.putBlockInTxn(newBlock)
      for (let n = forkPoint + 1n; n <= oldHeadNumber; n++) {
        const old = this.dbs.canonical.getBinary(numberKey(n))
        if (old === undefined) continue
        for (const h of this.getTxHashes(old) ?? []) this.dbs.txIndex.removeSync(h)
        this.dbs.canonical.removeSync(numberKey(n))
      }
      for (const b of branch) {
        const txHashes = b.number === newBlock?.number ? newBlock.txHashes : (this.getTxHashes(b.hash) ?? [])
        this.indexCanonicalInTxn(b.number, b.hash, txHashes)
      }
      for (const [label, hash] of Object.entries(labels)) this.dbs.meta.putSync(metaKey(label), hash)
      if (labels.head !== undefined) followHead(this.flatDbs(), labels.head)
    })
  }

  /** Whether every stored block's logs are indexed (stores made before the log index need a backfill). */
  logsIndexed(): boolean {
    return this.getMeta(LOGS_INDEXED) !== undefined
  }

  /**
   * Indexes the logs of blocks stored before there was a log index, in one transaction; `done` marks the store as
   * fully indexed in the same transaction.
   */
  putBlockLogsSync(blocks: { hash: Uint8Array; logs: Uint8Array | undefined; keys: Uint8Array[] }[], done: boolean): void {
    this.write('cannot store the log index', () => {
      for (const b of blocks) {
        if (b.logs !== undefined) this.dbs.blockLogs.putSync(b.hash, b.logs)
        for (const k of b.keys) this.dbs.logIndex.putSync(k, PRESENT)
      }
      if (done) this.dbs.meta.putSync(utf8.encode(LOGS_INDEXED), PRESENT)
    })
  }

  /** Every stored block's hash (canonical or not), in key order. */
  *blockHashes(): Iterable<Uint8Array> {
    for (const k of this.dbs.headers.getKeys()) yield k as Uint8Array
  }

  /** Remembers a block found invalid, so that it and its descendants are refused without re-execution. */
  markInvalidSync(hash: Uint8Array, record: InvalidRecord): void {
    this.write('cannot record an invalid block', () => this.dbs.invalid.putSync(hash, utf8.encode(JSON.stringify(record))))
  }
}

/** lmdb-js hands back its reusable buffer with an overridden length: a view of exactly the value's bytes. */
function view(v: Uint8Array | undefined): Uint8Array | undefined {
  return v === undefined ? undefined : v.subarray(0, v.length)
}
