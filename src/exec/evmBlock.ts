import type { Block } from '@ethereumjs/block'
import type { TxReceipt } from '@ethereumjs/vm'
import { Fork } from '../chain/evmFork.js'
import type { ChainSpec } from '../chain/spec.js'
import { Status } from '../evm/frame.js'
import { Evm } from '../evm/interpreter.js'
import { type Log, WorldState } from '../evm/state.js'
import { applyTransaction } from '../evm/transaction.js'
import { TxRejectedError } from '../evm/errors.js'
import { addressToBytes, bytesToWord, wordToBytes } from '../evm/words.js'
import { HeaderView } from '../store/headerView.js'
import { orderedTrieRoot } from '../trie/orderedTrie.js'
import { bytesToHex, equalBytes } from '../util/hex.js'
import { type BlockCommit, commitBlockState } from '../vm/blockCommit.js'
import { blockContextOf } from '../vm/blockContext.js'
import { applyWithdrawals, blockRequests, InvalidRequestsError } from '../vm/blockEnd.js'
import { applyBlockStart } from '../vm/blockStart.js'
import type { EvmConfig } from '../vm/evmConfig.js'
import { evmTransactionOf } from '../vm/evmTransaction.js'
import { encodeReceipt, logsBloom } from '../vm/receiptCodec.js'
import { stateRootAfter } from '../vm/stateRoot.js'
import type { StoredStateSource } from '../vm/stateSources.js'
import { InvalidBlockError } from './errors.js'
import { requestsHash } from './requests.js'

// A block executed on Sponge's EVM through the execution seam, as geth's StateProcessor runs it: the start-of-block
// system calls, each transaction (a refused one makes the block invalid), a pre-merge block's rewards, the
// withdrawals and EIP-7685's requests; then gas used, receipts root, logs bloom, requests hash and state root checked
// against the header, with the block processor's messages. The state is committed only in memory (BlockCommit): the
// caller stores it with the block.

export interface EvmBlockResult {
  /** In EthereumJS's receipt shape, which the stored replies are made from (receipts.ts). */
  receipts: TxReceipt[]
  requests: Uint8Array[]
  commit: BlockCommit
}

const GAS_PER_BLOB = 131_072n

/** What ethash pays a block's miner: 5 ether, 3 from Byzantium (EIP-649), 2 from Constantinople (EIP-1234). */
function blockReward(fork: Fork): bigint {
  return fork >= Fork.constantinople ? 2_000_000_000_000_000_000n : fork >= Fork.byzantium ? 3_000_000_000_000_000_000n : 5_000_000_000_000_000_000n
}

/**
 * Runs `block` on `source`, the state with root `parentRoot`. The block's header fields that execution does not
 * decide (number, time, base fee, blob gas) were checked against its parent before; its transactions' signatures and
 * the body's roots too. Throws InvalidBlockError.
 */
export function executeBlockOnEvm(config: EvmConfig, block: Block, source: StoredStateSource, parentRoot: Uint8Array): EvmBlockResult {
  const spec: ChainSpec = config.spec
  const h = block.header
  const header = HeaderView.of(h.serialize())
  const ctx = blockContextOf(spec, header, block.hash(), config.ancestors)
  const fork = ctx.fork
  const state = new WorldState(source)
  const evm = new Evm({ fork, block: ctx.env, state, scratch: config.scratch })
  applyBlockStart(evm, header)

  const receipts: TxReceipt[] = []
  const encoded: Uint8Array[] = []
  const bloom = new Uint8Array(256)
  const blockLogs: Log[] = []
  let gasUsed = 0n
  let blobGasUsed = 0n
  const perTxRoot = fork < Fork.byzantium
  for (let i = 0; i < block.transactions.length; i++) {
    const tx = block.transactions[i]!
    if (h.gasLimit < tx.gasLimit + gasUsed) throw new InvalidBlockError('tx has a higher gas limit than the block')
    const etx = evmTransactionOf(tx, tx.getSenderAddress().bytes)
    let outcome: ReturnType<typeof applyTransaction>
    try {
      outcome = applyTransaction(evm, etx, ctx.limits)
    } catch (e) {
      if (e instanceof TxRejectedError) throw new InvalidBlockError(`could not apply tx ${i} [${bytesToHex(tx.hash())}]: ${e.message}`)
      throw e
    }
    state.endTransaction()
    gasUsed += BigInt(outcome.gasUsed)
    blobGasUsed += GAS_PER_BLOB * BigInt(etx.blobHashes.length)
    const logs = outcome.logs
    for (const l of logs) blockLogs.push(l)
    const txBloom = logsBloom(logs)
    for (let b = 0; b < 256; b++) bloom[b]! |= txBloom[b]!
    const success = outcome.status === Status.success
    const ejsLogs = logs.map((l) => [addressToBytes(l.address), l.topics.map(wordToBytes), l.data] as [Uint8Array, Uint8Array[], Uint8Array])
    if (perTxRoot) {
      // Before Byzantium a receipt carries the state root after its transaction (EIP-658 replaced it with a status).
      const root = stateRootAfter(
        parentRoot,
        state.changes(),
        (a) => source.storageRoot(a),
        (x) => config.store.getTrieNode(x),
      )
      receipts.push({ stateRoot: root, cumulativeBlockGasUsed: gasUsed, bitvector: txBloom, logs: ejsLogs })
      encoded.push(encodeReceipt(tx.type, root, gasUsed, txBloom, logs))
    } else {
      receipts.push({ status: success ? 1 : 0, cumulativeBlockGasUsed: gasUsed, bitvector: txBloom, logs: ejsLogs })
      encoded.push(encodeReceipt(tx.type, success, gasUsed, txBloom, logs))
    }
  }
  if (fork >= Fork.cancun && h.blobGasUsed !== blobGasUsed) {
    throw new InvalidBlockError(`block blobGasUsed mismatch: have ${h.blobGasUsed}, want ${blobGasUsed}`)
  }

  if (!spec.isPostMerge(h.number)) {
    const reward = blockReward(fork)
    let minerReward = reward
    for (const uncle of block.uncleHeaders) {
      state.addBalance(state.get(bytesToWord(uncle.coinbase.bytes)), ((uncle.number + 8n - h.number) * reward) / 8n)
      minerReward += reward / 32n
    }
    state.addBalance(state.get(ctx.env.coinbase), minerReward)
    state.endTransaction()
  }
  if (fork >= Fork.shanghai) {
    applyWithdrawals(
      evm,
      (block.withdrawals ?? []).map((w) => ({ address: bytesToWord(w.address.bytes), amount: w.amount })),
    )
  }
  let requests: Uint8Array[]
  try {
    requests = blockRequests(evm, blockLogs, spec.depositContract === undefined ? undefined : bytesToWord(spec.depositContract))
  } catch (e) {
    if (e instanceof InvalidRequestsError) throw new InvalidBlockError(e.message)
    throw e
  }

  if (fork >= Fork.prague && !equalBytes(requestsHash(requests), h.requestsHash!)) throw new InvalidBlockError('invalid requestsHash')
  if (!equalBytes(orderedTrieRoot(encoded), h.receiptTrie)) throw new InvalidBlockError('invalid receiptTrie')
  if (!equalBytes(bloom, h.logsBloom)) throw new InvalidBlockError('invalid bloom')
  if (gasUsed !== h.gasUsed) throw new InvalidBlockError(`invalid gasUsed: got ${gasUsed}, want ${h.gasUsed}`)
  const commit = commitBlockState(parentRoot, state.changes(), source, config.store)
  if (!equalBytes(commit.stateRoot, h.stateRoot)) {
    throw new InvalidBlockError(`invalid block stateRoot, got: ${bytesToHex(commit.stateRoot)}, want: ${bytesToHex(h.stateRoot)}`)
  }
  return { receipts, requests, commit }
}
