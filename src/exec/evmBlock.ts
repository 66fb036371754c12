import type { Block } from '@ethereumjs/block'
import { Fork } from '../chain/evmFork.js'
import { TxRejectedError } from '../evm/errors.js'
import { bytesToWord } from '../evm/words.js'
import { HeaderView } from '../store/headerView.js'
import { bytesToHex, equalBytes } from '../util/hex.js'
import type { BlockCommit } from '../vm/blockCommit.js'
import { InvalidRequestsError } from '../vm/blockEnd.js'
import type { EvmConfig } from '../vm/evmConfig.js'
import { evmTransactionOfBlockTx } from '../vm/evmTransaction.js'
import type { SignedTx } from './blockTx.js'
import type { BlockParts } from '../codecs/blockParts.js'
import type { SenderAt } from './senderRecovery.js'
import type { StoredStateSource } from '../vm/stateSources.js'
import { BlockRun } from './blockRun.js'
import type { BlockReceipt } from './receipts.js'
import { InvalidBlockError } from './errors.js'
import { blockPhases, Phase } from '../util/blockPhases.js'
import { requestsHash } from './requests.js'

// A given block executed on Sponge's EVM through the execution seam, as geth's StateProcessor runs it: the
// start-of-block system calls, each transaction (a refused one makes the block invalid), a pre-merge block's rewards,
// the withdrawals and EIP-7685's requests; then blob gas, requests hash, receipts root, logs bloom, gas used and state
// root checked against the header, with the block processor's messages. The state is committed only in memory
// (BlockCommit): the caller stores it with the block.

export interface EvmBlockResult {
  receipts: BlockReceipt[]
  requests: Uint8Array[]
  commit: BlockCommit
  /** Each transaction's sender. */
  senders: Uint8Array[]
  /** The blob base fee, Cancun on (the receipts' replies report it). */
  blobGasPrice: bigint | undefined
}

/** What ethash pays a block's miner: 5 ether, 3 from Byzantium (EIP-649), 2 from Constantinople (EIP-1234). */
function blockReward(fork: Fork): bigint {
  return fork >= Fork.constantinople ? 2_000_000_000_000_000_000n : fork >= Fork.byzantium ? 3_000_000_000_000_000_000n : 5_000_000_000_000_000_000n
}

/**
 * Runs `block` (`parts`: its header's bytes and hash, made once for the block's record too), whose transactions are
 * `txs`, on `source`, the state with root `parentRoot`; `senderAt` gives each
 * transaction's sender in its turn (senderRecovery.ts). The header's fields that execution does not decide (number,
 * time, gas limit, base fee, excess blob gas) were checked against its parent before, and the transactions'
 * signature values and the body's roots. Throws InvalidBlockError.
 */
export function executeBlockOnEvm(
  config: EvmConfig,
  block: Block,
  parts: Pick<BlockParts, 'headerRlp' | 'hash' | 'withdrawals'>,
  txs: readonly SignedTx[],
  source: StoredStateSource,
  parentRoot: Uint8Array,
  senderAt: SenderAt,
): EvmBlockResult {
  const h = block.header
  const phases = blockPhases
  let m = phases?.mark()
  const senders: Uint8Array[] = []
  const run = new BlockRun(config, HeaderView.of(parts.headerRlp), parts.hash, source, parentRoot)
  for (let i = 0; i < txs.length; i++) {
    const tx = txs[i]!
    if (h.gasLimit < tx.gasLimit + run.gasUsed) throw new InvalidBlockError('tx has a higher gas limit than the block')
    // A signature that recovers no key fails here, in the transaction's turn, as geth's state processor reports it.
    const ms = phases?.mark()
    const sender = senderAt(i)
    if (ms !== undefined) phases!.end(Phase.senders, ms)
    if (sender === undefined) throw new InvalidBlockError(`could not apply tx ${i} [${bytesToHex(tx.hash)}]: ${INVALID_SIG}`)
    senders.push(sender)
    try {
      run.apply(evmTransactionOfBlockTx(tx, sender))
    } catch (e) {
      if (e instanceof TxRejectedError) throw new InvalidBlockError(`could not apply tx ${i} [${bytesToHex(tx.hash)}]: ${e.message}`)
      throw e
    }
  }
  if (run.fork >= Fork.cancun && h.blobGasUsed !== run.blobGasUsed) {
    throw new InvalidBlockError(`block blobGasUsed mismatch: have ${h.blobGasUsed}, want ${run.blobGasUsed}`)
  }
  if (!config.spec.isPostMerge(h.number)) {
    const reward = blockReward(run.fork)
    let minerReward = reward
    for (const uncle of block.uncleHeaders) {
      run.credit(bytesToWord(uncle.coinbase.bytes), ((uncle.number + 8n - h.number) * reward) / 8n)
      minerReward += reward / 32n
    }
    run.credit(bytesToWord(h.coinbase.bytes), minerReward)
  }
  let requests: Uint8Array[]
  try {
    requests = run.finish(parts.withdrawals)
  } catch (e) {
    if (e instanceof InvalidRequestsError) throw new InvalidBlockError(e.message)
    throw e
  }

  if (m !== undefined) {
    phases!.end(Phase.execution, m)
    m = phases!.mark()
  }

  if (run.fork >= Fork.prague && !equalBytes(requestsHash(requests), h.requestsHash!)) throw new InvalidBlockError('invalid requestsHash')
  if (!equalBytes(run.receiptsRoot(), h.receiptTrie)) throw new InvalidBlockError('invalid receiptTrie')
  if (!equalBytes(run.bloom, h.logsBloom)) throw new InvalidBlockError('invalid bloom')
  if (run.gasUsed !== h.gasUsed) throw new InvalidBlockError(`invalid gasUsed: got ${run.gasUsed}, want ${h.gasUsed}`)
  if (m !== undefined) {
    phases!.end(Phase.receipts, m)
    m = phases!.mark()
  }
  const commit = run.commit()
  if (m !== undefined) phases!.end(Phase.commit, m)
  if (!equalBytes(commit.stateRoot, h.stateRoot)) {
    throw new InvalidBlockError(`invalid block stateRoot, got: ${bytesToHex(commit.stateRoot)}, want: ${bytesToHex(h.stateRoot)}`)
  }
  return { receipts: run.receipts, requests, commit, senders, blobGasPrice: run.blobGasPrice }
}

const INVALID_SIG = 'invalid sender: invalid transaction v, r, s values'
