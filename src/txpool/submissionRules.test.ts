import { RLP } from '@ethereumjs/rlp'
import { SECP256K1_ORDER } from '@ethereumjs/util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devAccounts } from '../chain/dev.js'
import { type RawTxFields, signRawTx } from '../testing/rawTx.js'
import { type TestNode, receiptNow, startTestNode } from '../testing/testNode.js'
import { bytesToHex, concatBytes, hexToBytes } from '../util/hex.js'

// Issue 21, items 4 and 5, over real sockets on a dev node (a send is answered once its block is made): what geth
// refuses at submission is refused with geth's message and -32000, and what is accepted is mined — nothing is
// acknowledged that the builder cannot include.

let n: TestNode
beforeAll(async () => {
  n = await startTestNode({ dev: {} })
})
afterAll(async () => {
  await n.close()
})

const CHAIN_ID = 1337n
const TO = devAccounts()[9]!.address
const keyOf = (i: number) => hexToBytes(devAccounts()[i]!.privateKey)

/** Dev account `from`'s next transaction, with the fields given. */
async function raw(from: number, f: Partial<RawTxFields> = {}): Promise<string> {
  const nonce = BigInt((await n.http<string>('eth_getTransactionCount', [devAccounts()[from]!.address, 'pending'])).result!)
  const fields: RawTxFields = {
    type: 2,
    chainId: CHAIN_ID,
    nonce,
    maxFee: 10_000_000_000n,
    tip: 1_000_000_000n,
    gasLimit: 21_000n,
    to: TO,
    value: 1n,
    data: new Uint8Array(),
    ...f,
  }
  return signRawTx(fields, keyOf(from))
}

const send = (tx: string) => n.http<string>('eth_sendRawTransaction', [tx])

/** Refused with -32000 and exactly this message; the sender has nothing pending that is not mined. */
async function expectRefused(from: number, tx: string, message: string): Promise<void> {
  const r = await send(tx)
  expect(r.error).toEqual({ code: -32000, message })
  const address = devAccounts()[from]!.address
  const [pending, latest] = await Promise.all([
    n.http<string>('eth_getTransactionCount', [address, 'pending']),
    n.http<string>('eth_getTransactionCount', [address, 'latest']),
  ])
  expect(pending.result).toBe(latest.result)
}

/** Accepted, and in a block by the time the send is answered. */
async function expectMined(tx: string): Promise<void> {
  const r = await send(tx)
  expect(r.error).toBeUndefined()
  expect((await receiptNow(n, r.result!)).status).toBe('0x1')
}

describe('item 4: the EIP-7623 calldata floor is checked at submission', () => {
  // 100 KiB of non-zero calldata: intrinsic 21000 + 16 × 102400 = 1,659,400; floor 21000 + 10 × 4 × 102400 = 4,117,000.
  const data = new Uint8Array(100 * 1024).fill(0x01)

  it("a transfer above its intrinsic gas but below the floor is refused with geth's message, not pooled forever", async () => {
    await expectRefused(0, await raw(0, { data, gasLimit: 2_000_000n }), 'insufficient gas for floor data gas cost: have 2000000, want 4117000')
    await expectRefused(0, await raw(0, { data, gasLimit: 4_116_999n }), 'insufficient gas for floor data gas cost: have 4116999, want 4117000')
  })

  it('below the intrinsic gas it is the intrinsic gas geth names', async () => {
    await expectRefused(0, await raw(0, { data, gasLimit: 1_659_399n }), 'intrinsic gas too low: have 1659399, want 1659400')
  })

  it('at the floor it is mined; zero bytes count a quarter', async () => {
    await expectMined(await raw(0, { data, gasLimit: 4_117_000n }))
    // 1000 zero bytes: intrinsic 21000 + 4 × 1000 = 25000, floor 21000 + 10 × 1000 = 31000.
    await expectRefused(
      0,
      await raw(0, { data: new Uint8Array(1000), gasLimit: 30_999n }),
      'insufficient gas for floor data gas cost: have 30999, want 31000',
    )
    await expectMined(await raw(0, { data: new Uint8Array(1000), gasLimit: 31_000n }))
  })
})

describe("item 5: geth's rules and messages at submission", () => {
  it('a transaction over 128 KiB is refused as oversized; one of exactly 131072 bytes is mined', async () => {
    const big = await raw(1, { data: new Uint8Array(130 * 1024).fill(0x01), gasLimit: 6_000_000n })
    const size = hexToBytes(big).length
    expect(size).toBeGreaterThan(131_072)
    await expectRefused(1, big, `oversized data: transaction size ${size}, limit 131072`)
    // Grow the calldata until the signed transaction is exactly at the limit (r and s may drop a leading zero byte).
    let length = 131_072 - 200
    for (;;) {
      const tx = await raw(1, { data: new Uint8Array(length).fill(0x01), gasLimit: 6_000_000n })
      const over = hexToBytes(tx).length - 131_072
      if (over === 0) {
        await expectMined(tx)
        break
      }
      length -= over
    }
  })

  it('a transaction for another chain: "invalid sender: invalid chain id for signer", typed or legacy', async () => {
    await expectRefused(2, await raw(2, { chainId: 1n }), 'invalid sender: invalid chain id for signer: have 1 want 1337')
    await expectRefused(
      2,
      await raw(2, { type: 0, chainId: 1n, maxFee: 10_000_000_000n }),
      'invalid sender: invalid chain id for signer: have 1 want 1337',
    )
    await expectRefused(2, await raw(2, { type: 1, chainId: 31337n }), 'invalid sender: invalid chain id for signer: have 31337 want 1337')
  })

  it('an unprotected (pre-EIP-155) legacy transaction is refused over RPC; a protected one is mined', async () => {
    // (--rpc.allow-unprotected-txs takes it: src/cli/allowUnprotectedTxs.test.ts.)
    await expectRefused(3, await raw(3, { type: 0, chainId: undefined }), 'only replay-protected (EIP-155) transactions allowed over RPC')
    await expectMined(await raw(3, { type: 0, chainId: CHAIN_ID }))
  })

  it("gas above EIP-7825's cap, a tip above the fee cap: geth's messages, no transaction dump", async () => {
    await expectRefused(4, await raw(4, { gasLimit: 16_777_217n }), 'transaction gas limit too high (cap: 16777216, tx: 16777217)')
    await expectRefused(4, await raw(4, { maxFee: 1_000_000_000n, tip: 1_000_000_001n }), 'max priority fee per gas higher than max fee per gas')
    await expectMined(await raw(4, { gasLimit: 16_777_216n }))
  })

  it('malformed bytes: "rlp: …" as geth decodes them, -32000', async () => {
    await expectRefused(5, '0x02c0', 'rlp: too few elements for types.DynamicFeeTx')
    await expectRefused(5, '0xc0', 'rlp: too few elements for types.LegacyTx')
    await expectRefused(5, '0x02f8', 'rlp: value size exceeds available input length')
    await expectRefused(5, '0x05c0', 'transaction type not supported')
    const good = hexToBytes(await raw(5))
    const cut = `0x${Buffer.from(good.subarray(0, good.length - 1)).toString('hex')}`
    await expectRefused(5, cut, 'rlp: value size exceeds available input length')
    const trailing = `0x${Buffer.from(good).toString('hex')}00`
    await expectRefused(5, trailing, 'rlp: input contains more than one value')
  })

  it('a signature no sender can be recovered from: "invalid sender"', async () => {
    const good = hexToBytes(await raw(6))
    const fields = RLP.decode(good.subarray(1)) as Uint8Array[]
    // s above n/2 (EIP-2), and s of zero.
    for (const s of [SECP256K1_ORDER - 1n, 0n]) {
      const bad = concatBytes(Uint8Array.of(2), RLP.encode([...fields.slice(0, -1), s === 0n ? new Uint8Array() : hexToBytes(`0x${s.toString(16)}`)]))
      await expectRefused(6, bytesToHex(bad), 'invalid sender: invalid transaction v, r, s values')
    }
  })
})
