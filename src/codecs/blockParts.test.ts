import { RLP } from '@ethereumjs/rlp'
import { describe, expect, it } from 'vitest'
import { decodeChainFile } from '../chain/chainFile.js'
import { readGenesisFile } from '../chain/genesis.js'
import { ChainSpec } from '../chain/spec.js'
import { rpcCompatPath } from '../testing/paths.js'
import { partsOfBlock, withdrawalRlp } from './blockParts.js'
import { encodeHeader } from './headerCodec.js'

// A block taken in as EthereumJS's (a payload's, a chain file's) and one built from its fields must be the same
// parts: the header's fields encode to the header EthereumJS serializes, withdrawals as the body holds them.

describe("an EthereumJS block's parts", () => {
  it('encode to the same header and withdrawals, for every block of the conformance chain', () => {
    const spec = new ChainSpec(readGenesisFile(rpcCompatPath('genesis.json')))
    let withdrawals = 0
    for (const block of decodeChainFile(spec, rpcCompatPath('chain.rlp'))) {
      const parts = partsOfBlock(block)
      expect(encodeHeader(parts.header)).toEqual(block.header.serialize())
      expect(parts.hash).toEqual(block.hash())
      for (const [i, w] of (parts.withdrawals ?? []).entries()) {
        expect(withdrawalRlp(w)).toEqual(RLP.encode(block.withdrawals![i]!.raw()))
        withdrawals++
      }
    }
    expect(withdrawals).toBeGreaterThan(0)
  })
})
