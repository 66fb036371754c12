import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devAccounts, devGenesis } from '../chain/dev.js'
import { type TestNode, startTestNode } from '../testing/testNode.js'
import { recipient, signTxs } from './chainGen.js'
import { assemble } from '../testing/asm.js'
import { CALLER, CALLS_PER_TX, TOKEN, TRANSFER_TOPIC, WORKLOADS, type Workload } from './workloads.js'

const word = (v: bigint | string) => `0x${BigInt(v).toString(16).padStart(64, '0')}`

describe('the benchmark assembler', () => {
  it('encodes pushes by width and resolves labels to JUMPDESTs', () => {
    expect(assemble(['0x01', '0x0002', 'ADD'])).toBe('0x600161000201')
    expect(assemble([{ target: 'x' }, 'JUMP', { label: 'x' }, 'STOP'])).toBe('0x610004565b00')
    expect(() => assemble([{ target: 'nowhere' }])).toThrow(/unknown label/)
  })
})

interface Receipt {
  status: string
  from: string
  logs: { address: string; topics: string[]; data: string }[]
}

/** Each workload's contracts on a dev node that mines every transaction: they must do what bench:exec claims. */
// The mixed workload's pattern repeats every ten transactions: all of its kinds run.
const TXS = 10

describe.each(WORKLOADS.filter((w) => w.name !== 'transfers').map((w) => [w.name, w] as const))('workload %s', (_, w: Workload) => {
  let n: TestNode
  const receipts: Receipt[] = []
  beforeAll(async () => {
    const genesis = devGenesis()
    genesis.alloc = { ...genesis.alloc, ...w.alloc }
    n = await startTestNode({ genesis, dev: {} })
    for (const raw of signTxs(n.spec, TXS, (i) => w.tx(i))) {
      const sent = await n.http<string>('eth_sendRawTransaction', [raw])
      expect(sent.error).toBeUndefined()
      const deadline = Date.now() + 10_000
      let r: Receipt | null = null
      while (r === null && Date.now() < deadline) {
        r = (await n.http<Receipt | null>('eth_getTransactionReceipt', [sent.result])).result ?? null
        if (r === null) await new Promise((resolve) => setTimeout(resolve, 20))
      }
      expect(r).not.toBeNull()
      receipts.push(r!)
    }
  }, 30_000)
  afterAll(async () => {
    await n.close()
  })

  const storage = async (address: string, slot: string) => (await n.http<string>('eth_getStorageAt', [address, slot, 'latest'])).result

  it('succeeds', () => {
    expect(receipts.map((r) => r.status)).toEqual(Array(TXS).fill('0x1'))
  })

  if (w.name === 'tokens') {
    it('moves one unit from the sender to a new holder and logs Transfer(from, to, amount)', async () => {
      const from = devAccounts()[0]!.address
      expect(await storage(TOKEN, word(recipient(0)))).toBe(word(1n))
      expect(await storage(TOKEN, word(from))).toBe(word(10n ** 30n - 1n))
      expect(receipts[0]!.logs).toEqual([
        expect.objectContaining({ address: TOKEN, topics: [TRANSFER_TOPIC, word(from), word(recipient(0))], data: word(1n) }),
      ])
    })
  }

  if (w.name === 'calls') {
    it('stores the seed plus every answer of the called contract at the sender', async () => {
      // Slot s of the target holds 1000 + s; each call answers that plus one.
      let expected = 1n // the seed of transaction 0
      for (let s = 0; s < CALLS_PER_TX; s++) expected += BigInt(1000 + s + 1)
      expect(await storage(CALLER, word(devAccounts()[0]!.address))).toBe(word(expected))
    })
  }
})
