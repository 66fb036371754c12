import { describe, expect, it } from 'vitest'
import { readGenesisFile } from '../chain/genesis.js'
import { ChainSpec } from '../chain/spec.js'
import { decodeChainFile } from '../chain/chainFile.js'
import { rpcCompatPath } from '../testing/paths.js'
import { blockSize, bodyRlp } from './blockCodec.js'

describe('block size from stored header and body', () => {
  it('equals the serialized block length for every block of the conformance chain', () => {
    const spec = new ChainSpec(readGenesisFile(rpcCompatPath('genesis.json')))
    for (const block of decodeChainFile(spec, rpcCompatPath('chain.rlp'))) {
      expect(blockSize(block.header.serialize(), bodyRlp(block))).toBe(block.serialize().length)
    }
  })
})

describe('body from the transactions as received', () => {
  it('is the body EthereumJS encodes, for every block of the conformance chain (legacy, typed, withdrawals)', () => {
    const spec = new ChainSpec(readGenesisFile(rpcCompatPath('genesis.json')))
    let txs = 0
    for (const block of decodeChainFile(spec, rpcCompatPath('chain.rlp'))) {
      const received = block.transactions.map((t) => t.serialize())
      txs += received.length
      expect(bodyRlp(block, received)).toEqual(bodyRlp(block))
    }
    expect(txs).toBeGreaterThan(0)
  })
})
