import { type Block, createBlock } from '@ethereumjs/block'
import { type TypedTransaction, isBlob4844Tx } from '@ethereumjs/tx'
import { Address, bytesToHex as ejsBytesToHex } from '@ethereumjs/util'
import { Bloom, type BlockBuilder, type RunTxResult, type TxReceipt, buildBlock, encodeReceipt, runTx } from '@ethereumjs/vm'
import type { ChainSpec } from '../chain/spec.js'
import { executionPayloadJson } from '../codecs/payload.js'
import { readBlock } from '../store/blockCodec.js'
import type { ChainStore } from '../store/chainStore.js'
import { bytesToHex, hexToBytes, toQuantity } from '../util/hex.js'
import type { BlockExecutor } from '../exec/executor.js'
import { transactionsRoot } from '../exec/blockRoots.js'
import { canApplyPlainTransfers } from '../exec/blockProcessor.js'
import { orderedTrieRoot } from '../trie/orderedTrie.js'
import { nextGasLimit } from '../exec/gasLimit.js'
import { type PlainTransfer, TRANSFER_GAS, applyPlainTransfer, plainTransferReceipt } from '../exec/plainTransfer.js'
import { TxRejectedError, UnknownParentError } from '../exec/errors.js'
import { txRejectionOf } from '../exec/ethereumjsErrors.js'
import { checkTxAgainstState } from '../txrules/txChecks.js'
import { validTx } from '../txrules/txRules.js'
import { type SidecarProofs, checkSidecarProofs } from '../crypto/kzgSidecar.js'
import { blockBuilderInternals } from '../state/ethereumjsInternals.js'

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
  /** 'exact': every transaction must apply, in order (testing_buildBlockV1); 'best': skip those that do not. */
  mode: 'exact' | 'best'
  extraData: string
  gasLimitTarget: string
  /** Store the built block (not canonical), so a later newPayload of it answers at once. */
  persist: boolean
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

/**
 * BlockBuilder.addTransaction, without its O(n²): it re-creates a block of every transaction so far (and so every
 * transaction object) for each one added — 20 s for a 400-transaction block here. We run each transaction in one
 * fixed context block and pass the cumulative gas explicitly, then let BlockBuilder.build() assemble the block.
 */
export async function appendTransaction(
  builder: BlockBuilder,
  context: Block,
  tx: TypedTransaction,
  /** A blob transaction's sidecar version (0 blob proofs, 1 cell proofs); undefined: it came without one. */
  sidecarVersion: number | undefined,
  allowNoBlobs: boolean,
  runOpts: { skipNonce?: boolean; plainTransfers?: boolean } = {},
): Promise<RunTxResult> {
  const b = blockBuilderInternals(builder)
  const vm = b.vm
  if (!b.checkpointed) {
    await vm.evm.journal.checkpoint()
    b.checkpointed = true
  }
  if (tx.gasLimit > context.header.gasLimit - b.gasUsed) {
    throw new TxRejectedError('tx has a higher gas limit than the remaining gas in the block', 'blockGasLimitReached')
  }
  const perBlob = vm.common.param('blobGasPerBlob')
  if (isBlob4844Tx(tx)) {
    if (sidecarVersion === undefined && !allowNoBlobs) throw new TxRejectedError('blobs missing for 4844 transaction', 'invalidTransaction')
    if (sidecarVersion !== undefined && (sidecarVersion === 1) !== vm.common.isActivatedEIP(7594)) {
      throw new TxRejectedError('blob sidecar version does not match the fork', 'invalidTransaction')
    }
    if (b.blobGasUsed + BigInt(tx.numBlobs()) * perBlob > vm.common.getBlobGasSchedule().maxBlobGasPerBlock) {
      throw new TxRejectedError('block blob gas limit reached', 'blockGasLimitReached')
    }
  }
  const plain = runOpts.plainTransfers === true && canApplyPlainTransfers(vm) ? await applyPlainTransfer(vm, tx, context.header) : undefined
  const result =
    plain !== undefined
      ? plainTransferResult(vm, plain, b.gasUsed)
      : await runTx(vm, { tx, block: context, skipHardForkValidation: true, blockGasUsed: b.gasUsed, skipNonce: runOpts.skipNonce })
  // A blob transaction comes without its sidecar (txRules.ts makes it so), as the block holds it.
  if (isBlob4844Tx(tx)) b.blobGasUsed += BigInt(tx.blobVersionedHashes.length) * perBlob
  b.transactions.push(tx)
  b.transactionResults.push(result)
  b.gasUsed += result.blockGasSpent
  b._minerValue += result.minerValue
  return result
}

/**
 * BlockBuilder.build() takes the transactions and receipts roots from these two methods, each filling EthereumJS's
 * general Merkle trie one entry at a time; our ordered trie gives the same roots in one pass (as import does).
 */
function withOrderedTries(builder: BlockBuilder): void {
  const b = blockBuilderInternals(builder)
  b.transactionsTrie = () => Promise.resolve(transactionsRoot(b.transactions))
  b.receiptTrie = () => Promise.resolve(orderedTrieRoot(b.transactionResults.map((r, i) => encodeReceipt(r.receipt, b.transactions[i]!.type))))
}

/** What runTx would have returned for a plain transfer, as far as BlockBuilder and its callers read it. */
function plainTransferResult(vm: BlockBuilder['vm'], plain: PlainTransfer, gasUsedBefore: bigint): RunTxResult {
  const bloom = new Bloom(undefined, vm.common)
  return {
    execResult: { executionGasUsed: 0n, returnValue: new Uint8Array(), logs: [], gasRefund: 0n },
    bloom,
    amountSpent: TRANSFER_GAS * plain.gasPrice,
    receipt: plainTransferReceipt(gasUsedBefore + TRANSFER_GAS),
    totalGasSpent: TRANSFER_GAS,
    blockGasSpent: TRANSFER_GAS,
    gasRefund: 0n,
    minerValue: plain.minerValue,
  }
}

/**
 * Builds a block on a stored parent with EthereumJS's BlockBuilder (system calls, withdrawals and EIP-7685 requests
 * included), runs in a worker. Gas limit moves toward the target as geth's does.
 */
export async function buildPayload(spec: ChainSpec, store: ChainStore, executor: BlockExecutor, input: BuildInput): Promise<BuiltPayload> {
  const parent = readBlock(spec, store, hexToBytes(input.parentHash))
  if (parent === undefined) throw new UnknownParentError(`unknown parent block ${input.parentHash}`)
  const number = parent.header.number + 1n
  const timestamp = BigInt(input.timestamp)
  const vm = executor.vm
  vm.common.setHardforkBy({ blockNumber: number, timestamp })
  executor.trieOverlay.pending.clear()
  await executor.state.setStateRoot(parent.header.stateRoot, true)
  executor.stateChanges.begin()
  executor.ancestors.advance(parent.hash(), parent.header.number, parent.header.parentHash)
  const headerData = {
    number,
    timestamp,
    coinbase: new Address(hexToBytes(input.feeRecipient)),
    mixHash: hexToBytes(input.prevRandao),
    extraData: hexToBytes(input.extraData),
    gasLimit: nextGasLimit(parent.header.gasLimit, BigInt(input.gasLimitTarget)),
    ...(input.parentBeaconBlockRoot === undefined ? {} : { parentBeaconBlockRoot: hexToBytes(input.parentBeaconBlockRoot) }),
  }
  const builder = await buildBlock(vm, {
    parentBlock: parent,
    headerData,
    withdrawals: input.withdrawals?.map((w) => ({
      index: BigInt(w.index),
      validatorIndex: BigInt(w.validatorIndex),
      address: hexToBytes(w.address),
      amount: BigInt(w.amount),
    })),
    blockOpts: { putBlockIntoBlockchain: false, setHardfork: false, common: vm.common },
  })
  withOrderedTries(builder)
  // The header the transactions run in, for our own pre-checks (base fee as the builder derives it).
  const draft = createBlock(
    {
      header: {
        ...headerData,
        parentHash: parent.hash(),
        ...(vm.common.isActivatedEIP(1559) && parent.header.baseFeePerGas !== undefined ? { baseFeePerGas: parent.header.calcNextBaseFee() } : {}),
      },
    },
    { common: vm.common },
  ).header
  const draftBlock = createBlock({ header: draft.toJSON() }, { common: vm.common })
  const bundle: BlobsBundle = { commitments: [], proofs: [], blobs: [] }
  const receipts: TxReceipt[] = []
  try {
    for (const raw of input.transactions) {
      let tx: TypedTransaction
      let sidecar: SidecarProofs | undefined
      try {
        // The rules the pool admitted the transaction by (txrules), against this block: what the pool accepts, the
        // builder includes. A blob transaction may come without its sidecar only to an exact build.
        const valid = validTx(raw, { common: draft.common, gasLimit: draft.gasLimit }, 'optional')
        tx = valid.tx
        sidecar = valid.decoded.wrapped?.sidecar
        // The pool checked its transactions' KZG proofs as it took them in; given ones are checked here.
        if (sidecar !== undefined && input.mode === 'exact') {
          const check = checkSidecarProofs(sidecar, false)
          if (!check.ok) throw new TxRejectedError(check.why, 'invalidTransaction')
        }
        checkTxAgainstState(tx, valid.sender, await executor.state.getAccount(new Address(valid.sender)), draft, true)
        receipts.push((await appendTransaction(builder, draftBlock, tx, sidecar?.version, input.mode === 'exact', { plainTransfers: true })).receipt)
      } catch (e) {
        if (input.mode === 'exact') throw txRejectionOf(e) ?? e
        continue
      }
      if (sidecar !== undefined) {
        bundle.blobs.push(...sidecar.blobs.map((b) => bytesToHex(b)))
        bundle.commitments.push(...sidecar.commitments.map((c) => bytesToHex(c)))
        bundle.proofs.push(...sidecar.proofs.map((p) => bytesToHex(p)))
      }
    }
    const { block, requests } = await builder.build()
    const executionRequests = (requests ?? []).filter((r) => r.bytes.length > 1).map((r) => ejsBytesToHex(r.bytes))
    if (input.persist) {
      store.putBlockSync(await executor.recordOf(block, { receipts }))
    }
    return {
      blockHash: bytesToHex(block.hash()),
      blockNumber: toQuantity(number),
      timestamp: toQuantity(timestamp),
      executionPayload: executionPayloadJson(block as Block, 3),
      blockValue: toQuantity(builder.minerValue),
      blobsBundle: bundle,
      executionRequests,
    }
  } catch (e) {
    await builder.revert()
    throw e
  } finally {
    executor.trieOverlay.pending.clear()
  }
}
