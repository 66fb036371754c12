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
