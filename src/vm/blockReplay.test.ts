import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devAccounts } from '../chain/dev.js'
import { Evm } from '../evm/interpreter.js'
import { WorldState } from '../evm/state.js'
import { applyTransaction } from '../evm/transaction.js'
import type { Log } from '../evm/state.js'
import { bytesToWord } from '../evm/words.js'
import { readBlock } from '../store/blockCodec.js'
import { HeaderView } from '../store/headerView.js'
import { assemble } from '../testing/asm.js'
import { type TestNode, devGenesisWith, sendMined, signedTransfer, startTestNode } from '../testing/testNode.js'
import { bytesToHex } from '../util/hex.js'
import { applyBlockStart } from './blockStart.js'
import { applyWithdrawals, blockRequests } from './blockEnd.js'
import { EvmConfig } from './evmConfig.js'
import { evmTransactionOf } from './evmTransaction.js'
import { stateRootAfter } from './stateRoot.js'

// The seam's pieces put together as a block's execution (what traces replay, what simulations and the block
// processor build on): start-of-block system calls, the transactions, withdrawals, requests — and the state root of
// the EVM's changes, which must be the one the stored blocks carry.

const COUNTER = '0x00000000000000000000000000000000000c0c0c' // SSTORE(0, SLOAD(0) + 1), LOG0
let n: TestNode
beforeAll(async () => {
  n = await startTestNode({
    genesis: devGenesisWith({
      [COUNTER]: assemble(['0x00', 'SLOAD', '0x01', 'ADD', 'DUP1', '0x00', 'SSTORE', '0x00', 'MSTORE', '0x20', '0x00', 'LOG0']),
    }),
    dev: {},
    devAccounts: devAccounts(),
  })
  await sendMined(n, 'eth_sendRawTransaction', signedTransfer(n.spec, 1, 0, { to: COUNTER, gas: 100_000n, value: 0n }))
  await sendMined(n, 'eth_sendRawTransaction', signedTransfer(n.spec, 1, 1, { value: 10n ** 18n }))
  await sendMined(n, 'eth_sendTransaction', { from: devAccounts()[2]!.address, data: assemble(['0x01', '0x00', 'SSTORE']) })
})
afterAll(async () => {
  await n.close()
})

describe("a stored block re-executed on Sponge's EVM", () => {
  it('reaches the state root its header carries', () => {
    const store = n.node.store
    const config = new EvmConfig(n.spec, store)
    let replayed = 0
    for (let number = 1n; ; number++) {
      const hash = store.getCanonicalHash(number)
      if (hash === undefined) break
      const header = config.header(hash)!
      const parent = HeaderView.read(store, header.parentHash)!
      const ctx = config.blockContext(header, hash)!
      const block = readBlock(n.spec, store, hash)!
      const source = config.stateAt(parent.stateRoot)
      const state = new WorldState(source)
      const evm = new Evm({ fork: ctx.fork, block: ctx.env, state })
      applyBlockStart(evm, header)
      const logs: Log[] = []
      for (const tx of block.transactions) {
        logs.push(...applyTransaction(evm, evmTransactionOf(tx, tx.getSenderAddress().bytes), ctx.limits).logs)
        state.endTransaction()
      }
      applyWithdrawals(
        evm,
        (block.withdrawals ?? []).map((w) => ({ address: bytesToWord(w.address.bytes), amount: w.amount })),
      )
      blockRequests(evm, logs, n.spec.depositContract === undefined ? undefined : bytesToWord(n.spec.depositContract))
      const root = stateRootAfter(
        parent.stateRoot,
        state.changes(),
        (a) => source.storageRoot(a),
        (h) => store.getTrieNode(h),
      )
      expect(bytesToHex(root), `block ${number}`).toBe(bytesToHex(header.stateRoot))
      replayed++
    }
    expect(replayed).toBeGreaterThanOrEqual(3)
  })
})
