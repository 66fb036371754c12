import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { assemble } from '../testing/asm.js'
import { BN254_ADD_IN, BN254_ADD_OUT, BN254_PAIRING_ONE } from '../testing/bn254Vectors.js'
import { laneOps } from '../testing/lane.js'
import { type TestNode, startTestNode } from '../testing/testNode.js'

// What an idle node does not hold (docs/performance.md, "Idle memory"): a public worker, or any curve of the
// precompiles. Each comes when a call needs it, and the call is answered as before.

const BN254_ADD = '0x0000000000000000000000000000000000000006'
const ONE = `0x${'0'.repeat(63)}1`
const PAIRS = '0x00000000000000000000000000000000000ba125'
/** The pairing of its calldata, eight times; returns the last answer. */
const PAIR_EIGHT_TIMES = assemble([
  ...(['CALLDATASIZE', '0x00', '0x00', 'CALLDATACOPY', '0x08'] as const),
  { label: 'top' },
  ...(['0x20', 'CALLDATASIZE', 'CALLDATASIZE', '0x00', '0x08', 'GAS', 'STATICCALL', 'POP', '0x01', 'SWAP1', 'SUB', 'DUP1'] as const),
  { target: 'top' },
  ...(['JUMPI', 'POP', '0x20', 'CALLDATASIZE', 'RETURN'] as const),
])

let n: TestNode
beforeAll(async () => {
  // One thread serving the port: the lane watched is this thread's (serving threads run the same lane code). Every
  // precompile call runs: the pairing below is the same eight times, and kept it would be answered in the budget.
  n = await startTestNode({ httpThreads: 1, precompileCache: false })
})
afterAll(async () => {
  await n.close()
})

describe('a node at rest', () => {
  it('holds no public worker, and answers its first BN254 calls right: an addition, and a pairing in a worker started for it', async () => {
    const lane = n.node.lanes.public
    expect(lane.running).toBe(0)

    const add = await n.http<string>('eth_call', [{ to: BN254_ADD, data: `0x${BN254_ADD_IN}` }, 'latest'])
    expect(add.result).toBe(`0x${BN254_ADD_OUT}`)

    // Eight pairings in a loop, tens of milliseconds: past the serving thread's budget for a call (calls/threadCalls.ts),
    // so the lane starts a worker for it, and the worker loads the curve in the call.
    const ops = laneOps(lane)
    const pairing = await n.http<string>('eth_call', [
      { to: PAIRS, data: `0x${BN254_PAIRING_ONE}` },
      'latest',
      { [PAIRS]: { code: PAIR_EIGHT_TIMES } },
    ])
    ops.stop()
    expect(pairing.result).toBe(ONE)
    expect(ops.ops).toContain('call')
    expect(lane.running).toBe(1)
  })
})
