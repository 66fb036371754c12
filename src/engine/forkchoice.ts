import { HeaderView } from '../store/headerView.js'
import { EngineError } from './errors.js'
import type { BlockRecord, ChainStore } from '../store/chainStore.js'
import { equalBytes, hexToBytes } from '../util/hex.js'

const ZERO_HASH = `0x${'00'.repeat(32)}`

export interface ForkchoiceState {
  headBlockHash: string
  safeBlockHash: string
  finalizedBlockHash: string
}

export type ForkchoiceOutcome =
  | { status: 'SYNCING' }
  | { status: 'INVALID'; latestValidHash: string; validationError: string }
  | {
      status: 'VALID'
      /** Blocks that joined the canonical chain (ascending) and left it, for the transaction pool. */
      added: Uint8Array[]
      removed: Uint8Array[]
      /** Whether anything was written (a forkchoice that changes nothing writes nothing). */
      wrote: boolean
    }

/**
 * engine_forkchoiceUpdated's chain update (main thread, the one writer of labels): checks that safe and finalized
 * lie on the head's chain, then moves head, safe and finalized and re-indexes any reorg in one LMDB transaction.
 * `newBlock`, a block built here and not yet stored (dev mode), is stored in that transaction when it is the head.
 */
export function applyForkchoice(store: ChainStore, fc: ForkchoiceState, newBlock?: BlockRecord): ForkchoiceOutcome {
  const head = hexToBytes(fc.headBlockHash)
  const unstored = newBlock !== undefined && equalBytes(newBlock.hash, head) && store.getNumber(head) === undefined ? newBlock : undefined
  const numberOf = (hash: Uint8Array): bigint | undefined =>
    unstored !== undefined && equalBytes(hash, unstored.hash) ? unstored.number : store.getNumber(hash)
  const parentOf = (hash: Uint8Array): Uint8Array =>
    unstored !== undefined && equalBytes(hash, unstored.hash) ? unstored.parentHash : HeaderView.read(store, hash)!.parentHash
  const headNumber = numberOf(head)
  if (headNumber === undefined) {
    const bad = store.getInvalid(head)
    if (bad !== undefined) return { status: 'INVALID', latestValidHash: bad.latestValidHash, validationError: bad.reason }
    return { status: 'SYNCING' }
  }
  // Walk back from the new head to the canonical chain.
  const branch: { number: bigint; hash: Uint8Array }[] = []
  let n = headNumber
  let h = head
  while (true) {
    const canonical = store.getCanonicalHash(n)
    if (canonical !== undefined && equalBytes(canonical, h)) break
    branch.push({ number: n, hash: h })
    if (n === 0n) throw new Error('new head does not descend from genesis')
    h = parentOf(h)
    n--
  }
  branch.reverse()
  const forkPoint = n
  const onNewChain = (hashHex: string): boolean => {
    const hash = hexToBytes(hashHex)
    const num = numberOf(hash)
    if (num === undefined || num > headNumber) return false
    if (num > forkPoint) return branch.some((b) => equalBytes(b.hash, hash))
    const c = store.getCanonicalHash(num)
    return c !== undefined && equalBytes(c, hash)
  }
  const labels: { head: Uint8Array; safe?: Uint8Array; finalized?: Uint8Array } = { head }
  for (const label of ['safe', 'finalized'] as const) {
    const value = label === 'safe' ? fc.safeBlockHash : fc.finalizedBlockHash
    if (value === ZERO_HASH) continue
    if (!onNewChain(value)) throw new EngineError('invalidForkchoiceState', `${label} block ${value} is not an ancestor of the head`)
    labels[label] = hexToBytes(value)
  }
  const oldHead = store.getLabel('head')!
  const oldHeadNumber = store.getNumber(oldHead)!
  const removed: Uint8Array[] = []
  for (let k = forkPoint + 1n; k <= oldHeadNumber; k++) {
    const c = store.getCanonicalHash(k)
    if (c !== undefined) removed.push(c)
  }
  // A forkchoice that changes nothing writes nothing: on a full disk a consensus client's repeated forkchoice (and the
  // dev driver's, which starts every build with one) must not fail for want of space it does not need.
  const unchanged =
    branch.length === 0 &&
    removed.length === 0 &&
    (['safe', 'finalized'] as const).every((l) => labels[l] === undefined || equalBytes(labels[l], store.getLabel(l) ?? new Uint8Array()))
  if (!unchanged) store.setCanonicalSync(forkPoint, branch, oldHeadNumber, labels, unstored)
  return { status: 'VALID', added: branch.map((b) => b.hash), removed, wrote: !unchanged }
}
