import { readFileSync } from 'node:fs'
import { type Block, createBlockFromBytesArray } from '@ethereumjs/block'
import { RLP } from '@ethereumjs/rlp'
import type { ChainSpec } from './spec.js'

/** Splits a file of concatenated RLP blocks. */
export function decodeChainFile(spec: ChainSpec, path: string): Block[] {
  const data = readFileSync(path)
  const blocks: Block[] = []
  let rest: Uint8Array = data
  while (rest.length > 0) {
    const { data: item, remainder } = RLP.decode(rest, true) as unknown as { data: never; remainder: Uint8Array }
    blocks.push(createBlockFromBytesArray(item, { common: spec.common, setHardfork: true }))
    rest = remainder
  }
  return blocks
}
