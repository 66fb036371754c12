import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devAccounts, devGenesis } from '../chain/dev.js'
import { keccak256 } from '../crypto/keccak.js'
import { bytesToHex, hexToBytes } from '../util/hex.js'
import { uint256 as word } from '../testing/words.js'
import { type ReceiptJson, type TestNode, sendMined, startTestNode } from '../testing/testNode.js'
import { recipient, signTxs } from './chainGen.js'
import { CALLER, CALLS_PER_TX, HEAVY, TOKEN, TRANSFER_TOPIC, WORKLOADS, type Workload } from './workloads.js'

/** Each workload's contracts on a dev node that mines every transaction: they must do what bench:exec claims. */
// The mixed workload's pattern repeats every ten transactions: all of its kinds run.
const TXS = 10

describe.each(WORKLOADS.filter((w) => w.name !== 'transfers').map((w) => [w.name, w] as const))('workload %s', (_, w: Workload) => {
  let n: TestNode
  const receipts: ReceiptJson[] = []
  beforeAll(async () => {
    const genesis = devGenesis()
    genesis.alloc = { ...genesis.alloc, ...w.alloc }
    n = await startTestNode({ genesis, dev: {} })
    // Each is mined before its send answers (the dev chain mines on demand): its receipt is read once, right after.
    for (const raw of signTxs(n.spec, TXS, (i) => w.tx(i))) receipts.push((await sendMined(n, 'eth_sendRawTransaction', raw)).receipt)
  })
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

  if (w.name === 'heavy') {
    it('stores the keccak-256 of (1, seed) at the sender, after every turn of its loop', async () => {
      expect(await storage(HEAVY, word(devAccounts()[0]!.address))).toBe(bytesToHex(keccak256(hexToBytes(`${word(1n)}${word(1n).slice(2)}`))))
      expect(receipts.map((r) => BigInt(r.gasUsed) > 400_000n)).toEqual(Array(TXS).fill(true))
    })
  }
})
