import { Block, createBlockHeader } from '@ethereumjs/block'
import { createWithdrawal } from '@ethereumjs/util'
import { type ChainSpec, SPEC_PARAMS } from '../../chain/spec.js'
import { orderedTrieRoot } from '../../trie/orderedTrie.js'
import { bytesToHex, hexToBytes } from '../../util/hex.js'
import { rememberRoots, withdrawalsRoot } from '../../exec/blockRoots.js'
import { decodeBlockTx, type SignedTx, signingRulesOf } from '../../exec/blockTx.js'
import { TxRejectedError } from '../../exec/errors.js'
import { requestsHash } from '../../exec/requests.js'

// An execution payload (engine_newPayloadV1…V4's input) as the block it describes: the consensus side of newPayload.

/** An execution payload whose members were checked against its method version: those of later forks are absent. */
export interface PayloadData {
  parentHash: string
  feeRecipient: string
  stateRoot: string
  receiptsRoot: string
  logsBloom: string
  prevRandao: string
  blockNumber: string
  gasLimit: string
  gasUsed: string
  timestamp: string
  extraData: string
  baseFeePerGas: string
  blockHash: string
  transactions: string[]
  withdrawals?: { index: string; validatorIndex: string; address: string; amount: string }[]
  blobGasUsed?: string
  excessBlobGas?: string
}

/** engine_newPayloadV1…V4's input: V3 adds the blob hashes and beacon root, V4 the execution requests. */
export interface NewPayloadInput {
  version: 1 | 2 | 3 | 4
  payload: PayloadData
  versionedHashes?: string[]
  parentBeaconBlockRoot?: string
  executionRequests?: string[]
  /** Shared with a public worker recovering the transactions' senders alongside (senderRecovery.ts). */
  senders?: SharedArrayBuffer
}

/** The payload's blockHash is not the hash of the block it describes. */
export class BlockHashMismatchError extends Error {}

/** A payload's block: its header and withdrawals as EthereumJS's Block (with no transaction objects), its transactions. */
export interface PayloadBlock {
  block: Block
  txs: SignedTx[]
}

/**
 * The block a payload describes, with its hash recomputed from the payload, beacon root and requests hash, and its
 * transactions decoded from their bytes (exec/blockTx.ts). Throws when a transaction does not decode or the hash
 * differs from the payload's blockHash.
 */
export async function payloadToBlock(spec: ChainSpec, input: NewPayloadInput): Promise<PayloadBlock> {
  const p = input.payload
  const common = spec.commonAt(BigInt(p.blockNumber), BigInt(p.timestamp))
  const rules = signingRulesOf(common)
  const raws = p.transactions.map(hexToBytes)
  const txs = raws.map((raw, i) => {
    try {
      return decodeBlockTx(raw, rules)
    } catch (e) {
      if (e instanceof TxRejectedError) throw new Error(`invalid transaction ${i}: ${e.message}`)
      throw e
    }
  })
  const txRoot = orderedTrieRoot(raws)
  const withdrawals = p.withdrawals?.map((w) =>
    createWithdrawal({
      index: BigInt(w.index),
      validatorIndex: BigInt(w.validatorIndex),
      address: hexToBytes(w.address),
      amount: BigInt(w.amount),
    }),
  )
  const wRoot = withdrawals === undefined ? undefined : withdrawalsRoot(withdrawals)
  const header = createBlockHeader(
    {
      parentHash: p.parentHash as `0x${string}`,
      coinbase: p.feeRecipient as `0x${string}`,
      stateRoot: p.stateRoot as `0x${string}`,
      // From the payload's own bytes: re-serializing every transaction would cost as much again.
      transactionsTrie: txRoot,
      receiptTrie: p.receiptsRoot as `0x${string}`,
      logsBloom: p.logsBloom as `0x${string}`,
      difficulty: 0n,
      number: BigInt(p.blockNumber),
      gasLimit: BigInt(p.gasLimit),
      gasUsed: BigInt(p.gasUsed),
      timestamp: BigInt(p.timestamp),
      extraData: p.extraData as `0x${string}`,
      mixHash: p.prevRandao as `0x${string}`,
      nonce: new Uint8Array(8),
      baseFeePerGas: BigInt(p.baseFeePerGas),
      ...(wRoot === undefined ? {} : { withdrawalsRoot: wRoot }),
      ...(p.blobGasUsed === undefined ? {} : { blobGasUsed: BigInt(p.blobGasUsed) }),
      ...(p.excessBlobGas === undefined ? {} : { excessBlobGas: BigInt(p.excessBlobGas) }),
      ...(input.parentBeaconBlockRoot === undefined ? {} : { parentBeaconBlockRoot: input.parentBeaconBlockRoot as `0x${string}` }),
      ...(input.executionRequests === undefined ? {} : { requestsHash: requestsHash(input.executionRequests.map(hexToBytes)) }),
    },
    { common, params: SPEC_PARAMS },
  )
  // Its transactions are `txs`: EthereumJS's objects of them would cost their decoding again.
  const block = new Block(header, [], [], withdrawals, { common })
  rememberRoots(block, { txRoot, ...(wRoot === undefined ? {} : { withdrawalsRoot: wRoot }) })
  const hash = bytesToHex(block.hash())
  if (hash !== p.blockHash) throw new BlockHashMismatchError(`Invalid blockHash, expected: ${p.blockHash}, received: ${hash}`)
  return { block, txs }
}
