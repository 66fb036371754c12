import { GAS_PER_BLOB } from '../../chain/blobFee.js'
import { Fork } from '../../chain/evmFork.js'
import type { ChainSpec } from '../../chain/spec.js'
import { executionPayloadJson } from '../../codecs/payload.js'
import { type BlockParts, type BlockWithdrawal, blockParts, withdrawalRlp } from '../../codecs/blockParts.js'
import type { BlockTx } from '../../codecs/blockTx.js'
import { bytesToWord } from '../../evm/words.js'
import type { BlockRecord, ChainStore } from '../../store/chainStore.js'
import { HeaderView } from '../../store/headerView.js'
import { orderedTrieRoot } from '../../trie/orderedTrie.js'
import { bytesToHex, hexToBytes, toQuantity } from '../../util/hex.js'
import { evmForkAt } from '../../vm/blockContext.js'
import { InvalidRequestsError } from '../../vm/blockEnd.js'
import { EMPTY_UNCLE_HASH, encodeHeader, type HeaderFields } from '../../codecs/headerCodec.js'
import { INITIAL_BASE_FEE, nextBaseFee, nextExcessBlobGas } from '../../vm/headerFees.js'
import type { BlockRun } from '../../exec/blockRun.js'
import type { BlockCommit } from '../../vm/blockCommit.js'
import { blockRecord } from '../../exec/blockRecord.js'
import type { BlockExecutor } from '../../exec/executor.js'
import { nextGasLimit } from '../../exec/gasLimit.js'
import { requestsHash } from '../../exec/requests.js'
import { TxRejectedError, UnknownParentError } from '../../exec/errors.js'
import { checkTxAgainstState } from '../../txrules/txChecks.js'
import { validTx } from '../../txrules/txRules.js'
import { type SidecarProofs, checkSidecarProofs } from '../../crypto/kzgSidecar.js'

export interface BuildWithdrawal {
  index: string
  validatorIndex: string
  address: string
  amount: string
}

export interface BuildInput {
  parentHash: string
  timestamp: string
  prevRandao: string
  feeRecipient: string
  withdrawals: BuildWithdrawal[] | undefined
  parentBeaconBlockRoot: string | undefined
  /** Raw transactions (blob transactions in their network wrapper when they carry blobs). */
  transactions: Uint8Array[]
  /** Their senders' addresses where known (the pool recovered them at admission), by index: not recovered again. */
  senders?: Uint8Array[]
  /** 'exact': every transaction must apply, in order (testing_buildBlockV1); 'best': skip those that do not. */
  mode: 'exact' | 'best'
  extraData: string
  gasLimitTarget: string
  /** Store the built block (not canonical), so a later newPayload of it answers at once. */
  persist: boolean
  /**
   * No consensus client reads this build's blobs bundle (dev mode's own blocks): a version-0 sidecar after Osaka,
   * pooled while its cell proofs are made in the background (txpool/txSubmission.ts), is built in as it is, its blob
   * proofs in the bundle, instead of being left out until converted as a consensus client's build leaves it.
   */
  bundleUnread?: boolean
}

export interface BlobsBundle {
  commitments: string[]
  proofs: string[]
  blobs: string[]
}

export interface BuiltPayload {
  blockHash: string
  blockNumber: string
  timestamp: string
  executionPayload: Record<string, unknown>
  blockValue: string
  blobsBundle: BlobsBundle
  executionRequests: string[]
}

const ZERO32 = new Uint8Array(32)
const ZERO_NONCE = new Uint8Array(8)

/**
 * Builds a block on a stored parent on Sponge's EVM, through the block executor's run (the start-of-block system
 * calls, each transaction, withdrawals and EIP-7685 requests), in a worker. The gas limit moves toward the target as
 * geth's does. Each transaction is held to the rules the pool admitted it by (txrules), against this block: what the
 * pool accepts, the builder includes. 'exact' (testing_buildBlockV1) fails on the first that does not apply; 'best'
 * leaves it out.
 */
export async function buildPayload(spec: ChainSpec, store: ChainStore, executor: BlockExecutor, input: BuildInput): Promise<BuiltPayload> {
  const b = buildBlock(spec, store, executor, input)
  if (input.persist) {
    store.putBlockSync(recordOf(b))
    executor.builtBlockStored(b.commit.stateRoot, b.commit)
  }
  return {
    blockHash: bytesToHex(b.block.hash),
    blockNumber: toQuantity(b.block.header.number),
    timestamp: toQuantity(b.block.header.timestamp),
    executionPayload: executionPayloadJson(
      b.block,
      3,
      b.txs.map((t) => t.raw),
    ),
    blockValue: toQuantity(b.run.minerValue),
    blobsBundle: b.bundle,
    executionRequests: b.requests.filter((r) => r.length > 1).map((r) => bytesToHex(r)),
  }
}

/** A block built and not yet stored: its record, for a write that also makes it the head (dev mode). */
export interface UnstoredBlock {
  record: BlockRecord
  /** Tells the builder's executor the block is stored: its warm state follows it. */
  stored(): void
}

/**
 * Builds as buildPayload does, without storing the block nor making its payload's JSON: dev mode stores it in the
 * transaction that makes it the head (engine/forkchoice.ts), and nobody asks for its payload.
 */
export function buildUnstored(spec: ChainSpec, store: ChainStore, executor: BlockExecutor, input: BuildInput): UnstoredBlock {
  const b = buildBlock(spec, store, executor, input)
  return { record: recordOf(b), stored: () => executor.builtBlockStored(b.commit.stateRoot, b.commit) }
}

interface Built {
  /** Its header and withdrawals (its transactions are `txs`). */
  block: BlockParts
  /** Its transactions in the domain's form, as the block holds them. */
  txs: BlockTx[]
  run: BlockRun
  commit: BlockCommit
  senders: Uint8Array[]
  requests: Uint8Array[]
  bundle: BlobsBundle
}

const recordOf = (b: Built): BlockRecord =>
  blockRecord(b.block, b.txs, b.run.receipts, b.commit.trieNodes, b.commit.stateChanges, b.senders, b.run.blobGasPrice)

function buildBlock(spec: ChainSpec, store: ChainStore, executor: BlockExecutor, input: BuildInput): Built {
  const parentHash = hexToBytes(input.parentHash)
  const parent = HeaderView.read(store, parentHash)
  if (parent === undefined) throw new UnknownParentError(`unknown parent block ${input.parentHash}`)
  const number = parent.number + 1n
  const timestamp = BigInt(input.timestamp)
  const fork = evmForkAt(spec, number, timestamp)
  const common = spec.commonAt(number, timestamp)
  const blobs = spec.blobParamsAt(timestamp)
  const withdrawals = fork >= Fork.shanghai ? (input.withdrawals ?? []) : undefined
  const header: HeaderFields = {
    parentHash,
    uncleHash: EMPTY_UNCLE_HASH,
    coinbase: hexToBytes(input.feeRecipient),
    stateRoot: ZERO32,
    transactionsRoot: ZERO32,
    receiptsRoot: ZERO32,
    logsBloom: new Uint8Array(256),
    difficulty: 0n,
    number,
    gasLimit: nextGasLimit(parent.gasLimit, BigInt(input.gasLimitTarget)),
    gasUsed: 0n,
    timestamp,
    extraData: hexToBytes(input.extraData),
    mixHash: hexToBytes(input.prevRandao),
    nonce: ZERO_NONCE,
    ...(fork >= Fork.london ? { baseFee: parent.hasBaseFee ? nextBaseFee(parent) : INITIAL_BASE_FEE } : {}),
    ...(withdrawals === undefined ? {} : { withdrawalsRoot: ZERO32 }),
    ...(fork >= Fork.cancun
      ? {
          blobGasUsed: 0n,
          excessBlobGas: blobs === undefined ? 0n : nextExcessBlobGas(parent, blobs, fork >= Fork.osaka),
          parentBeaconBlockRoot: input.parentBeaconBlockRoot === undefined ? ZERO32 : hexToBytes(input.parentBeaconBlockRoot),
        }
      : {}),
    ...(fork >= Fork.prague ? { requestsHash: ZERO32 } : {}),
  }
  // Nothing awaited from here on: the run reads one store snapshot.
  const run = executor.startBuild(parentHash, parent, HeaderView.of(encodeHeader(header)))
  const maxBlobGas = BigInt(blobs?.max ?? 0) * GAS_PER_BLOB
  const bundle: BlobsBundle = { commitments: [], proofs: [], blobs: [] }
  const included: BlockTx[] = []
  const senders: Uint8Array[] = []
  for (const [i, raw] of input.transactions.entries()) {
    let tx: BlockTx
    let sidecar: SidecarProofs | undefined
    try {
      // A blob transaction may come without its sidecar only to an exact build.
      const valid = validTx(
        raw,
        { common, gasLimit: header.gasLimit },
        input.bundleUnread === true ? 'optionalAnyVersion' : 'optional',
        input.senders?.[i],
      )
      tx = valid.tx
      sidecar = valid.decoded.wrapped?.sidecar
      // The pool checked its transactions' KZG proofs as it took them in; given ones are checked here.
      if (sidecar !== undefined && input.mode === 'exact') {
        const check = checkSidecarProofs(sidecar)
        if (!check.ok) throw new TxRejectedError(check.why, 'invalidTransaction')
      }
      checkTxAgainstState(tx, valid.sender, run.state.get(bytesToWord(valid.sender)), { baseFeePerGas: header.baseFee }, true)
      const cellProofs = common.isActivatedEIP(7594)
      // A version-0 sidecar where cell proofs are due passes for the version-1 one it is turning into (bundleUnread).
      const version = sidecar?.version === 0 && cellProofs && input.bundleUnread === true ? 1 : sidecar?.version
      checkBlockRoom(run, tx, version, header.gasLimit, maxBlobGas, input.mode === 'exact', cellProofs)
      run.apply(valid.evm)
      senders.push(valid.sender)
    } catch (e) {
      run.state.abortTransaction()
      if (input.mode === 'exact') throw e
      continue
    }
    if (sidecar !== undefined) {
      bundle.blobs.push(...sidecar.blobs.map((b) => bytesToHex(b)))
      bundle.commitments.push(...sidecar.commitments.map((c) => bytesToHex(c)))
      bundle.proofs.push(...sidecar.proofs.map((p) => bytesToHex(p)))
    }
    // A blob transaction comes without its sidecar (txRules.ts makes it so), as the block holds it.
    included.push(tx)
  }
  const ws = withdrawals?.map(
    (w): BlockWithdrawal => ({
      index: BigInt(w.index),
      validatorIndex: BigInt(w.validatorIndex),
      address: hexToBytes(w.address),
      amount: BigInt(w.amount),
    }),
  )
  let requests: Uint8Array[]
  try {
    requests = run.finish(ws)
  } catch (e) {
    // A block whose requests are invalid cannot be built (a request contract without code, or whose call fails).
    if (e instanceof InvalidRequestsError) throw new Error(`cannot build a block: ${e.message}`)
    throw e
  }
  const commit = run.commit()
  header.stateRoot = commit.stateRoot
  header.transactionsRoot = orderedTrieRoot(included.map((t) => t.raw))
  header.receiptsRoot = run.receiptsRoot()
  header.logsBloom = run.bloom
  header.gasUsed = run.gasUsed
  if (header.blobGasUsed !== undefined) header.blobGasUsed = run.blobGasUsed
  if (ws !== undefined) header.withdrawalsRoot = orderedTrieRoot(ws.map(withdrawalRlp))
  if (header.requestsHash !== undefined) header.requestsHash = requestsHash(requests)
  const block = blockParts(header, ws)
  return { block, txs: included, run, commit, senders, requests, bundle }
}

/** The block's own limits on one more transaction: its gas left, and for a blob transaction its sidecar and blob gas. */
function checkBlockRoom(
  run: BlockRun,
  tx: BlockTx,
  /** A blob transaction's sidecar version (0 blob proofs, 1 cell proofs); undefined: it came without one. */
  sidecarVersion: number | undefined,
  gasLimit: bigint,
  maxBlobGas: bigint,
  allowNoBlobs: boolean,
  cellProofs: boolean,
): void {
  if (tx.gasLimit > gasLimit - run.gasUsed) {
    throw new TxRejectedError('tx has a higher gas limit than the remaining gas in the block', 'blockGasLimitReached')
  }
  if (tx.type !== 3) return
  if (sidecarVersion === undefined && !allowNoBlobs) throw new TxRejectedError('blobs missing for 4844 transaction', 'invalidTransaction')
  if (sidecarVersion !== undefined && (sidecarVersion === 1) !== cellProofs) {
    throw new TxRejectedError('blob sidecar version does not match the fork', 'invalidTransaction')
  }
  if (run.blobGasUsed + BigInt(tx.blobVersionedHashes.length) * GAS_PER_BLOB > maxBlobGas) {
    throw new TxRejectedError('block blob gas limit reached', 'blockGasLimitReached')
  }
}
