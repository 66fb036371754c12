import type { Database } from 'lmdb'
import { equalBytes } from '../util/hex.js'
import { HeaderView } from './headerView.js'
import { numberKey } from './layout.js'
import { ACCOUNT, ChangeWriter, SLOT, WIPE, readChanges } from './stateChanges.js'

type Db = Database<Uint8Array, Uint8Array>

export interface FlatDbs {
  meta: Db
  headers: Db
  flatAccounts: Db
  flatStorage: Db
  stateDiffs: Db
  stateUndo: Db
}

/**
 * How many blocks below the newest applied one keep their change lists: the flat state can move back (a reorg) or
 * onto a side branch within this many blocks; beyond it, execution on other blocks reads the tries only.
 */
export const FLAT_WINDOW = 128n
/** How often, in block numbers, the change lists below the window are removed. */
export const PRUNE_EVERY = 32n

/** meta key of the flat head: block hash (32) ‖ state root (32) of the block whose post-state the table holds. */
export const FLAT_HEAD = new TextEncoder().encode('flatHead')

export interface FlatHead {
  hash: Uint8Array
  stateRoot: Uint8Array
}

/** The block the flat table is at, if the store keeps one (stores made before it do not). */
export function readFlatHead(meta: Db): FlatHead | undefined {
  const v = meta.getBinary(FLAT_HEAD)
  return v === undefined || v.length !== 64 ? undefined : { hash: v.subarray(0, 32), stateRoot: v.subarray(32, 64) }
}

/** Whether the flat table holds the state with this root; read on every flat read, so in LMDB's buffer (no copy). */
export function flatHeadIsAt(meta: Db, stateRoot: Uint8Array): boolean {
  const v = meta.getBinaryFast(FLAT_HEAD)
  if (v === undefined || v.length !== 64) return false
  for (let i = 0; i < 32; i++) if (v[32 + i] !== stateRoot[i]) return false
  return true
}

/** meta key of the canonical head's block hash (store/layout.ts; the chain store writes it). */
const HEAD = new TextEncoder().encode('head')
/** The head's hash, copied out of LMDB's read buffer before the next read reuses it. */
const headHash = new Uint8Array(32)

/**
 * Whether the flat table holds the canonical head's post-state: the two meta values compared in LMDB's read buffer,
 * without a copy or a header. Reads made after it in the same synchronous stretch see the same LMDB snapshot, so
 * they need not check again: this runs on every state read at `latest`. `into` gets the head's hash.
 */
export function flatHeadIsCanonicalHead(meta: Db, into: Uint8Array = headHash): boolean {
  const head = meta.getBinaryFast(HEAD)
  if (head === undefined || head.length !== 32) return false
  // Not `set`: lmdb-js's read buffer reports the value's length, and `set` would copy the whole buffer behind it.
  for (let i = 0; i < 32; i++) into[i] = head[i]!
  const v = meta.getBinaryFast(FLAT_HEAD)
  if (v === undefined || v.length !== 64) return false
  for (let i = 0; i < 32; i++) if (v[i] !== into[i]) return false
  return true
}

function writeFlatHead(meta: Db, hash: Uint8Array, stateRoot: Uint8Array): void {
  const v = new Uint8Array(64)
  v.set(hash, 0)
  v.set(stateRoot, 32)
  meta.putSync(FLAT_HEAD, v)
}

function changeKey(number: bigint, hash: Uint8Array): Uint8Array {
  const k = new Uint8Array(40)
  k.set(numberKey(number), 0)
  k.set(hash, 8)
  return k
}

/**
 * Applies a change list to the flat table and returns its undo list (the values it replaced, in the order it
 * replaced them). Entries that change nothing leave no undo entry. Must run inside a write transaction.
 */
export function applyChanges(dbs: FlatDbs, encoded: Uint8Array): Uint8Array {
  const undo = new ChangeWriter()
  for (const c of readChanges(encoded)) {
    if (c.kind === WIPE) {
      const end = prefixEnd(c.key)
      const slots: [Uint8Array, Uint8Array][] = []
      for (const { key, value } of dbs.flatStorage.getRange({ start: c.key, end })) slots.push([key as Uint8Array, value as Uint8Array])
      for (const [key, value] of slots) {
        undo.add(SLOT, key, value)
        dbs.flatStorage.removeSync(key)
      }
      continue
    }
    const db = c.kind === ACCOUNT ? dbs.flatAccounts : dbs.flatStorage
    const before = db.getBinary(c.key)
    if (sameValue(before, c.value)) continue
    undo.add(c.kind, c.key, before)
    if (c.value === undefined) db.removeSync(c.key)
    else db.putSync(c.key, c.value)
  }
  return undo.finish()
}

/** Puts back what an undo list records, last entry first. */
export function applyUndo(dbs: FlatDbs, encoded: Uint8Array): void {
  const changes = readChanges(encoded)
  for (let i = changes.length - 1; i >= 0; i--) {
    const c = changes[i]!
    const db = c.kind === ACCOUNT ? dbs.flatAccounts : dbs.flatStorage
    if (c.value === undefined) db.removeSync(c.key)
    else db.putSync(c.key, c.value)
  }
}

/**
 * Records a stored block's state changes (and prunes those below the window). The table does not move: it follows
 * the canonical head (followHead), not the stored blocks — a block is stored by newPayload or a build before it is
 * made the head, if it ever is (a build the consensus client never imports, a payload on a side branch), and while
 * the table is not at the head every state read at `latest` is a trie walk in the worker lane. Runs inside the
 * block's write transaction.
 */
export function recordFlatChanges(dbs: FlatDbs, block: { hash: Uint8Array; number: bigint }, changes: Uint8Array): void {
  // A store made before the table has none to follow.
  if (readFlatHead(dbs.meta) === undefined) return
  dbs.stateDiffs.putSync(changeKey(block.number, block.hash), changes)
  // Pruned whether or not the table follows: one left behind on a branch deeper than the window stays there. Every
  // PRUNE_EVERY blocks, not every block: a prune opens a cursor on each of the two databases, a tenth of a one-send
  // dev block's write, to remove one list each; the window is then up to PRUNE_EVERY blocks deeper, which costs nothing.
  if (block.number > FLAT_WINDOW && block.number % PRUNE_EVERY === 0n) prune(dbs, block.number - FLAT_WINDOW)
}

/**
 * Moves the table to the canonical head `head` (its change lists recorded when it was stored): forward by one block
 * as a rule, or across a reorg within the window. Runs inside the transaction that writes the head, so a reader
 * that sees the new head sees the table there too (state reads at `latest` check both in one snapshot). Beyond the
 * window the table stays where it is, and state reads at the head walk the tries.
 */
export function followHead(dbs: FlatDbs, head: Uint8Array): void {
  const flat = readFlatHead(dbs.meta)
  if (flat !== undefined) moveFlatState(dbs, flat, head)
}

/** Starts the flat table at a genesis block: `state` lists its whole state (no wipes). */
export function seedFlatState(dbs: FlatDbs, block: { hash: Uint8Array; stateRoot: Uint8Array }, state: Uint8Array): void {
  for (const c of readChanges(state)) {
    if (c.kind === WIPE || c.value === undefined) continue
    ;(c.kind === ACCOUNT ? dbs.flatAccounts : dbs.flatStorage).putSync(c.key, c.value)
  }
  writeFlatHead(dbs.meta, block.hash, block.stateRoot)
}

/**
 * Moves the flat table to `target`'s post-state: undoes blocks down to the common ancestor of the table's block and
 * `target`, then applies the blocks from there up to `target`. Does nothing when the way there is longer than the
 * window or a change list on it is gone.
 */
function moveFlatState(dbs: FlatDbs, head: FlatHead, target: Uint8Array): void {
  if (equalBytes(head.hash, target)) return
  const down: Located[] = []
  const up: Located[] = []
  const to = located(dbs, target)
  let a = located(dbs, head.hash)
  if (a === undefined || to === undefined) return
  let b: Located | undefined = to
  for (let steps = 0n; !equalBytes(a.hash, b.hash); steps++) {
    if (steps > 2n * FLAT_WINDOW) return
    if (a.number >= b.number) {
      down.push(a)
      a = located(dbs, a.parentHash)
    } else {
      up.push(b)
      b = located(dbs, b.parentHash)
    }
    if (a === undefined || b === undefined) return
  }
  const undos = down.map((x) => dbs.stateUndo.getBinary(changeKey(x.number, x.hash)))
  const diffs = up.map((x) => dbs.stateDiffs.getBinary(changeKey(x.number, x.hash)))
  if (undos.some((u) => u === undefined) || diffs.some((d) => d === undefined)) return
  for (const u of undos) applyUndo(dbs, u!)
  for (let i = up.length - 1; i >= 0; i--) {
    dbs.stateUndo.putSync(changeKey(up[i]!.number, up[i]!.hash), applyChanges(dbs, diffs[i]!))
  }
  writeFlatHead(dbs.meta, target, to.stateRoot)
}

interface Located {
  number: bigint
  hash: Uint8Array
  parentHash: Uint8Array
  stateRoot: Uint8Array
}

function located(dbs: FlatDbs, hash: Uint8Array): Located | undefined {
  const rlp = dbs.headers.getBinary(hash)
  if (rlp === undefined) return undefined
  const header = HeaderView.of(rlp)
  return { number: header.number, hash, parentHash: header.parentHash, stateRoot: header.stateRoot }
}

/** Drops the change lists of blocks below `below`: the table will not move back that far. */
function prune(dbs: FlatDbs, below: bigint): void {
  const end = numberKey(below)
  for (const db of [dbs.stateDiffs, dbs.stateUndo]) {
    const old = [...db.getKeys({ end })] as Uint8Array[]
    for (const k of old) db.removeSync(k)
  }
}

/** The first key after every key that starts with `prefix` (the prefix is an address: never all 0xff in practice). */
function prefixEnd(prefix: Uint8Array): Uint8Array {
  const end = prefix.slice()
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i] !== 0xff) {
      end[i]!++
      return end.subarray(0, i + 1)
    }
  }
  return new Uint8Array(prefix.length + 53).fill(0xff)
}

function sameValue(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  if (a === undefined || b === undefined) return a === b
  return equalBytes(a, b)
}
