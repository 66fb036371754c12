import type { ChainReader } from '../store/chainReader.js'
import { bodyTransactions } from '../store/blockCodec.js'
import type { ChainStore } from '../store/chainStore.js'
import type { Lane, WorkerPool } from '../workers/pool.js'
import type { Logger } from '../util/logger.js'
import type { PooledTx, TxPool } from './txPool.js'
import { keccak256 } from '../crypto/keccak.js'
import { type KnownSigner, type UncheckedSidecar, type ValidatedTx, pooledSidecar } from '../txrules/txValidation.js'
import type { KzgThread } from '../crypto/kzgThread.js'
import { TxRejectedError } from '../exec/errors.js'
import { bytesToHex, equalBytes } from '../util/hex.js'
import { setBounded } from '../util/boundedMap.js'
import { DomainError } from '../util/errors.js'
import { decodeTx } from '../exec/txDecode.js'
import { TxPoolRejectedError } from './errors.js'

/** Validations of one submission while blocks keep landing; the last one's nonce is used even if stale. */
const MAX_VALIDATIONS = 3

/** geth's txMaxSize: the largest transaction the pool takes (4 slots of 32 KiB). */
export const TX_MAX_SIZE = 4 * 32 * 1024
/** geth's blob pool txMaxSize: a blob transaction with its sidecar. */
export const BLOB_TX_MAX_SIZE = 1024 * 1024

export interface TxSubmissionOptions {
  /** --rpc.allow-unprotected-txs: take legacy transactions without EIP-155 replay protection over RPC. */
  readonly allowUnprotectedTxs: boolean
  /**
   * Validates a transaction on this thread instead of in a lane (blob transactions, whose sidecars are big, still go
   * to the lane): dev mode, where each send waits for its block and a lane's round trip (1–5 ms on a busy machine)
   * costs more than the validation itself (decoding, one native sender recovery, one account read: ~0.1 ms).
   */
  readonly validateHere?: (raw: Uint8Array, headHash: Uint8Array, signer: KnownSigner | undefined) => Promise<ValidatedTx>
  /**
   * A version-0 sidecar pooled after Osaka is given its cell proofs only once something wants them (engine_getBlobsV2,
   * debug_getRawTransaction), not at once: dev mode, whose own blocks take it as it is (BuildInput.bundleUnread) and
   * mostly include it within milliseconds.
   */
  readonly cellProofsWhenWanted?: boolean
  /** Whether the block after the head is Osaka's, where a sidecar carries cell proofs (EIP-7594). */
  readonly cellProofsDue?: () => boolean
}

/** Included blob transactions whose sidecars are kept for reorgs (a few blocks' worth at Osaka's maximum). */
const INCLUDED_SIDECARS = 64

interface IncludedTx {
  hash: string
  sender: string
  nonce: bigint
}

/**
 * Transactions into the pool: eth_sendRawTransaction's (validated in the public lane against the head), and, after
 * forkchoice moved the head, the pool's update — what the new canonical blocks included leaves it, what the blocks
 * taken off the chain had comes back.
 */
export class TxSubmission {
  constructor(
    private readonly store: ChainStore,
    private readonly chain: ChainReader,
    private readonly txPool: TxPool,
    private readonly lanes: { public: WorkerPool; engine: WorkerPool },
    private readonly log: Logger,
    private readonly opts: TxSubmissionOptions,
    /** KZG threads: `check` checks a blob transaction's sidecar as it is sent, `convert` gives a version-0 one cell proofs. */
    private readonly kzg: { check: KzgThread; convert: KzgThread },
  ) {}

  /**
   * eth_sendRawTransaction (and the dev wallet's eth_sendTransaction): decoded here, refused if unprotected as geth's
   * SubmitTransaction refuses it, then validated in the public lane against the head and admitted. Returns the hash.
   * `lane`: the public lane as the requesting client's, whose admission counted this call. `signer`: the dev wallet's
   * account that signed it, for the validation on this thread (a lane's worker recovers the sender as ever).
   */
  async submit(raw: Uint8Array, lane: Lane = this.lanes.public, signer?: KnownSigner): Promise<string> {
    // Decoding is a walk over the bytes (views, no copies): malformed bytes are answered with geth's "rlp: …" here,
    // before the replay-protection check that needs v, as geth decodes before it checks. The dev wallet's typed
    // transactions, well formed and protected by their type, are decoded once, by the validation.
    const walletTyped = signer !== undefined && raw[0]! <= 0x7f
    if (!walletTyped && !decodeTx(raw).protected && !this.opts.allowUnprotectedTxs) {
      throw new TxPoolRejectedError('only replay-protected (EIP-155) transactions allowed over RPC', 'unprotected')
    }
    return this.validateAndAdd(raw, lane, signer)
  }

  private async validateAndAdd(raw: Uint8Array, lane: Lane, signer?: KnownSigner): Promise<string> {
    // The pool's bound, before the worker's expensive checks (geth checks it first in ValidateTransaction).
    const limit = raw[0] === 3 ? BLOB_TX_MAX_SIZE : TX_MAX_SIZE
    if (raw.length > limit) throw new TxPoolRejectedError(`oversized data: transaction size ${raw.length}, limit ${limit}`, 'oversizedData')
    let v: ValidatedTx
    let checked = false
    for (let attempt = 1; ; attempt++) {
      const head = this.chain.head()
      const here = raw[0] === 3 ? undefined : this.opts.validateHere
      v = here === undefined ? await lane.run({ op: 'validateTx', raw, headHash: head.hash }) : await here(raw, head.hash, signer)
      // A blob transaction's sidecar, its shape checked by the worker: its proofs on the KZG thread, once. A version-0
      // sidecar after Osaka is not given its cell proofs here (a third of a second a blob): pooled with its blob
      // proofs, it is converted in the background (convertLater).
      if (v.sidecar !== undefined && !checked) {
        const check = await this.kzg.check.check(v.sidecar)
        if (!check.ok) throw new TxRejectedError(check.why, 'invalidTransaction')
        checked = true
      }
      // The sender's nonce is the pool's floor only if read at the head the pool is at now: a block that landed
      // meanwhile may have raised it (a floor read too low hides the transaction as queued).
      if (attempt === MAX_VALIDATIONS || equalBytes(this.chain.head().hash, head.hash)) break
    }
    const tx: PooledTx = {
      hash: v.hash,
      raw,
      sender: v.sender,
      senderKey: v.senderKey,
      nonce: BigInt(v.nonce),
      maxFee: BigInt(v.maxFee),
      maxPriorityFee: BigInt(v.maxPriorityFee),
      json: v.json,
      ...(v.sidecar === undefined ? {} : { blobs: pooledSidecar(v.sidecar, undefined).blobs }),
    }
    this.txPool.add(tx, BigInt(v.stateNonce))
    if (v.sidecar?.toCellProofs === true) this.convertLater(tx, v.sidecar)
    return v.hash
  }

  /**
   * A pooled version-0 sidecar's conversion to cell proofs (geth's ToV1) on the conversion thread, started now unless
   * cellProofsWhenWanted. Until it is done the pool serves the transaction nowhere cell proofs are wanted: a consensus
   * client's build leaves it out (as geth's miner takes only sidecars of the fork's version), engine_getBlobsV2 and
   * debug_getRawTransaction wait for it.
   */
  private convertLater(tx: PooledTx, sidecar: UncheckedSidecar): void {
    const make = async (): Promise<void> => {
      try {
        const pooled = pooledSidecar(sidecar, await this.kzg.convert.cellProofs(sidecar.blobs))
        this.txPool.withCellProofs(tx, pooled.converted!, pooled.blobs)
      } catch (e) {
        // The thread gone (it is started again on the next call): the transaction waits for the next want.
        this.log.warn('blob transaction not given its cell proofs', { hash: tx.hash, error: e instanceof Error ? e.message : String(e) })
      }
    }
    this.txPool.needsCellProofs(tx.hash, make)
    if (this.opts.cellProofsWhenWanted !== true) void this.txPool.cellProofsMade(tx.hash)
  }

  /**
   * Version-0 sidecars pooled while the next block was not Osaka's, once it is: given their cell proofs as one pooled
   * after the fork is (convertLater). Left as they were, every Osaka build would leave them out (as geth's miner takes
   * only sidecars of the fork's version) until they were evicted.
   */
  private convertAtFork(): void {
    // The pool's look first: it costs nothing without blob transactions, the next block's rules a Common lookup.
    const waiting = this.txPool.withBlobProofs()
    if (waiting.length === 0 || this.opts.cellProofsDue?.() !== true) return
    for (const tx of waiting) {
      const wrapped = decodeTx(tx.raw).wrapped
      if (wrapped === undefined) continue
      const sidecar: UncheckedSidecar = {
        ...wrapped.sidecar,
        canonical: wrapped.canonical,
        versionedHashes: tx.blobs!.map((b) => b.versionedHash),
        toCellProofs: true,
      }
      this.convertLater(tx, sidecar)
    }
  }

  /** Raw network wrappers of recently included blob transactions, oldest first (bounded). */
  private readonly included = new Map<string, Uint8Array>()

  /**
   * Sender, nonce and hash of each transaction of a stored block: a pooled one's from the pool, any other's read from
   * its stored JSON (a dev block's transactions are all pooled, and parsing their JSON again was ~1% of a send).
   */
  private blockTxs(blockHash: Uint8Array): IncludedTx[] {
    const decoder = new TextDecoder()
    const out: IncludedTx[] = []
    const hashes = this.store.getTxHashes(blockHash) ?? []
    for (let i = 0; i < hashes.length; i++) {
      const pooled = this.txPool.get(bytesToHex(hashes[i]!))
      if (pooled !== undefined) {
        out.push({ hash: pooled.hash, sender: pooled.sender, nonce: pooled.nonce })
        continue
      }
      const t = JSON.parse(decoder.decode(this.store.getTxJsonBytes(blockHash, i)!)) as { hash: string; from: string; nonce: string }
      out.push({ hash: t.hash, sender: t.from, nonce: BigInt(t.nonce) })
    }
    return out
  }

  /**
   * After forkchoice: the senders of undone blocks re-learn their nonces, the new blocks' transactions leave the
   * pool, and the undone blocks' transactions are validated again against the new head — all in one task of the
   * engine lane, which never refuses work (a full public queue used to drop them silently). Resolves when they are
   * back; the engine answers forkchoiceUpdated without waiting for that, evm_revert after it.
   */
  afterForkchoice(added: Uint8Array[], removed: Uint8Array[]): Promise<void> {
    if (removed.length > 0) this.txPool.forgetFloors(removed.flatMap((h) => this.blockTxs(h).map((t) => t.sender)))
    const included = added.flatMap((h) => this.blockTxs(h))
    // Blocks keep no sidecars: those of included blob transactions are kept a while, for a reorg to bring them back.
    for (const t of included) {
      const pooled = this.txPool.get(t.hash)
      if (pooled?.blobs !== undefined) setBounded(this.included, t.hash, pooled.raw, INCLUDED_SIDECARS)
    }
    if (included.length > 0) this.txPool.removeIncluded(included)
    this.convertAtFork()
    let back = 0
    const refused = new Map<string, number>()
    const pending: Promise<void>[] = []
    for (const blockHash of removed) {
      const body = this.store.getBodyRlp(blockHash)
      if (body === undefined) continue
      for (let raw of bodyTransactions(body)) {
        if (raw[0] === 3) {
          // The block holds the transaction without its sidecar: it comes back in the wrapper it was pooled in.
          const hash = bytesToHex(keccak256(raw))
          const wrapped = this.included.get(hash)
          if (wrapped === undefined) {
            refused.set('sidecarNoLongerKnown', (refused.get('sidecarNoLongerKnown') ?? 0) + 1)
            continue
          }
          raw = wrapped
        }
        pending.push(
          this.validateAndAdd(raw, this.lanes.engine).then(
            () => {
              back++
            },
            (e: unknown) => {
              // Mostly nonceTooLow: the new chain includes it too. Counted by kind, not lost without a word.
              const why = e instanceof DomainError ? e.kind : e instanceof Error ? e.message : String(e)
              refused.set(why, (refused.get(why) ?? 0) + 1)
            },
          ),
        )
      }
    }
    if (pending.length === 0) return Promise.resolve()
    return Promise.all(pending).then(() => {
      this.log.info('reorg: transactions of undone blocks re-pooled', { repooled: back, of: pending.length, refused: Object.fromEntries(refused) })
    })
  }
}
