import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devAccounts } from '../../chain/dev.js'
import { laneOps } from '../../testing/lane.js'
import { type TestNode, devGenesisWith, signedTransfer, startTestNode } from '../../testing/testNode.js'

// eth_getBalance, eth_getTransactionCount, eth_getCode, eth_getStorageAt and eth_getStorageValues at the state the
// flat table holds are answered on the serving thread from LMDB; other blocks' state by a trie walk in a worker.
// Both must give the same answers, and the first must not need the worker lane at all.

const CONTRACT = '0x00000000000000000000000000000000000c0de1'
const CODE = '0x600160005500'
const SLOT = '0x0000000000000000000000000000000000000000000000000000000000000007'
const VALUE = '0x00000000000000000000000000000000000000000000000000000000000000ab'
const ZERO_WORD = `0x${'0'.repeat(64)}`
const NOBODY = '0x1234567890123456789012345678901234567890'

let n: TestNode
const sender = devAccounts()[0]!.address
const receiver = devAccounts()[9]!.address

// Values of every shape the head's own decoding meets (codecs/stateHex.ts), each asked at the head (the flat table)
// and at genesis (a trie walk in a worker): nonces below and above RLP's single-byte range, balances of one to 32
// bytes, slot values with zero bytes inside, contract code longer than the table-driven hex encoder's limit.
const ODD = {
  '0x00000000000000000000000000000000000000a1': { nonce: '0x7f', balance: '0x1' },
  '0x00000000000000000000000000000000000000a2': { nonce: '0x80', balance: '0x100' },
  '0x00000000000000000000000000000000000000a3': { nonce: '0xffffffff', balance: `0x${'f'.repeat(64)}` },
  '0x00000000000000000000000000000000000000a4': { balance: '0x0100000000000000000000000000000000' },
}
const BIG = '0x00000000000000000000000000000000000b16c0'
const BIG_CODE = `0x${'5b'.repeat(300)}00`
const BIG_STORAGE = {
  '0x01': '0x01',
  '0x02': '0x0100',
  '0x03': `0x${'00'.repeat(15)}ff${'00'.repeat(16)}`,
  '0x04': `0xff${'00'.repeat(31)}`,
  [`0x${'Ab'.repeat(32)}`]: `0x${'12'.repeat(32)}`,
}

beforeAll(async () => {
  const genesis = devGenesisWith({ [CONTRACT]: CODE }, { storage: { [SLOT]: VALUE } })
  Object.assign(genesis.alloc, ODD, { [BIG]: { balance: '0x0', code: BIG_CODE, storage: BIG_STORAGE } })
  // One thread serving the port: the lane watched is this thread's (serving threads read state as it does).
  n = await startTestNode({ dev: {}, genesis, httpThreads: 1 })
  // The dev chain answers a send once its block is made: block 1 holds it.
  const sent = await n.http<string>('eth_sendRawTransaction', [signedTransfer(n.spec, 0, 0, { to: receiver, value: 5n })])
  expect(sent.error).toBeUndefined()
})
afterAll(async () => {
  await n.close()
})

const reads = (block: string): [string, unknown[]][] => [
  ['eth_getBalance', [sender, block]],
  ['eth_getTransactionCount', [sender, block]],
  ['eth_getBalance', [NOBODY, block]],
  ['eth_getCode', [CONTRACT, block]],
  ['eth_getCode', [sender, block]],
  ['eth_getStorageAt', [CONTRACT, '0x7', block]],
  ['eth_getStorageAt', [CONTRACT, '0x8', block]],
  ['eth_getStorageValues', [{ [CONTRACT]: [SLOT, '0x8'] }, block]],
]

describe('state reads from the flat table', () => {
  it('answer at the head what the tries answer, and what the block changed', async () => {
    const head = await Promise.all(reads('latest').map(([m, p]) => n.http(m, p)))
    const genesis = await Promise.all(reads('0x0').map(([m, p]) => n.http(m, p)))
    // What the transfer did not touch is the same through both paths.
    for (const i of [2, 3, 4, 5, 6, 7]) expect(head[i]!.result).toEqual(genesis[i]!.result)
    expect(head.map((r) => r.result).slice(1)).toEqual(['0x1', '0x0', CODE, '0x', VALUE, ZERO_WORD, { [CONTRACT]: [VALUE, ZERO_WORD] }])
    const receipt = (
      await n.http<{ gasUsed: string; effectiveGasPrice: string }>('eth_getTransactionReceipt', [
        (await n.http<{ transactions: string[] }>('eth_getBlockByNumber', ['0x1', false])).result!.transactions[0],
      ])
    ).result!
    const paid = 5n + BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice)
    expect(BigInt(head[0]!.result as string)).toBe(BigInt(genesis[0]!.result as string) - paid)
    expect(genesis[1]!.result).toBe('0x0')
  })

  it('answer values of every size and parameters of either case at the head as the tries do', async () => {
    const asked: [string, unknown[]][] = []
    for (const a of [...Object.keys(ODD), NOBODY]) {
      for (const m of ['eth_getBalance', 'eth_getTransactionCount', 'eth_getCode']) asked.push([m, [a.toUpperCase().replace('0X', '0x')]])
    }
    asked.push(['eth_getCode', [BIG]])
    for (const k of [...Object.keys(BIG_STORAGE), '0x5', '0x0005', `0x${'0'.repeat(63)}1`, `0x${'aB'.repeat(32)}`])
      asked.push(['eth_getStorageAt', [BIG, k]])
    asked.push(['eth_getStorageValues', [{ [BIG]: Object.keys(BIG_STORAGE), [NOBODY]: ['0x1'] }]])
    const at = (block: string) => Promise.all(asked.map(([m, p]) => n.http(m, [...p, block])))
    const [head, pending, genesis] = await Promise.all([at('latest'), at('pending'), at('0x0')])
    for (const r of head) expect(r.error).toBeUndefined()
    expect(head.map((r) => r.result)).toEqual(genesis.map((r) => r.result))
    expect(pending.map((r) => r.result)).toEqual(genesis.map((r) => r.result))
    expect(head.slice(0, 3).map((r) => r.result)).toEqual(['0x1', '0x7f', '0x'])
    expect(head[6]!.result).toBe(`0x${'f'.repeat(64)}`)
    expect(head[7]!.result).toBe('0xffffffff')
    // A key's case and leading zeros name the same slot.
    expect(head[asked.length - 2]!.result).toBe(`0x${'12'.repeat(32)}`)
    expect(head[asked.length - 3]!.result).toBe(`0x${'00'.repeat(31)}01`)
  })

  it('need no worker at the head; older state is a worker task', async () => {
    const { ops, stop } = laneOps(n.node.lanes.public)
    try {
      const head = await Promise.all(reads('latest').map(([m, p]) => n.http(m, p)))
      for (const r of head) expect(r.error).toBeUndefined()
      expect(ops).toEqual([])
      expect((await n.http('eth_getBalance', [sender, '0x0'])).error).toBeUndefined()
      expect(ops).toEqual(['state'])
    } finally {
      stop()
    }
  })

  it('answer from the replies they keep only parameters that would pass and name the head', async () => {
    const head = (await n.http<string>('eth_getBalance', [sender, 'latest'])).result!
    // Kept now: asked again, in each form that names the head, the same answer.
    for (const p of [[sender], [sender, 'latest'], [sender, 'pending']]) expect((await n.http('eth_getBalance', p)).result).toBe(head)
    // Another block, more parameters, a tag that is not one: read or refused, as if nothing were kept.
    expect((await n.http<string>('eth_getBalance', [sender, '0x0'])).result).not.toBe(head)
    expect((await n.http('eth_getBalance', [sender, 'latest', 'latest'])).error?.code).toBe(-32602)
    expect((await n.http('eth_getBalance', [sender, 'newest'])).error?.code).toBe(-32602)
    expect((await n.http('eth_getBalance', [sender, null])).error?.code).toBe(-32602)
    const slot = (await n.http<string>('eth_getStorageAt', [CONTRACT, SLOT])).result!
    expect((await n.http('eth_getStorageAt', [CONTRACT, SLOT, 'latest'])).result).toBe(slot)
    expect((await n.http('eth_getStorageAt', [CONTRACT, SLOT, 'latest', 1])).error?.code).toBe(-32602)
    expect((await n.http('eth_getStorageAt', [CONTRACT])).error?.code).toBe(-32602)
  })
})
