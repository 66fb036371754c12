import { readFileSync } from 'node:fs'
import { type Block, createBlockFromBytesArray } from '@ethereumjs/block'
import { RLP } from '@ethereumjs/rlp'
import { type ChainSpec, SPEC_PARAMS } from './spec.js'

/** Splits a file of concatenated RLP blocks; a file that is not one is refused naming the file and the offset. */
export function decodeChainFile(spec: ChainSpec, path: string): Block[] {
  const data = readFileSync(path)
  const blocks: Block[] = []
  let rest: Uint8Array = data
  while (rest.length > 0) {
    try {
      const { data: item, remainder } = RLP.decode(rest, true) as unknown as { data: never; remainder: Uint8Array }
      blocks.push(createBlockFromBytesArray(item, { common: spec.common, params: SPEC_PARAMS, setHardfork: true }))
      rest = remainder
    } catch (e) {
      throw new Error(`${path}: not a chain file of RLP blocks (block ${blocks.length}, byte ${data.length - rest.length}: ${(e as Error).message})`)
    }
  }
  return blocks
}
