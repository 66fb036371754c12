import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { assemble } from '../testing/asm.js'
import { devGenesis } from '../chain/dev.js'
import { type TestNode, startTestNode } from '../testing/testNode.js'
import { hexToBytes } from '../util/hex.js'
import { EthereumjsCallRunner as CallRunner } from './ethereumjsCallRunner.js'
import type { CallInput } from './callInput.js'

// Calls at one block keep what they read (readCache.ts): once warm, a call reads no trie at all — SSTORE's gas
// lookup of a slot's original value included, which asked the trie behind the cache's back (found measuring
// eth_estimateGas: two storage trie walks per run).
const COUNTER = '0x00000000000000000000000000000000000c0c0c' // SSTORE(0, SLOAD(0) + 1), returns the new value

let n: TestNode
beforeAll(async () => {
  const genesis = devGenesis()
  genesis.alloc[COUNTER] = {
    balance: '0x0',
    code: assemble(['0x00', 'SLOAD', '0x01', 'ADD', 'DUP1', '0x00', 'SSTORE', '0x00', 'MSTORE', '0x20', '0x00', 'RETURN']),
    storage: { [`0x${'00'.repeat(32)}`]: `0x${'00'.repeat(31)}05` },
  }
  n = await startTestNode({ genesis })
})
afterAll(async () => {
  await n.close()
})

describe('calls at one block', () => {
  it('read no trie once warm, SSTORE included, and never see an earlier call’s write', async () => {
    const runner = await CallRunner.create(n.spec, n.node.store)
    const input: CallInput = { blockHash: n.node.context.store.getCanonicalHash(0n)!, call: { to: hexToBytes(COUNTER) }, gasCap: 1_000_000n }
    const call = async () => {
      const block = await runner.prepare(input)
      return runner.run(input, block, runner.gasLimitOf(input, block))
    }
    const first = await call()
    const reads = vi.spyOn(MerklePatriciaTrie.prototype, 'get')
    const second = await call()
    expect(reads).not.toHaveBeenCalled()
    reads.mockRestore()
    for (const outcome of [first, second]) {
      expect(outcome.status).toBe('success')
      if (outcome.status === 'success') expect(BigInt(`0x${Buffer.from(outcome.returnData).toString('hex')}`)).toBe(6n)
    }
    // The original value SSTORE's gas is priced by comes from the cache too: both runs pay the same.
    expect(second.gasUsed).toBe(first.gasUsed)
  })
})
