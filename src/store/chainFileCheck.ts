import { closeSync, fstatSync, openSync, readSync } from 'node:fs'
import { join } from 'node:path'
import { CHAIN_FILE } from './chainStore.js'

// LMDB maps its data file and trusts it: a page number read from a damaged file is dereferenced in the mapping, and
// a page past the end of the file kills the process with SIGBUS, a wild one with SIGSEGV, with no word said (issue
// 31, item 5: random bytes, an empty or a truncated chain.mdb killed node, reader and import so). What can be checked
// with plain reads before LMDB maps the file is checked here, against the layout in lmdb-js's own LMDB
// (node_modules/lmdb/dependencies/lmdb/libraries/liblmdb/mdb.c): both meta pages, and every page that opening the
// store reads before any block: the trees' roots the metas name, the main tree's pages, and the named databases'
// roots recorded in it. Each must lie inside the file. Not every page a meta counts is in the file (LMDB does not
// write pages freed in the transaction that allocated them), so the file's length is checked against the pages in
// use, not against the meta's last page.
//
// The pages read must be one snapshot: no process may be writing the store meanwhile (the node and the import hold the
// datadir's lock when they check; a reader checks only when no node holds it).

/** The datadir's chain.mdb cannot be a store: its message names the file and what is wrong, in one line. */
export class DamagedStoreError extends Error {
  override readonly name = 'DamagedStoreError'
}

/** MDB_page_header: page number (8), txnid (8), pad (2), flags (2), lower (2), upper (2). */
const PAGE_HEADER = 24
const P_BRANCH = 0x01
const P_LEAF = 0x02
const P_META = 0x08
const P_LEAF2 = 0x20
const F_BIGDATA = 0x01
const F_SUBDATA = 0x02
/** MDB_node's fixed part: data size or child page (lo, hi: 2 + 2), flags (2), key size (2). */
const NODE_HEADER = 8
const MAGIC = 0xbeefc0de
/** MDB_DATA_VERSION of lmdb-js's build (MDB_DEVEL unset). */
const DATA_VERSION = 2
/** MDB_meta after the page header: magic (4), version (4), address (8), map size (8), the free and main trees' MDB_db (48 each), last page (8), txnid (8). */
const META_SIZE = 136
const META_DBS = 24
const DB_SIZE = 48
const DB_ROOT = 40
const META_LAST_PAGE = META_DBS + 2 * DB_SIZE
const META_TXNID = META_LAST_PAGE + 8
const NO_PAGE = 0xffff_ffff_ffff_ffffn
/** The main tree holds one record per named database (a few dozen): a bound on pages read, not a limit on stores. */
const MAX_MAIN_PAGES = 256

interface Meta {
  /** Where it was read, for messages. */
  at: string
  txnid: bigint
  lastPage: bigint
  roots: bigint[]
}

/**
 * Throws DamagedStoreError when the datadir's chain.mdb is there and cannot be a store LMDB can open safely; does
 * nothing when there is none yet (the node creates it).
 */
export function checkChainFile(datadir: string): void {
  const file = join(datadir, CHAIN_FILE)
  let fd: number
  try {
    fd = openSync(file, 'r')
  } catch (e) {
    // No chain file there (or the datadir is no folder): nothing LMDB could map; what opens it next says what is wrong.
    const code = (e as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return
    throw e
  }
  try {
    // A folder in its place is no store to check: what opens it says what is wrong (a reader: "is not a file").
    if (!fstatSync(fd).isFile()) return
    const problem = chainFileProblem(fd)
    if (problem !== undefined) throw new DamagedStoreError(`${file} is damaged, not a store Sponge can open: ${problem}`)
  } finally {
    closeSync(fd)
  }
}

/** What is wrong with the open LMDB data file, or undefined. */
export function chainFileProblem(fd: number): string | undefined {
  const size = BigInt(fstatSync(fd).size)
  if (size === 0n) return 'the file is empty'
  const first = read(fd, 0n, PAGE_HEADER + META_SIZE)
  if (first.length < PAGE_HEADER + META_SIZE) return `${size} bytes, shorter than an LMDB meta page`
  const pageZero = metaPageProblem(first, 0)
  if (pageZero !== undefined) return pageZero
  const pageSize = BigInt(first.readUInt32LE(PAGE_HEADER + META_DBS))
  if (pageSize < 256n || pageSize > 65536n || (pageSize & (pageSize - 1n)) !== 0n) return `its meta page gives a page size of ${pageSize}`
  if (size < 2n * pageSize) return `truncated: ${size} bytes, shorter than its two meta pages (${2n * pageSize})`
  const second = read(fd, pageSize, PAGE_HEADER + META_SIZE)
  const pageOne = metaPageProblem(second, 1)
  if (pageOne !== undefined) return pageOne
  const metas = [meta(first, 'meta page 0'), meta(second, 'meta page 1')]
  // lmdb-js's overlapping sync writes a third meta into the second half of page 0 (from its map size on), which
  // LMDB weighs with the others when it opens the file; never written, it is zeros (txnid 0) and is not one.
  const half = meta(read(fd, pageSize / 2n, PAGE_HEADER + META_SIZE), 'the meta in page 0')
  if (half.txnid !== 0n) metas.push(half)
  for (const m of metas) {
    if (m.lastPage < 1n) return `${m.at} names page ${m.lastPage} as its last`
    for (const root of m.roots) {
      const problem = pageProblem(root, m, pageSize, size)
      if (problem !== undefined) return problem
    }
  }
  // LMDB opens the newest (reduce gives the first of equals, as LMDB's pick).
  const newest = metas.reduce((a, b) => (b.txnid > a.txnid ? b : a))
  const mainRoot = newest.roots[1]
  return mainRoot === undefined || mainRoot === NO_PAGE ? undefined : mainTreeProblem(fd, mainRoot, newest, pageSize, size)
}

function metaPageProblem(page: Buffer, n: number): string | undefined {
  if ((page.readUInt16LE(18) & P_META) === 0 || page.readUInt32LE(PAGE_HEADER) !== MAGIC) return `page ${n} is not an LMDB meta page`
  const version = page.readUInt32LE(PAGE_HEADER + 4) & 0xffff
  if (version !== DATA_VERSION) return `LMDB data format ${version} in meta page ${n}, this build reads ${DATA_VERSION}`
  return undefined
}

function meta(page: Buffer, at: string): Meta {
  const m = PAGE_HEADER
  return {
    at,
    txnid: page.readBigUInt64LE(m + META_TXNID),
    lastPage: page.readBigUInt64LE(m + META_LAST_PAGE),
    roots: [page.readBigUInt64LE(m + META_DBS + DB_ROOT), page.readBigUInt64LE(m + META_DBS + DB_SIZE + DB_ROOT)],
  }
}

/** A page the store needs: not a meta page, within the meta's pages, and inside the file. */
function pageProblem(page: bigint, m: Meta, pageSize: bigint, size: bigint): string | undefined {
  if (page === NO_PAGE) return undefined
  if (page < 2n || page > m.lastPage) return `${m.at} names page ${page}, outside its pages 2 to ${m.lastPage}`
  const end = (page + 1n) * pageSize
  if (end > size) return `truncated: ${size} bytes, but page ${page} in use ends at byte ${end}`
  return undefined
}

/** Walks the main tree (bounded) and checks each named database's root. */
function mainTreeProblem(fd: number, root: bigint, m: Meta, pageSize: bigint, size: bigint): string | undefined {
  const pending = [root]
  for (let visited = 0; visited < MAX_MAIN_PAGES; visited++) {
    const pgno = pending.pop()
    if (pgno === undefined) return undefined
    const problem = pageProblem(pgno, m, pageSize, size)
    if (problem !== undefined) return problem
    const page = read(fd, pgno * pageSize, Number(pageSize))
    if (page.readBigUInt64LE(0) !== pgno) return `page ${pgno} of the main tree does not carry its own number`
    const flags = page.readUInt16LE(18)
    if ((flags & (P_BRANCH | P_LEAF)) === 0) return `page ${pgno} of the main tree is not a tree page`
    if ((flags & P_LEAF2) !== 0) continue
    const count = page.readUInt16LE(20) >> 1
    for (let i = 0; i < count; i++) {
      const ptr = PAGE_HEADER + 2 * i
      // NODEPTR: a node's offset counts from the end of the page header.
      const node = ptr + 2 <= page.length ? page.readUInt16LE(ptr) + PAGE_HEADER : page.length
      if (node + NODE_HEADER > page.length) return `page ${pgno} of the main tree has a node outside it`
      const nodeFlags = page.readUInt16LE(node + 4)
      if ((flags & P_BRANCH) !== 0) {
        // NODEPGNO: the child's number in lo, hi and (above 32 bits) the flags field.
        const child = BigInt(page.readUInt16LE(node)) | (BigInt(page.readUInt16LE(node + 2)) << 16n) | (BigInt(nodeFlags) << 32n)
        pending.push(child)
        continue
      }
      if ((nodeFlags & F_SUBDATA) === 0 || (nodeFlags & F_BIGDATA) !== 0) continue
      const db = node + NODE_HEADER + page.readUInt16LE(node + 6)
      if (db + DB_SIZE > page.length) return `page ${pgno} of the main tree has a database record outside it`
      const dbProblem = pageProblem(page.readBigUInt64LE(db + DB_ROOT), m, pageSize, size)
      if (dbProblem !== undefined) return dbProblem
    }
  }
  return undefined
}

function read(fd: number, at: bigint, length: number): Buffer {
  const buf = Buffer.alloc(length)
  let got = 0
  while (got < length) {
    const n = readSync(fd, buf, got, length - got, at + BigInt(got))
    if (n === 0) break
    got += n
  }
  return buf.subarray(0, got)
}
