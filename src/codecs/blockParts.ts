import type { Block } from '@ethereumjs/block'
import { RLP } from '@ethereumjs/rlp'
import { bigIntToUnpaddedBytes } from '@ethereumjs/util'
import { keccak256 } from '../crypto/keccak.js'
import { encodeHeader, type HeaderFields } from './headerCodec.js'

/** A withdrawal as a block holds it (EIP-4895). */
export interface BlockWithdrawal {
  index: bigint
  validatorIndex: bigint
  address: Uint8Array
  amount: bigint
}

/** A withdrawal's RLP, as the body and the withdrawals root hold it. */
export function withdrawalRlp(w: BlockWithdrawal): Uint8Array {
  const q = bigIntToUnpaddedBytes
  return RLP.encode([q(w.index), q(w.validatorIndex), w.address, q(w.amount)])
}

/**
 * A block as its stored record and replies are made from it (exec/blockRecord.ts): its header's fields, the header's
 * RLP and hash, and the body's parts other than the transactions (which travel as their bytes beside it). A block
 * built here is made straight into this form; one that comes in as an EthereumJS block (a payload's, a chain file's,
 * the genesis) is converted once, at the edge (partsOfBlock).
 */
export interface BlockParts {
  header: HeaderFields
  headerRlp: Uint8Array
  hash: Uint8Array
  /** Each uncle's header RLP (blocks before the merge only). */
  uncles: readonly Uint8Array[]
  /** Shanghai on. */
  withdrawals: readonly BlockWithdrawal[] | undefined
}

/** A block made from its header's fields (a block built on Sponge's EVM): no uncles. */
export function blockParts(header: HeaderFields, withdrawals: readonly BlockWithdrawal[] | undefined): BlockParts {
  const headerRlp = encodeHeader(header)
  return { header, headerRlp, hash: keccak256(headerRlp), uncles: [], withdrawals }
}

/** An EthereumJS block's parts. */
export function partsOfBlock(block: Block): BlockParts {
  const h = block.header
  const header: HeaderFields = {
    parentHash: h.parentHash,
    uncleHash: h.uncleHash,
    coinbase: h.coinbase.bytes,
    stateRoot: h.stateRoot,
    transactionsRoot: h.transactionsTrie,
    receiptsRoot: h.receiptTrie,
    logsBloom: h.logsBloom,
    difficulty: h.difficulty,
    number: h.number,
    gasLimit: h.gasLimit,
    gasUsed: h.gasUsed,
    timestamp: h.timestamp,
    extraData: h.extraData,
    mixHash: h.mixHash,
    nonce: h.nonce,
    ...(h.baseFeePerGas === undefined ? {} : { baseFee: h.baseFeePerGas }),
    ...(h.withdrawalsRoot === undefined ? {} : { withdrawalsRoot: h.withdrawalsRoot }),
    ...(h.blobGasUsed === undefined ? {} : { blobGasUsed: h.blobGasUsed }),
    ...(h.excessBlobGas === undefined ? {} : { excessBlobGas: h.excessBlobGas }),
    ...(h.parentBeaconBlockRoot === undefined ? {} : { parentBeaconBlockRoot: h.parentBeaconBlockRoot }),
    ...(h.requestsHash === undefined ? {} : { requestsHash: h.requestsHash }),
  }
  return {
    header,
    headerRlp: h.serialize(),
    hash: block.hash(),
    uncles: block.uncleHeaders.map((u) => u.serialize()),
    withdrawals: block.withdrawals?.map((w) => ({ index: w.index, validatorIndex: w.validatorIndex, address: w.address.bytes, amount: w.amount })),
  }
}
