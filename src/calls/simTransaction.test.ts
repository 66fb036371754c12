import { RLP } from '@ethereumjs/rlp'
import { createTx } from '@ethereumjs/tx'
import { describe, expect, it } from 'vitest'
import { devGenesis } from '../chain/dev.js'
import { ChainSpec } from '../chain/spec.js'
import { keccak256 } from '../crypto/keccak.js'
import { bytesToHex, hexToBytes } from '../util/hex.js'
import type { CallRequest } from './callInput.js'
import { encodeSimTransaction, simMessage, simTransaction, simTransactionJson } from './simTransaction.js'

// The unsigned transactions geth's simulator makes of calls (ToTransaction with the dynamic-fee default, after
// CallDefaults), checked against EthereumJS's codec given the same fields with v, r and s zero; and the messages the
// EVM runs (ToMessage).

const spec = new ChainSpec(devGenesis())
const common = spec.commonAt(1n, 0n)
const to = hexToBytes('0xc100000000000000000000000000000000000000')
const hash = hexToBytes(`0x01${'ab'.repeat(31)}`)
const auth = { chainId: 1337n, address: to, nonce: 3n, yParity: 1n, r: 5n, s: 6n }
const accessList = [{ address: to, storageKeys: [new Uint8Array(32)] }]
const wireAccessList = [{ address: bytesToHex(to), storageKeys: [bytesToHex(new Uint8Array(32))] }]

/** EthereumJS's encoding of the transaction unsigned: its v, r and s empty, as geth encodes zeros. */
function reference(fields: Record<string, unknown>): { bytes: Uint8Array; hash: Uint8Array } {
  const tx = createTx(fields as never, { common })
  const bytes = tx.type === 0 ? RLP.encode(tx.raw() as never) : tx.serialize()
  return { bytes, hash: keccak256(bytes) }
}

describe('a simulated call’s transaction', () => {
  it('is a dynamic-fee transaction by default, its absent fees 0 (not a tip of the fee cap)', () => {
    const tx = simTransaction({ to, maxFeePerGas: 9n, accessList }, 4n, 100_000n, 1337n)
    expect(tx).toMatchObject({ type: 2, maxFeePerGas: 9n, maxPriorityFeePerGas: 0n })
    const ref = reference({
      type: 2,
      chainId: 1337n,
      nonce: 4n,
      gasLimit: 100_000n,
      to,
      maxFeePerGas: 9n,
      maxPriorityFeePerGas: 0n,
      accessList: wireAccessList,
    })
    expect(encodeSimTransaction(tx)).toEqual(ref)
  })

  it('is a legacy transaction when a gas price is given, a blob or set-code one by its fields', () => {
    const cases: [CallRequest, Record<string, unknown>][] = [
      [
        { to, gasPrice: 7n, value: 5n, data: Uint8Array.of(1, 2) },
        { type: 0, to, gasPrice: 7n, value: 5n, data: Uint8Array.of(1, 2) },
      ],
      [
        { gasPrice: 0n, data: Uint8Array.of(0x60) },
        { type: 0, gasPrice: 0n, data: Uint8Array.of(0x60) },
      ],
      [
        { to, blobVersionedHashes: [hash], maxFeePerBlobGas: 3n },
        { type: 3, chainId: 1337n, to, blobVersionedHashes: [bytesToHex(hash)], maxFeePerBlobGas: 3n, maxFeePerGas: 0n, maxPriorityFeePerGas: 0n },
      ],
      [
        { to, authorizationList: [auth], maxPriorityFeePerGas: 1n, maxFeePerGas: 2n },
        {
          type: 4,
          chainId: 1337n,
          to,
          maxFeePerGas: 2n,
          maxPriorityFeePerGas: 1n,
          accessList: [],
          authorizationList: [{ chainId: '0x539', address: bytesToHex(to), nonce: '0x3', yParity: '0x1', r: '0x5', s: '0x6' }],
        },
      ],
    ]
    for (const [call, fields] of cases) {
      const tx = simTransaction(call, 2n, 50_000n, 1337n)
      expect(tx.type).toBe(fields.type)
      expect(encodeSimTransaction(tx)).toEqual(reference({ nonce: 2n, gasLimit: 50_000n, ...fields }))
    }
  })

  it('takes a nonce of 2^64-1', () => {
    const tx = simTransaction({ to }, 2n ** 64n - 1n, 21_000n, 1337n)
    expect(bytesToHex(encodeSimTransaction(tx).bytes)).toContain('88ffffffffffffffff')
  })

  it('runs as geth’s message: a gas price is every price, 1559 fees pay min(tip + base fee, cap), none pays nothing', () => {
    const msg = (c: CallRequest, baseFee: bigint | undefined) => simMessage(c, simTransaction(c, 0n, 30_000n, 1337n), 1n, baseFee)
    expect(msg({ to, gasPrice: 9n }, 5n)).toMatchObject({ type: 0, gasPrice: 9n, maxFeePerGas: 9n, maxPriorityFeePerGas: 9n })
    expect(msg({ to, maxFeePerGas: 10n, maxPriorityFeePerGas: 2n }, 5n)).toMatchObject({ type: 2, gasPrice: 7n, maxFeePerGas: 10n })
    expect(msg({ to, maxFeePerGas: 6n, maxPriorityFeePerGas: 2n }, 5n)).toMatchObject({ gasPrice: 6n })
    expect(msg({ to }, 5n)).toMatchObject({ type: 2, gasPrice: 0n, maxFeePerGas: 0n, maxPriorityFeePerGas: 0n })
    // Before London the fee fields are not read: the gas price (0 when absent) is all.
    expect(msg({ to, maxFeePerGas: 10n }, undefined)).toMatchObject({ type: 0, gasPrice: 0n, maxFeePerGas: 0n })
    expect(msg({ to, blobVersionedHashes: [hash] }, 5n)).toMatchObject({ type: 3, blobHashes: [BigInt(bytesToHex(hash))] })
  })

  it('lists as geth’s RPCTransaction: zero signature, the paid price, an unsigned legacy one’s wrapped chain id', () => {
    const place = { hash: new Uint8Array(32), from: to, blockHash: new Uint8Array(32), blockNumber: 1n, blockTimestamp: 12n, index: 0, baseFee: 5n }
    const typed = JSON.parse(simTransactionJson(simTransaction({ to, maxFeePerGas: 10n, maxPriorityFeePerGas: 2n }, 0n, 21_000n, 1337n), place))
    expect(typed).toMatchObject({ type: '0x2', gasPrice: '0x7', chainId: '0x539', accessList: [], v: '0x0', r: '0x0', s: '0x0', yParity: '0x0' })
    const legacy = JSON.parse(simTransactionJson(simTransaction({ to, gasPrice: 3n }, 0n, 21_000n, 1337n), place))
    expect(legacy).toMatchObject({ type: '0x0', gasPrice: '0x3', chainId: '0x7fffffffffffffee', v: '0x0' })
    expect(legacy.yParity).toBeUndefined()
    expect(legacy.accessList).toBeUndefined()
  })
})
