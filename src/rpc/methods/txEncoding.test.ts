import { Common, Hardfork, Mainnet } from '@ethereumjs/common'
import { createTx } from '@ethereumjs/tx'
import { describe, expect, it } from 'vitest'
import { devAccounts, devGenesis } from '../../chain/dev.js'
import { ChainSpec } from '../../chain/spec.js'
import { bytesToHex, hexToBytes } from '../../util/hex.js'
import { type FilledRequest, encodeSigned, encodeUnsigned } from './txEncoding.js'

// The wallet's own encoding of a filled request gives the bytes EthereumJS's transactions gave (its signing is
// deterministic, RFC 6979): every type unsigned, and signed as the dev wallet signs them.

const spec = new ChainSpec(devGenesis())
const common = spec.commonAt(1n, 2n ** 40n)
const key = hexToBytes(devAccounts()[3]!.privateKey)
const to = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
const base = { chainId: 1337n, nonce: 7n, to, gas: 21_000n, value: 10n ** 18n, input: '0x', accessList: [] }
const accessList = [{ address: to, storageKeys: [`0x${'00'.repeat(31)}01`, `0x${'ab'.repeat(32)}`] }]
const fees = { maxPriorityFeePerGas: 1_000_000_000n, maxFeePerGas: 3_000_000_007n }
const requests: FilledRequest[] = [
  { ...base, type: 0, gasPrice: 2_000_000_000n },
  { ...base, type: 0, gasPrice: 1n, nonce: 0n, value: 0n, to: undefined, input: '0x6001600055', gas: 100_000n },
  { ...base, type: 1, gasPrice: 2_000_000_000n, accessList },
  { ...base, type: 2, ...fees, input: '0xdeadbeef' },
  { ...base, type: 2, ...fees, nonce: 0n, value: 0n, accessList },
  { ...base, type: 3, ...fees, maxFeePerBlobGas: 5n, blobVersionedHashes: [`0x01${'22'.repeat(31)}`] },
  {
    ...base,
    type: 4,
    ...fees,
    authorizationList: [{ chainId: '0x539', address: to, nonce: '0x0', yParity: '0x1', r: `0x${'0f'.repeat(32)}`, s: '0x1234' }],
  },
]

/** The request as EthereumJS's transaction data, as the wallet made it before. */
function ethereumjsTx(f: FilledRequest, c: Common) {
  return createTx(
    {
      type: f.type,
      chainId: f.chainId,
      nonce: f.nonce,
      gasLimit: f.gas,
      value: f.value,
      data: hexToBytes(f.input),
      ...(f.to === undefined ? {} : { to: hexToBytes(f.to) }),
      ...(f.gasPrice === undefined ? {} : { gasPrice: f.gasPrice }),
      ...(f.maxFeePerGas === undefined ? {} : { maxFeePerGas: f.maxFeePerGas, maxPriorityFeePerGas: f.maxPriorityFeePerGas }),
      ...(f.type === 0 ? {} : { accessList: f.accessList }),
      ...(f.blobVersionedHashes === undefined ? {} : { blobVersionedHashes: f.blobVersionedHashes, maxFeePerBlobGas: f.maxFeePerBlobGas }),
      ...(f.authorizationList === undefined ? {} : { authorizationList: f.authorizationList }),
    } as never,
    { common: c },
  )
}

describe('the wallet encodes a filled request as EthereumJS did', () => {
  it.each(requests.map((f) => [`type ${f.type}${f.to === undefined ? ', a creation' : ''}`, f] as const))('%s, unsigned', (_, f) => {
    expect(bytesToHex(encodeUnsigned(f))).toBe(bytesToHex(ethereumjsTx(f, common).serialize()))
  })

  it.each(requests.filter((f) => f.type !== 3).map((f) => [`type ${f.type}${f.to === undefined ? ', a creation' : ''}`, f] as const))(
    '%s, signed',
    (_, f) => {
      expect(bytesToHex(encodeSigned(f, key, true))).toBe(bytesToHex(ethereumjsTx(f, common).sign(key).serialize()))
    },
  )

  it('signs a legacy transaction without the chain id before EIP-155 (v 27 or 28)', () => {
    const homestead = new Common({ chain: Mainnet, hardfork: Hardfork.Homestead })
    const f: FilledRequest = { ...requests[0]!, chainId: 1n }
    expect(bytesToHex(encodeSigned(f, key, false))).toBe(bytesToHex(ethereumjsTx(f, homestead).sign(key).serialize()))
  })
})
