import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readGenesisFile } from '../chain/genesis.js'
import { ChainSpec } from '../chain/spec.js'
import { decodeChainFile } from '../exec/importChain.js'
import { RPC_COMPAT_DIR } from '../testing/paths.js'
import { blockSize, bodyRlp } from './blockCodec.js'

describe('block size from stored header and body', () => {
  it('equals the serialized block length for every block of the conformance chain', () => {
    const spec = new ChainSpec(readGenesisFile(join(RPC_COMPAT_DIR, 'genesis.json')))
    for (const block of decodeChainFile(spec, join(RPC_COMPAT_DIR, 'chain.rlp'))) {
      expect(blockSize(block.header.serialize(), bodyRlp(block))).toBe(block.serialize().length)
    }
  })
})
