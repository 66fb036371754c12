import { RLP } from '@ethereumjs/rlp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devAccounts } from '../../chain/dev.js'
import { keccak256 } from '../../crypto/keccak.js'
import { type TestNode, errorCode as code, receiptNow, sendMined, signedTransfer, startTestNode } from '../../testing/testNode.js'
import { bytesToHex, hexToBytes } from '../../util/hex.js'

let n: TestNode
let plain: TestNode
let txHash: string
beforeAll(async () => {
  ;[n, plain] = await Promise.all([startTestNode({ apis: ['eth', 'debug'], dev: {} }), startTestNode()])
  // Mined before the send answers (the dev chain mines on demand): sendMined fails here if its receipt is not there.
  txHash = (await sendMined(n, 'eth_sendRawTransaction', signedTransfer(n.spec, 0, 0))).hash
})
afterAll(async () => {
  await Promise.all([n.close(), plain.close()])
})

const account = devAccounts()[0]!.address

describe('state reads with an omitted block, eth_getStorageValues and eth_getProof', () => {
  it('an omitted block means latest', async () => {
    expect((await n.http('eth_getBalance', [account])).result).toEqual((await n.http('eth_getBalance', [account, 'latest'])).result)
    expect((await n.http('eth_getTransactionCount', [account])).result).toBe('0x1')
    expect((await n.http('eth_getStorageAt', [account, '0x0'])).result).toBe(`0x${'00'.repeat(32)}`)
    expect((await n.http('eth_getCode', [account])).result).toBe('0x')
  })

  it('reads several slots of several accounts, and refuses what it should', async () => {
    const beaconRoots = '0x000f3df6d732807ef1319fb7b8bb8522d0beac02'
    const r = await n.http<Record<string, string[]>>('eth_getStorageValues', [{ [account]: ['0x0', '0x1'], [beaconRoots]: ['0x0'] }])
    expect(r.result).toEqual({
      [account]: [`0x${'00'.repeat(32)}`, `0x${'00'.repeat(32)}`],
      [beaconRoots]: [expect.stringMatching(/^0x[0-9a-f]{64}$/)],
    })
    expect(code(await n.http('eth_getStorageValues', [{ [account]: Array.from({ length: 1025 }, () => '0x0') }]))).toBe(-32602)
    expect(code(await n.http('eth_getStorageValues', [{}, 'latest']))).toBe(-32602)
    expect(code(await n.http('eth_getStorageValues', [{ '0x12': ['0x0'] }]))).toBe(-32602)
    expect(code(await n.http('eth_getStorageValues', [{ [account]: ['0x0'] }, '0x999']))).toBe(-32000)
  })

  it('proves an account against the block state root', async () => {
    const p = (
      await n.http<{ address: string; balance: string; nonce: string; accountProof: string[]; storageProof: { key: string; value: string }[] }>(
        'eth_getProof',
        [account, ['0x0'], 'latest'],
      )
    ).result!
    expect(p.address).toBe(account)
    expect(p.nonce).toBe('0x1')
    expect(p.storageProof).toEqual([{ key: '0x0', value: '0x0', proof: [] }])
    // The first node of the account proof is the state root's.
    const root = (await n.http<{ stateRoot: string }>('eth_getBlockByNumber', ['latest', false])).result!.stateRoot
    expect(bytesToHex(keccak256(hexToBytes(p.accountProof[0]!)))).toBe(root)
  })
})

describe('debug_getRaw*', () => {
  it('serves the consensus encodings of a mined block, its receipts and its transaction', async () => {
    const receipt = await receiptNow(n, txHash)
    const header = (await n.http<string>('debug_getRawHeader', [receipt.blockNumber])).result!
    expect(bytesToHex(keccak256(hexToBytes(header)))).toBe(receipt.blockHash)
    const block = (await n.http<string>('debug_getRawBlock', [receipt.blockHash])).result!
    const [h, txs] = RLP.decode(hexToBytes(block)) as [Uint8Array[], Uint8Array[]]
    expect(bytesToHex(RLP.encode(h))).toBe(header)
    const raw = (await n.http<string>('debug_getRawTransaction', [txHash])).result!
    expect(bytesToHex(txs[0]!)).toBe(raw)
    expect(bytesToHex(keccak256(hexToBytes(raw)))).toBe(txHash)
    const receipts = (await n.http<string[]>('debug_getRawReceipts', [receipt.blockNumber])).result!
    expect(receipts).toHaveLength(1)
    // Type 2 receipt: 0x02 then RLP [status 1, cumulative gas 21000, bloom, no logs].
    const [status, gas, , logs] = RLP.decode(hexToBytes(receipts[0]!).subarray(1)) as Uint8Array[]
    expect(hexToBytes(receipts[0]!)[0]).toBe(2)
    expect(bytesToHex(status!)).toBe('0x01')
    expect(bytesToHex(gas!)).toBe('0x5208')
    expect(logs).toEqual([])
    expect((await n.http('debug_getRawTransaction', [`0x${'00'.repeat(32)}`])).result).toBeNull()
    expect(code(await n.http('debug_getRawHeader', ['0x999']))).toBe(-32000)
  })

  it('is not served unless debug is enabled', async () => {
    expect(code(await plain.http('debug_getRawHeader', ['0x0']))).toBe(-32601)
  })
})
