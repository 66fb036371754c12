import { rmSync } from 'node:fs'
import { createBlock } from '@ethereumjs/block'
import { afterEach, describe, expect, it } from 'vitest'
import { readGenesisFile } from '../chain/genesis.js'
import { ChainSpec } from '../chain/spec.js'
import { ChainStore } from '../store/chainStore.js'
import { rpcCompatPath, tempDatadir } from '../testing/paths.js'
import { bytesToHex } from '../util/hex.js'
import { genesisBlock } from '../state/genesis.js'
import { ImportError, importChain } from './importChain.js'
import { decodeChainFile } from '../chain/chainFile.js'

const spec = new ChainSpec(readGenesisFile(rpcCompatPath('genesis.json')))
const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

describe('chain import', () => {
  it('imports the conformance chain to its known head, and resumes after reopening', async () => {
    const dir = tempDatadir('import')
    dirs.push(dir)
    const blocks = decodeChainFile(spec, rpcCompatPath('chain.rlp'))
    let store = new ChainStore(dir)
    await genesisBlock(spec, store)
    expect(await importChain(spec, store, blocks.slice(0, 30))).toEqual({ imported: 30, skipped: 0 })
    await store.close()
    store = new ChainStore(dir)
    await genesisBlock(spec, store)
    expect(await importChain(spec, store, blocks)).toEqual({ imported: 24, skipped: 30 })
    expect(bytesToHex(store.getLabel('head')!)).toBe('0xd226371d0b1551adb03fb52b71f08e3e11247fe9b1af994768af8cdaa8e7dcd7')
    await store.close()
  })

  it('stops at a bad block, naming it, and keeps the store at the last good block', async () => {
    const dir = tempDatadir('badimport')
    dirs.push(dir)
    const blocks = decodeChainFile(spec, rpcCompatPath('chain.rlp')).slice(0, 6)
    const good = blocks[4]!
    const bad = createBlock(
      { header: { ...good.header.toJSON(), gasUsed: good.header.gasUsed + 1n }, transactions: good.transactions },
      { common: spec.common, setHardfork: true },
    )
    const store = new ChainStore(dir)
    await genesisBlock(spec, store)
    const err = await importChain(spec, store, [...blocks.slice(0, 4), bad]).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ImportError)
    expect((err as ImportError).blockNumber).toBe(5n)
    expect((err as ImportError).reason).toMatch(/gasUsed/)
    expect(bytesToHex(store.getLabel('head')!)).toBe(bytesToHex(blocks[3]!.hash()))
    expect(store.getCanonicalHash(5n)).toBeUndefined()
    await store.close()
  })
})
