import { secp256k1 } from '@noble/curves/secp256k1.js'
import { Hardfork } from '@ethereumjs/common'
import { RLP } from '@ethereumjs/rlp'
import { createAccessList2930Tx, createBlob4844Tx, createEOACode7702Tx, createFeeMarket1559Tx, createLegacyTx, createTxFromRLP } from '@ethereumjs/tx'
import { describe, expect, it } from 'vitest'
import { devAccounts, devGenesis } from '../chain/dev.js'
import { ChainSpec } from '../chain/spec.js'
import { jsonText } from '../codecs/jsonWriter.js'
import { blockTxOf, writeTransactionJson } from '../codecs/transaction.js'
import { keccak256 } from '../crypto/keccak.js'
import { evmTransactionOf, evmTransactionOfBlockTx } from '../vm/evmTransaction.js'
import { bytesToHex, hexToBytes } from '../util/hex.js'
import { decodeBlockTx, type SignedTx, senderOf, signingRulesOf } from './blockTx.js'
import { TxRejectedError } from './errors.js'

// A block's transaction decoded from its bytes into the domain's form, against EthereumJS's decoding of the same
// bytes as the oracle: the same fields, signing hash, sender, EVM transaction and stored reply; and refused where
// geth's decoder or signer refuses it, with geth's words.

const spec = new ChainSpec(devGenesis())
const common = spec.commonAt(1n, 1n)
const rules = signingRulesOf(common)
const key = hexToBytes(devAccounts()[3]!.privateKey)
const to = devAccounts()[9]!.address as `0x${string}`
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
const fees = { maxFeePerGas: 10n, maxPriorityFeePerGas: 1n }
const accessList = [{ address: to, storageKeys: [`0x${'00'.repeat(31)}01` as `0x${string}`, `0x${'ff'.repeat(32)}` as `0x${string}`] }]

/** A legacy transaction signed without EIP-155 (v 27 or 28). */
function unprotectedLegacy(): Uint8Array {
  const unsigned = [new Uint8Array(0), Uint8Array.of(10), Uint8Array.of(0x52, 0x08), hexToBytes(to), Uint8Array.of(1), new Uint8Array(0)]
  const sig = secp256k1.sign(keccak256(RLP.encode(unsigned)), key, { prehash: false, format: 'recovered' })
  const strip = (b: Uint8Array) => b.subarray(b.findIndex((x) => x !== 0))
  return RLP.encode([...unsigned, Uint8Array.of(27 + sig[0]!), strip(sig.subarray(1, 33)), strip(sig.subarray(33, 65))])
}

const signed: [string, () => Uint8Array][] = [
  ['legacy, EIP-155', () => createLegacyTx({ nonce: 1n, gasPrice: 10n, gasLimit: 21_000n, to, value: 1n }, { common }).sign(key).serialize()],
  ['legacy, unprotected', unprotectedLegacy],
  [
    'legacy, a creation with 100 bytes of code',
    () =>
      createLegacyTx({ nonce: 300n, gasPrice: 10n ** 12n, gasLimit: 200_000n, data: `0x${'60'.repeat(100)}` }, { common })
        .sign(key)
        .serialize(),
  ],
  [
    'EIP-2930',
    () => createAccessList2930Tx({ chainId: spec.chainId, gasPrice: 10n, gasLimit: 30_000n, to, accessList }, { common }).sign(key).serialize(),
  ],
  [
    'EIP-1559',
    () =>
      createFeeMarket1559Tx({ chainId: spec.chainId, ...fees, gasLimit: 21_000n, to, data: '0x1234', value: 10n ** 18n }, { common })
        .sign(key)
        .serialize(),
  ],
  [
    'EIP-1559, 4 KiB of data (a long list header)',
    () =>
      createFeeMarket1559Tx({ chainId: spec.chainId, ...fees, gasLimit: 100_000n, to, data: `0x${'ab'.repeat(4096)}`, accessList }, { common })
        .sign(key)
        .serialize(),
  ],
  [
    'EIP-4844',
    () =>
      createBlob4844Tx(
        {
          chainId: spec.chainId,
          ...fees,
          maxFeePerBlobGas: 7n,
          gasLimit: 21_000n,
          to,
          blobVersionedHashes: [`0x01${'ab'.repeat(31)}`, `0x01${'cd'.repeat(31)}`],
        },
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
          authorizationList: [{ chainId: '0x1', address: to, nonce: '0x5', yParity: '0x1', r: '0x0102', s: '0x02' }],
        },
        { common },
      )
        .sign(key)
        .serialize(),
  ],
]

const CTX = { blockHash: new Uint8Array(32).fill(7), blockNumber: 5n, blockTimestamp: 60n, index: 3, baseFee: 7n }
const replyOf = (tx: Parameters<typeof writeTransactionJson>[1], from: Uint8Array) => jsonText((w) => writeTransactionJson(w, tx, from, CTX))

function refusal(raw: Uint8Array, r = rules): TxRejectedError {
  try {
    decodeBlockTx(raw, r)
  } catch (e) {
    if (e instanceof TxRejectedError) return e
    throw e
  }
  throw new Error('decoded')
}

/** A fee market transaction's fields as RLP items, to be altered and signed again by hand. */
function feeMarketFields(): Uint8Array[] {
  const raw = createFeeMarket1559Tx({ chainId: spec.chainId, ...fees, gasLimit: 21_000n, to }, { common })
    .sign(key)
    .serialize()
  return RLP.decode(raw.subarray(1)) as Uint8Array[]
}

describe('a block transaction decoded from its bytes', () => {
  it.each(signed)('%s: the fields, hashes and sender EthereumJS finds', (_, make) => {
    const raw = make()
    const reference = createTxFromRLP(raw, { common })
    const tx: SignedTx = decodeBlockTx(raw, rules)
    const { signingHash, recoveryId, sender, ...fields } = tx
    expect(fields).toEqual(blockTxOf(reference))
    expect(bytesToHex(tx.hash)).toBe(bytesToHex(keccak256(raw)))
    expect(bytesToHex(signingHash)).toBe(bytesToHex(reference.getHashedMessageToSign()))
    expect(recoveryId).toBe(Number(reference.type === 0 ? (reference.v! - 27n) % 2n : reference.v!))
    expect(sender).toBeUndefined()
    expect(bytesToHex(senderOf(tx)!)).toBe(reference.getSenderAddress().toString())
    const from = reference.getSenderAddress().bytes
    expect(evmTransactionOfBlockTx(tx, from)).toEqual(evmTransactionOf(reference, from))
    expect(replyOf(tx, from)).toBe(replyOf(blockTxOf(reference), from))
  })

  it('refuses bytes that do not decode with geth rlp messages', () => {
    const raw = signed[3]![1]()
    expect(refusal(Uint8Array.of(...raw, 0x80)).message).toBe('rlp: input contains more than one value')
    expect(refusal(Uint8Array.of(0x05, 0xc0))).toMatchObject({ kind: 'txTypeNotSupported' })
    expect(refusal(Uint8Array.of(0x02)).message).toBe('typed transaction too short')
    const fields = feeMarketFields()
    expect(refusal(Uint8Array.of(2, ...RLP.encode(fields.slice(0, 10)))).message).toBe('rlp: too few elements for types.DynamicFeeTx')
    fields[1] = Uint8Array.of(0, 1)
    expect(refusal(Uint8Array.of(2, ...RLP.encode(fields))).message).toBe(
      'rlp: non-canonical integer (leading zero bytes) for uint64, decoding into (types.DynamicFeeTx).Nonce',
    )
  })

  it("refuses what geth's signer refuses: another chain, a high s, a v out of range, EIP-155 before Spurious Dragon", () => {
    const fields = feeMarketFields()
    const s = BigInt(bytesToHex(fields[11]!))
    const mirrored = [...fields]
    mirrored[9] = fields[9]!.length === 0 ? Uint8Array.of(1) : new Uint8Array(0)
    mirrored[11] = hexToBytes(`0x${(SECP256K1_N - s).toString(16).padStart(64, '0')}`)
    expect(refusal(Uint8Array.of(2, ...RLP.encode(mirrored)))).toMatchObject({
      kind: 'invalidSender',
      message: 'invalid sender: invalid transaction v, r, s values',
    })
    const badV = [...fields]
    badV[9] = Uint8Array.of(2)
    expect(refusal(Uint8Array.of(2, ...RLP.encode(badV))).kind).toBe('invalidSender')
    const legacy = createLegacyTx({ gasPrice: 10n, gasLimit: 21_000n, to }, { common }).sign(key).serialize()
    expect(refusal(legacy, { ...rules, chainId: spec.chainId + 1n }).message).toBe(
      `invalid sender: invalid chain id for signer: have ${spec.chainId} want ${spec.chainId + 1n}`,
    )
    const homestead = common.copy()
    homestead.setHardfork(Hardfork.Homestead)
    expect(refusal(legacy, signingRulesOf(homestead)).kind).toBe('invalidSender')
    // Unprotected, it is valid on every chain.
    expect(decodeBlockTx(unprotectedLegacy(), { ...rules, chainId: 99n }).chainId).toBeUndefined()
  })

  it('gives no sender for a signature in range that recovers no key', () => {
    const good = createTxFromRLP(signed[4]![1](), { common })
    let found = false
    for (let r = 1n; r < 64n && !found; r++) {
      const tx = decodeBlockTx(createFeeMarket1559Tx({ ...good.toJSON(), r } as never, { common }).serialize(), rules)
      if (senderOf(tx) === undefined) found = true
    }
    expect(found).toBe(true)
  })
})
