import type { Block } from '@ethereumjs/block'
import { ConsensusType, Hardfork } from '@ethereumjs/common'
import { Account, GWEI_TO_WEI } from '@ethereumjs/util'
import { type TxReceipt, type VM, encodeReceipt, runBlock, runTx } from '@ethereumjs/vm'
import { requestsHash } from './requests.js'
import { bytesToHex, equalBytes } from '../util/hex.js'
import { accumulateBlockRequests } from './blockRequests.js'
import { InvalidBlockError } from './errors.js'
import { orderedTrieRoot } from '../trie/orderedTrie.js'
import { TRANSFER_GAS, applyPlainTransfer, plainTransferReceipt } from './plainTransfer.js'
import { applyStartOfBlockSystemWrites } from './systemCalls.js'

/** What a processed block left behind: its receipts in transaction order, and its EIP-7685 requests (type ‖ data). */
export interface ProcessedBlock {
  receipts: TxReceipt[]
  requests: Uint8Array[]
  /** How many transactions were applied as plain transfers, without the interpreter. */
  plainTransfers: number
}

const MAX_GAS_LIMIT = 1n << 63n
/** EIPs of forks after Osaka that EthereumJS implements experimentally; a block under any of them goes to runBlock. */
const LATER_EIPS = [7708, 7778, 7864, 7928, 8037]

/**
 * Sponge's block processor: the work of EthereumJS's `runBlock` for post-merge blocks, with the same consensus
 * checks, but receipts and logs bloom accumulated as it goes, the receipts root from our ordered trie (runBlock's
 * general Merkle trie was ~17% of a transfer block), plain value transfers applied without the interpreter
 * (plainTransfer.ts), and one state commit per block. Every other transaction runs through EthereumJS's `runTx`.
 * Proof-of-work blocks (rewards, the DAO fork) and blocks under experimental later EIPs are handed to runBlock.
 */
export async function processBlock(vm: VM, block: Block, depositContract: Uint8Array | undefined): Promise<ProcessedBlock> {
  const header = block.header
  vm.common.setHardforkBy({ blockNumber: header.number, timestamp: header.timestamp })
  if (!processorApplies(vm)) {
    const result = await runBlock(vm, { block, skipHeaderValidation: true, setHardfork: true })
    return { receipts: result.receipts, requests: (result.requests ?? []).map((r) => r.bytes), plainTransfers: 0 }
  }
  if (header.gasLimit >= MAX_GAS_LIMIT) throw new InvalidBlockError('Invalid block with gas limit greater than (2^63 - 1)')
  // Transaction validity, transactions and withdrawals roots (primed by our trie), ommers hash.
  await block.validateData(false, true, false)

  const journal = vm.evm.journal
  await journal.checkpoint()
  try {
    await applyStartOfBlockSystemWrites(vm, header)
    const plainTransfers = canApplyPlainTransfers(vm)
    const receipts: TxReceipt[] = []
    const bloom = new Uint8Array(256)
    let gasUsed = 0n
    let plainTransferCount = 0
    for (const tx of block.transactions) {
      if (header.gasLimit < tx.gasLimit + gasUsed) throw new InvalidBlockError('tx has a higher gas limit than the block')
      if (plainTransfers && (await applyPlainTransfer(vm, tx, header)) !== undefined) {
        gasUsed += TRANSFER_GAS
        plainTransferCount++
        receipts.push(plainTransferReceipt(gasUsed))
        continue
      }
      const result = await runTx(vm, { tx, block, blockGasUsed: gasUsed })
      gasUsed += result.totalGasSpent
      receipts.push(result.receipt)
      const txBloom = result.bloom.bitvector
      for (let i = 0; i < 256; i++) bloom[i]! |= txBloom[i]!
    }
    if (vm.common.isActivatedEIP(4895)) {
      for (const w of block.withdrawals ?? []) {
        // Even a zero amount touches the account, so an empty one is removed by the cleanup below (EIP-4895).
        const account = (await vm.stateManager.getAccount(w.address)) ?? new Account()
        account.balance += w.amount * GWEI_TO_WEI
        await journal.putAccount(w.address, account)
      }
      await journal.cleanup()
    }
    const requests = vm.common.isActivatedEIP(7685) ? await accumulateBlockRequests(vm, receipts, depositContract) : []
    const reqHash = vm.common.isActivatedEIP(7685) ? requestsHash(requests) : undefined
    const stateRoot = await vm.stateManager.getStateRoot()

    if (reqHash !== undefined && !equalBytes(reqHash, header.requestsHash!)) throw new InvalidBlockError('invalid requestsHash')
    const receiptsRoot = orderedTrieRoot(receipts.map((r, i) => encodeReceipt(r, block.transactions[i]!.type)))
    if (!equalBytes(receiptsRoot, header.receiptTrie)) throw new InvalidBlockError('invalid receiptTrie')
    if (!equalBytes(bloom, header.logsBloom)) throw new InvalidBlockError('invalid bloom')
    if (gasUsed !== header.gasUsed) throw new InvalidBlockError(`invalid gasUsed: got ${gasUsed}, want ${header.gasUsed}`)
    if (!equalBytes(stateRoot, header.stateRoot)) {
      throw new InvalidBlockError(`invalid block stateRoot, got: ${bytesToHex(stateRoot)}, want: ${bytesToHex(header.stateRoot)}`)
    }
    await journal.commit()
    return { receipts, requests, plainTransfers: plainTransferCount }
  } catch (e) {
    await journal.revert()
    throw e
  }
}

/** Whether plain transfers may bypass `runTx` in blocks of the VM's current fork (the builder asks too). */
export function canApplyPlainTransfers(vm: VM): boolean {
  return processorApplies(vm) && vm.common.isActivatedEIP(1559)
}

/** Whether blocks of the VM's current fork run through this processor (post-merge, no experimental later EIP). */
export function processorApplies(vm: VM): boolean {
  const common = vm.common
  if (common.consensusType() !== ConsensusType.ProofOfStake || !common.gteHardfork(Hardfork.Paris)) return false
  return LATER_EIPS.every((eip) => !common.isActivatedEIP(eip))
}
