import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { assemble } from '../testing/asm.js'
import { laneOps } from '../testing/lane.js'
import { type TestNode, startTestNode } from '../testing/testNode.js'

// What an idle node does not hold (docs/performance.md, "Idle memory"): a public worker, or any curve of the
// precompiles. Each comes when a call needs it, and the call is answered as before.

const BN254_ADD = '0x0000000000000000000000000000000000000006'
// go-ethereum's vectors: bn256Add chfast1, bn256Pairing jeff1 (two pairs whose product is one).
const ADD_IN =
  '18b18acfb4c2c30276db5411368e7185b311dd124691610c5d3b74034e093dc9063c909c4720840cb5134cb9f59fa749755796819658d32efc0d288198f3726607c2b7f58a84bd6145f00c9c2bc0bb1a187f20ff2c92963a88019e7c6a014eed06614e20c147e940f2d70da3f74c9a17df361706a4485c742bd6788478fa17d7'
const ADD_OUT = '2243525c5efd4b9c3d3c45ac0ca3fe4dd85e830a4ce6b65fa1eeaee202839703301d1d33be6da8e509df21cc35964723180eed7532537db9ae5e7d48f195c915'
const PAIRING =
  '1c76476f4def4bb94541d57ebba1193381ffa7aa76ada664dd31c16024c43f593034dd2920f673e204fee2811c678745fc819b55d3e9d294e45c9b03a76aef41209dd15ebff5d46c4bd888e51a93cf99a7329636c63514396b4a452003a35bf704bf11ca01483bfa8b34b43561848d28905960114c8ac04049af4b6315a416782bb8324af6cfc93537a2ad1a445cfd0ca2a71acd7ac41fadbf933c2a51be344d120a2a4cf30c1bf9845f20c6fe39e07ea2cce61f0c9bb048165fe5e4de877550111e129f1cf1097710d41c4ac70fcdfa5ba2023c6ff1cbeac322de49d1b6df7c' +
  '2032c61a830e3c17286de9462bf242fca2883585b93870a73853face6a6bf411' +
  '198e9393920d483a7260bfb731fb5d25f1aa493335a9e71297e485b7aef312c21800deef121f1e76426a00665e5c4479674322d4f75edadd46debd5cd992f6ed090689d0585ff075ec9e99ad690c3395bc4b313370b38ef355acdadcd122975b12c85ea5db8c6deb4aab71808dcb408fe3d1e7690c43d37b4ce6cc0166fa7daa'
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
  n = await startTestNode()
})
afterAll(async () => {
  await n.close()
})

describe('a node at rest', () => {
  it('holds no public worker, and answers its first BN254 calls right: an addition, and a pairing in a worker started for it', async () => {
    const lane = n.node.lanes.public
    expect(lane.running).toBe(0)

    const add = await n.http<string>('eth_call', [{ to: BN254_ADD, data: `0x${ADD_IN}` }, 'latest'])
    expect(add.result).toBe(`0x${ADD_OUT}`)

    // Eight pairings in a loop, tens of milliseconds: past the serving thread's budget for a call (calls/threadCalls.ts),
    // so the lane starts a worker for it, and the worker loads the curve in the call.
    const ops = laneOps(lane)
    const pairing = await n.http<string>('eth_call', [{ to: PAIRS, data: `0x${PAIRING}` }, 'latest', { [PAIRS]: { code: PAIR_EIGHT_TIMES } }])
    ops.stop()
    expect(pairing.result).toBe(ONE)
    expect(ops.ops).toContain('call')
    expect(lane.running).toBe(1)
  })
})
