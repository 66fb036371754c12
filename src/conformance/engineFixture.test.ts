import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ChainSpec } from '../chain/spec.js'
import { genesisBlock } from '../state/genesis.js'
import { ChainStore } from '../store/chainStore.js'
import { bytesToHex } from '../util/hex.js'
import { REPO_ROOT, tempDatadir } from '../testing/paths.js'
import { readEngineFixture } from './engineFixture.js'

const text = readFileSync(join(REPO_ROOT, 'test/fixtures/eest-bench/empty_block_value_1M.json'), 'utf8')
const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

describe('readEngineFixture', () => {
  it("builds the genesis the fixture's genesis hash names (its network's forks, blob schedule, header and pre)", async () => {
    const [c] = readEngineFixture(text)
    const dir = tempDatadir('engine-fixture')
    dirs.push(dir)
    const store = new ChainStore(dir)
    try {
      const block = await genesisBlock(new ChainSpec(c!.genesis), store)
      expect(bytesToHex(block.hash())).toBe(c!.genesisHash)
    } finally {
      await store.close()
    }
    expect(c!.network).toBe('Osaka')
    expect(c!.chainId).toBe(1n)
  })

  it('sends each valid block, then makes it the head with genesis safe and finalized', () => {
    const [c] = readEngineFixture(text)
    expect(c!.blocks).toHaveLength(1)
    const b = c!.blocks[0]!
    const payload = b.newPayload.params[0] as { blockHash: string }
    expect(b.newPayload).toMatchObject({ method: 'engine_newPayloadV4', expect: 'VALID' })
    expect(b.newPayload.params).toHaveLength(4)
    expect(b.forkchoiceUpdated).toEqual({
      method: 'engine_forkchoiceUpdatedV3',
      params: [{ headBlockHash: payload.blockHash, safeBlockHash: c!.genesisHash, finalizedBlockHash: c!.genesisHash }, null],
      expect: 'VALID',
    })
    expect(payload.blockHash).toBe(c!.lastBlockHash)
    expect(b.txs).toBe(0)
  })

  it('keeps only the tests the filter accepts', () => {
    expect(readEngineFixture(text, (name) => name.includes('value_100M'))).toEqual([])
  })
})
