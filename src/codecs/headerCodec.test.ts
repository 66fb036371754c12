import { createBlockHeader } from '@ethereumjs/block'
import { describe, expect, it } from 'vitest'
import { devGenesis } from '../chain/dev.js'
import { ChainSpec } from '../chain/spec.js'
import { keccak256 } from '../crypto/keccak.js'
import { EMPTY_UNCLE_HASH, encodeHeader, type HeaderFields } from './headerCodec.js'

// Headers from their fields, checked against EthereumJS's header of the same fields: before London (the fifteen
// fields) and at Osaka (every fork's field).

const bytes = (n: number, fill: number) => new Uint8Array(n).fill(fill)

const base: HeaderFields = {
  parentHash: bytes(32, 1),
  uncleHash: EMPTY_UNCLE_HASH,
  coinbase: bytes(20, 2),
  stateRoot: bytes(32, 3),
  transactionsRoot: bytes(32, 4),
  receiptsRoot: bytes(32, 5),
  logsBloom: bytes(256, 6),
  difficulty: 0n,
  number: 55n,
  gasLimit: 36_000_000n,
  gasUsed: 21_000n,
  timestamp: 1_700_000_000n,
  extraData: Uint8Array.of(7, 7),
  mixHash: bytes(32, 8),
  nonce: new Uint8Array(8),
}

describe('headers from their fields', () => {
  it('encode and hash as EthereumJS’s header, with every fork’s field', () => {
    const spec = new ChainSpec(devGenesis())
    const osaka: HeaderFields = {
      ...base,
      baseFee: 7n,
      withdrawalsRoot: bytes(32, 9),
      blobGasUsed: 131_072n,
      excessBlobGas: 0n,
      parentBeaconBlockRoot: bytes(32, 10),
      requestsHash: bytes(32, 11),
    }
    const reference = createBlockHeader(
      {
        parentHash: osaka.parentHash,
        uncleHash: osaka.uncleHash,
        coinbase: osaka.coinbase,
        stateRoot: osaka.stateRoot,
        transactionsTrie: osaka.transactionsRoot,
        receiptTrie: osaka.receiptsRoot,
        logsBloom: osaka.logsBloom,
        difficulty: 0n,
        number: osaka.number,
        gasLimit: osaka.gasLimit,
        gasUsed: osaka.gasUsed,
        timestamp: osaka.timestamp,
        extraData: osaka.extraData,
        mixHash: osaka.mixHash,
        nonce: osaka.nonce,
        baseFeePerGas: 7n,
        withdrawalsRoot: osaka.withdrawalsRoot,
        blobGasUsed: osaka.blobGasUsed,
        excessBlobGas: 0n,
        parentBeaconBlockRoot: osaka.parentBeaconBlockRoot,
        requestsHash: osaka.requestsHash,
      },
      { common: spec.commonAt(55n, osaka.timestamp), skipConsensusFormatValidation: true },
    )
    const rlp = encodeHeader(osaka)
    expect(rlp).toEqual(reference.serialize())
    expect(keccak256(rlp)).toEqual(reference.hash())
  })

  it('ends at the first fork whose field is absent, and refuses a later one without it', () => {
    expect(encodeHeader(base).length).toBeLessThan(encodeHeader({ ...base, baseFee: 1n }).length)
    expect(() => encodeHeader({ ...base, requestsHash: bytes(32, 1) })).toThrow()
  })
})
