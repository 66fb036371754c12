import { RLP } from '@ethereumjs/rlp'
import { describe, expect, it } from 'vitest'
import { readGenesisFile } from '../chain/genesis.js'
import { ChainSpec } from '../chain/spec.js'
import { decodeChainFile } from '../chain/chainFile.js'
import { partsOfBlock } from '../codecs/blockParts.js'
import { rpcCompatPath } from '../testing/paths.js'
import { blockSize, bodyRlp } from './blockCodec.js'

describe('block size from stored header and body', () => {
  it('equals the serialized block length for every block of the conformance chain', () => {
    const spec = new ChainSpec(readGenesisFile(rpcCompatPath('genesis.json')))
    for (const block of decodeChainFile(spec, rpcCompatPath('chain.rlp'))) {
      const txs = block.transactions.map((t) => t.serialize())
      expect(blockSize(block.header.serialize(), bodyRlp(partsOfBlock(block), txs))).toBe(block.serialize().length)
    }
  })
})

describe('body from the transactions as received', () => {
  it('is the body EthereumJS encodes, for every block of the conformance chain (legacy, typed, uncles, withdrawals)', () => {
    const spec = new ChainSpec(readGenesisFile(rpcCompatPath('genesis.json')))
    let txs = 0
    for (const block of decodeChainFile(spec, rpcCompatPath('chain.rlp'))) {
      const received = block.transactions.map((t) => t.serialize())
      txs += received.length
      expect(bodyRlp(partsOfBlock(block), received)).toEqual(RLP.encode(block.raw().slice(1) as never))
    }
    expect(txs).toBeGreaterThan(0)
  })
})
