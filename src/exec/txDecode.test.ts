import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { RLP } from '@ethereumjs/rlp'
import { describe, expect, it } from 'vitest'
import { TxRejectedError } from './errors.js'
import { rpcCompatPath } from '../testing/paths.js'
import { concatBytes, hexToBytes } from '../util/hex.js'
import { decodeTx } from './txDecode.js'

// Bytes that do not decode are refused with geth's words (its rlp package's, through Transaction.UnmarshalBinary),
// not EthereumJS's; what decodes gives the fields the rules read.

/** An RLP string header and content, written out (non-canonical forms included). */
const str = (...bytes: number[]) => Uint8Array.from(bytes)
/** An RLP list of already-encoded items. */
function list(...items: Uint8Array[]): Uint8Array {
  const body = concatBytes(...items)
  if (body.length < 56) return concatBytes(Uint8Array.of(0xc0 + body.length), body)
  const len = body.length.toString(16).padStart(body.length > 0xff ? 4 : 2, '0')
  return concatBytes(Uint8Array.of(0xf7 + len.length / 2), hexToBytes(`0x${len}`), body)
}
const enc = (x: Uint8Array | Uint8Array[]) => RLP.encode(x)
const ADDRESS = enc(new Uint8Array(20).fill(0xaa))
const ONE = Uint8Array.of(0x01)
const EMPTY = Uint8Array.of(0x80)

/** A legacy transaction's nine fields, with `at` replaced by the given encoded item. */
function legacy(replace: Record<number, Uint8Array> = {}, extra: Uint8Array[] = []): Uint8Array {
  const fields = [ONE, ONE, enc(Uint8Array.of(0x52, 0x08)), ADDRESS, ONE, EMPTY, Uint8Array.of(0x1b), ONE, ONE]
  return list(...fields.map((f, i) => replace[i] ?? f), ...extra)
}

/** A fee market transaction's twelve fields (chain id 1). */
function dynamicFee(replace: Record<number, Uint8Array> = {}): Uint8Array {
  const fields = [ONE, ONE, ONE, ONE, enc(Uint8Array.of(0x52, 0x08)), ADDRESS, ONE, EMPTY, Uint8Array.of(0xc0), EMPTY, ONE, ONE]
  return concatBytes(Uint8Array.of(2), list(...fields.map((f, i) => replace[i] ?? f)))
}

function refusal(raw: Uint8Array): TxRejectedError {
  try {
    decodeTx(raw)
  } catch (e) {
    expect(e).toBeInstanceOf(TxRejectedError)
    return e as TxRejectedError
  }
  throw new Error('decoded')
}

describe("malformed transactions get geth's messages", () => {
  const cases: [string, Uint8Array, string][] = [
    ['empty input', new Uint8Array(), 'typed transaction too short'],
    ['a type byte alone', Uint8Array.of(2), 'typed transaction too short'],
    ['an unknown type', Uint8Array.of(5, 0xc0), 'transaction type not supported'],
    ['an empty legacy list', Uint8Array.of(0xc0), 'rlp: too few elements for types.LegacyTx'],
    ['an empty typed list', Uint8Array.of(2, 0xc0), 'rlp: too few elements for types.DynamicFeeTx'],
    ['a string where the legacy list goes', Uint8Array.of(0x81, 0x99), 'rlp: expected input list for types.LegacyTx'],
    ['a string where the typed list goes', Uint8Array.of(1, 0x80), 'rlp: expected input list for types.AccessListTx'],
    ['a list longer than the input', Uint8Array.of(0xc5, 0x01), 'rlp: value size exceeds available input length'],
    ['a list header cut short', Uint8Array.of(2, 0xf8), 'rlp: value size exceeds available input length'],
    ['bytes after the transaction', concatBytes(legacy(), ONE), 'rlp: input contains more than one value'],
    ['a tenth legacy field', legacy({}, [ONE]), 'rlp: input list has too many elements for types.LegacyTx'],
    ['an element past its list', Uint8Array.of(0xc2, 0x82, 0x01), 'rlp: element is larger than containing list'],
    [
      'a nonce with a leading zero',
      legacy({ 0: str(0x82, 0x00, 0x01) }),
      'rlp: non-canonical integer (leading zero bytes) for uint64, decoding into (types.LegacyTx).Nonce',
    ],
    [
      'a zero nonce as the byte 0x00',
      legacy({ 0: str(0x00) }),
      'rlp: non-canonical integer (leading zero bytes) for uint64, decoding into (types.LegacyTx).Nonce',
    ],
    [
      'a small nonce as a string',
      legacy({ 0: str(0x81, 0x05) }),
      'rlp: non-canonical size information for uint64, decoding into (types.LegacyTx).Nonce',
    ],
    [
      'a nonce of 9 bytes',
      legacy({ 0: enc(new Uint8Array(9).fill(1)) }),
      'rlp: input string too long for uint64, decoding into (types.LegacyTx).Nonce',
    ],
    [
      'a list for the nonce',
      legacy({ 0: Uint8Array.of(0xc0) }),
      'rlp: expected input string or byte for uint64, decoding into (types.LegacyTx).Nonce',
    ],
    [
      'a gas price with a leading zero',
      legacy({ 1: str(0x82, 0x00, 0x07) }),
      'rlp: non-canonical integer (leading zero bytes) for *big.Int, decoding into (types.LegacyTx).GasPrice',
    ],
    [
      'a 19-byte to',
      legacy({ 3: enc(new Uint8Array(19).fill(1)) }),
      'rlp: input string too short for common.Address, decoding into (types.LegacyTx).To',
    ],
    [
      'an empty list for to',
      legacy({ 3: Uint8Array.of(0xc0) }),
      'rlp: wrong kind of empty value (got List, want String) for *common.Address, decoding into (types.LegacyTx).To',
    ],
    [
      'a data byte as a string',
      legacy({ 5: str(0x81, 0x05) }),
      'rlp: non-canonical size information for []uint8, decoding into (types.LegacyTx).Data',
    ],
    [
      'a list for the data',
      legacy({ 5: Uint8Array.of(0xc0) }),
      'rlp: expected input string or byte for []uint8, decoding into (types.LegacyTx).Data',
    ],
    [
      'a size header for a short string',
      legacy({ 5: str(0xb8, 0x01, 0x05) }),
      'rlp: non-canonical size information for []uint8, decoding into (types.LegacyTx).Data',
    ],
    [
      'an access list entry with a short address',
      dynamicFee({ 8: list(list(enc(new Uint8Array(19)), Uint8Array.of(0xc0))) }),
      'rlp: input string too short for common.Address, decoding into (types.DynamicFeeTx).AccessList[0].Address',
    ],
    [
      'a string for the access list',
      dynamicFee({ 8: EMPTY }),
      'rlp: expected input list for types.AccessList, decoding into (types.DynamicFeeTx).AccessList',
    ],
    [
      'a blob fee cap over 256 bits',
      concatBytes(
        Uint8Array.of(3),
        list(
          ONE,
          ONE,
          ONE,
          enc(new Uint8Array(33).fill(1)),
          ONE,
          ADDRESS,
          ONE,
          EMPTY,
          Uint8Array.of(0xc0),
          ONE,
          Uint8Array.of(0xc0),
          EMPTY,
          ONE,
          ONE,
        ),
      ),
      'rlp: value too large for uint256',
    ],
    ['a blob transaction that is no list', Uint8Array.of(3, 0x80), 'rlp: expected List'],
    ['a blob transaction with nothing in it', Uint8Array.of(3, 0xc0), 'unexpected EOF'],
    [
      'a blob wrapper of an unknown version',
      concatBytes(Uint8Array.of(3), list(list(ONE), Uint8Array.of(0x02), Uint8Array.of(0xc0), Uint8Array.of(0xc0), Uint8Array.of(0xc0))),
      'rlp: too few elements for types.BlobTx, decoding into (types.blobTxWithBlobsV1).BlobTx',
    ],
  ]
  for (const [name, raw, message] of cases) {
    it(name, () => {
      const e = refusal(raw)
      expect(e.message).toBe(message)
      expect(e.kind).toBe(message === 'transaction type not supported' ? 'txTypeNotSupported' : 'invalidTransaction')
    })
  }
})

describe('what decodes', () => {
  it("the execution-apis transactions (legacy, access list, fee market, blob in its wrapper): the chain's id, replay-protected", () => {
    const dir = rpcCompatPath('tests', 'eth_sendRawTransaction')
    const chainId = BigInt((JSON.parse(readFileSync(rpcCompatPath('genesis.json'), 'utf8')) as { config: { chainId: number } }).config.chainId)
    const seen: number[] = []
    for (const file of readdirSync(dir)) {
      const request = readFileSync(join(dir, file), 'utf8')
        .split('\n')
        .find((l) => l.startsWith('>> '))!
      const [raw] = (JSON.parse(request.slice(3)) as { params: [string] }).params
      const d = decodeTx(hexToBytes(raw))
      expect(d.chainId, file).toBe(chainId)
      expect(d.protected, file).toBe(true)
      if (d.type === 3) expect(d.sidecarVersion, file).toBeDefined()
      seen.push(d.type)
    }
    expect(seen.sort()).toEqual([0, 1, 2, 2, 3])
  })

  it('a legacy transaction with v 27 or 28 is unprotected and names no chain', () => {
    const d = decodeTx(legacy())
    expect(d).toMatchObject({ type: 0, protected: false, chainId: undefined, nonce: 1n, gasLimit: 21_000n, feeCap: 1n, tipCap: 1n, v: 27n })
    expect(d.to).toEqual(new Uint8Array(20).fill(0xaa))
    expect(decodeTx(legacy({ 6: enc(Uint8Array.of(37)) }))).toMatchObject({ protected: true, chainId: 1n })
  })

  it('a creation has no to; the fields are views of the input', () => {
    const raw = legacy({ 3: EMPTY, 5: enc(new Uint8Array(100).fill(7)) })
    const d = decodeTx(raw)
    expect(d.to).toBeUndefined()
    expect(d.data.length).toBe(100)
    expect(d.data.buffer).toBe(raw.buffer)
  })
})
