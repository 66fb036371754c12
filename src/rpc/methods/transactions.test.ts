import { createFeeMarket1559Tx } from '@ethereumjs/tx'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devAccounts } from '../../chain/dev.js'
import { type TestNode, signedTransfer, startTestNode } from '../../testing/testNode.js'
import { bytesToHex } from '../../util/hex.js'

let n: TestNode
beforeAll(async () => {
  n = await startTestNode()
})
afterAll(async () => {
  await n.close()
})

const send = (raw: string) => n.http<string>('eth_sendRawTransaction', [raw])

function tx(fields: { nonce?: bigint; gasLimit?: bigint; value?: bigint; tip?: bigint; maxFee?: bigint; key?: Uint8Array }): string {
  const key = fields.key ?? Buffer.from(devAccounts()[6]!.privateKey.slice(2), 'hex')
  return bytesToHex(
    createFeeMarket1559Tx(
      {
        chainId: n.spec.chainId,
        nonce: fields.nonce ?? 0n,
        maxFeePerGas: fields.maxFee ?? 10_000_000_000n,
        maxPriorityFeePerGas: fields.tip ?? 1_000_000_000n,
        gasLimit: fields.gasLimit ?? 21_000n,
        to: `0x${'12'.repeat(20)}`,
        value: fields.value ?? 1n,
      },
      { common: n.spec.commonAt(1n, 2n ** 40n) },
    )
      .sign(key)
      .serialize(),
  )
}

describe('eth_sendRawTransaction', () => {
  it('pools a valid transaction and serves it by hash while pending', async () => {
    const r = await send(signedTransfer(n.spec, 7, 0))
    expect(r.result).toMatch(/^0x[0-9a-f]{64}$/)
    const pending = await n.http<{ blockHash: null; from: string }>('eth_getTransactionByHash', [r.result])
    expect(pending.result?.blockHash).toBeNull()
    expect(pending.result?.from).toBe(devAccounts()[7]!.address)
    const count = await n.http<string>('eth_getTransactionCount', [devAccounts()[7]!.address, 'pending'])
    expect(count.result).toBe('0x1')
    expect((await n.http<string>('eth_getTransactionCount', [devAccounts()[7]!.address, 'latest'])).result).toBe('0x0')
  })

  it('answers -32000 with the conventional messages', async () => {
    const ok = tx({ nonce: 0n })
    expect((await send(ok)).error).toBeUndefined()
    const err = async (raw: string) => (await send(raw)).error
    expect(await err(ok)).toMatchObject({ code: -32000, message: 'already known' })
    expect(await err(tx({ nonce: 0n, value: 2n }))).toMatchObject({ code: -32000, message: 'replacement transaction underpriced' })
    expect((await err(tx({ nonce: 1n, gasLimit: 20_000n })))?.message).toMatch(/^intrinsic gas too low/)
    expect((await err(tx({ nonce: 1n, value: 10n ** 30n })))?.message).toMatch(/^insufficient funds for gas \* price \+ value/)
    const pauper = Buffer.alloc(32, 0x33)
    expect((await err(tx({ key: pauper })))?.message).toMatch(/^insufficient funds/)
    expect((await err('0x02f8'))?.code).toBe(-32000)
    // A replacement must raise both fee caps by 10% or more.
    expect((await err(tx({ nonce: 0n, tip: 2_000_000_000n })))?.message).toBe('replacement transaction underpriced')
    expect((await send(tx({ nonce: 0n, tip: 1_100_000_000n, maxFee: 11_000_000_000n }))).error).toBeUndefined()
  })

  it('refuses malformed hex with -32602', async () => {
    expect((await send('0xABCD')).error?.code).toBe(-32602)
    expect((await n.http('eth_sendRawTransaction', [])).error?.code).toBe(-32602)
  })
})
