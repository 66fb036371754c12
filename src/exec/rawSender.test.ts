import { secp256k1 } from '@noble/curves/secp256k1.js'
import { RLP } from '@ethereumjs/rlp'
import { createAccessList2930Tx, createBlob4844Tx, createEOACode7702Tx, createFeeMarket1559Tx, createLegacyTx, createTxFromRLP } from '@ethereumjs/tx'
import { describe, expect, it } from 'vitest'
import { devAccounts, devGenesis } from '../chain/dev.js'
import { ChainSpec } from '../chain/spec.js'
import { keccak256 } from '../crypto/keccak.js'
import { bytesToHex, hexToBytes } from '../util/hex.js'
import { rawSenderKey } from './rawSender.js'

const spec = new ChainSpec(devGenesis())
const common = spec.commonAt(1n, 1n)
const key = hexToBytes(devAccounts()[3]!.privateKey)
const to = devAccounts()[9]!.address as `0x${string}`
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
const fees = { maxFeePerGas: 10n, maxPriorityFeePerGas: 1n }
const accessList = [{ address: to, storageKeys: [`0x${'00'.repeat(31)}01` as `0x${string}`] }]

/** What EthereumJS recovers from the same bytes: the reference. */
const ethereumjsKey = (raw: Uint8Array): string => bytesToHex(createTxFromRLP(raw, { common }).getSenderPublicKey())

/** A legacy transaction signed without EIP-155 (v 27 or 28), as pre-155 wallets still send them. */
function unprotectedLegacy(): Uint8Array {
  const unsigned = [new Uint8Array(0), Uint8Array.of(10), Uint8Array.of(0x52, 0x08), hexToBytes(to), Uint8Array.of(1), new Uint8Array(0)]
  const sig = secp256k1.sign(keccak256(RLP.encode(unsigned)), key, { prehash: false, format: 'recovered' })
  // noble's recovered format: recovery byte first, then r ‖ s.
  const strip = (b: Uint8Array) => b.subarray(b.findIndex((x) => x !== 0))
  return RLP.encode([...unsigned, Uint8Array.of(27 + sig[0]!), strip(sig.subarray(1, 33)), strip(sig.subarray(33, 65))])
}

const signed: [string, () => Uint8Array][] = [
  ['legacy, EIP-155', () => createLegacyTx({ nonce: 1n, gasPrice: 10n, gasLimit: 21_000n, to, value: 1n }, { common }).sign(key).serialize()],
  ['legacy, unprotected', unprotectedLegacy],
  [
    'EIP-2930',
    () => createAccessList2930Tx({ chainId: spec.chainId, gasPrice: 10n, gasLimit: 30_000n, to, accessList }, { common }).sign(key).serialize(),
  ],
  [
    'EIP-1559',
    () =>
      createFeeMarket1559Tx({ chainId: spec.chainId, ...fees, gasLimit: 21_000n, to, data: '0x1234' }, { common })
        .sign(key)
        .serialize(),
  ],
  [
    'EIP-4844',
    () =>
      createBlob4844Tx(
        { chainId: spec.chainId, ...fees, maxFeePerBlobGas: 1n, gasLimit: 21_000n, to, blobVersionedHashes: [`0x01${'ab'.repeat(31)}`] },
        { common },
      )
        .sign(key)
        .serialize(),
  ],
  [
    'EIP-7702',
    () =>
      createEOACode7702Tx(
        {
          chainId: spec.chainId,
          ...fees,
          gasLimit: 60_000n,
          to,
          authorizationList: [{ chainId: '0x1', address: to, nonce: '0x0', yParity: '0x1', r: '0x01', s: '0x02' }],
        },
        { common },
      )
        .sign(key)
        .serialize(),
  ],
]

describe('sender keys from raw transaction bytes', () => {
  it.each(signed)('%s: the key EthereumJS recovers', (_, make) => {
    const raw = make()
    expect(bytesToHex(rawSenderKey(raw, spec.chainId)!)).toBe(ethereumjsKey(raw))
  })

  it('leaves a high s, a v for another chain and an unknown type to EthereumJS', () => {
    // EthereumJS refuses to make one with a high s: the same signature mirrored, by hand.
    const raw = createFeeMarket1559Tx({ chainId: spec.chainId, ...fees, gasLimit: 21_000n, to }, { common })
      .sign(key)
      .serialize()
    const fields = RLP.decode(raw.subarray(1)) as Uint8Array[]
    const s = BigInt(bytesToHex(fields[11]!))
    fields[9] = fields[9]!.length === 0 ? Uint8Array.of(1) : new Uint8Array(0)
    fields[11] = hexToBytes(`0x${(SECP256K1_N - s).toString(16).padStart(64, '0')}`)
    const highS = Uint8Array.of(2, ...RLP.encode(fields))
    expect(() => ethereumjsKey(highS)).toThrow()
    expect(rawSenderKey(highS, spec.chainId)).toBeUndefined()
    const legacy = createLegacyTx({ gasPrice: 10n, gasLimit: 21_000n, to }, { common }).sign(key).serialize()
    expect(rawSenderKey(legacy, spec.chainId + 1n)).toBeUndefined()
    expect(rawSenderKey(Uint8Array.of(0x05, 0xc0), spec.chainId)).toBeUndefined()
    expect(rawSenderKey(new Uint8Array(0), spec.chainId)).toBeUndefined()
  })
})
