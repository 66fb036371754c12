import { createBlock } from '@ethereumjs/block'
import { Common, Hardfork, Mainnet } from '@ethereumjs/common'
import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { AccountCache, Caches, CodeCache, MerkleStateManager, StorageCache } from '@ethereumjs/statemanager'
import { createLegacyTx } from '@ethereumjs/tx'
import { Account, Address } from '@ethereumjs/util'
import { buildBlock, createVM } from '@ethereumjs/vm'
import { describe, expect, it } from 'vitest'
import { blockBuilderInternals, blockRootCache, setOriginalStorageReader, stateCaches, stateManagerInternals } from './ethereumjsInternals.js'

// Pins every EthereumJS internal Sponge reaches (ethereumjsInternals.ts) against the installed version: each is there,
// of the expected kind, and doing what the code that drives it relies on. An upgrade that moves one fails here.

const common = new Common({ chain: Mainnet, hardfork: Hardfork.Prague })
const address = new Address(new Uint8Array(20).fill(7))
const stateManager = () => new MerkleStateManager({ common, caches: new Caches() })

describe("MerkleStateManager's internals", () => {
  it('has its caches, account trie, storage tries and code-hash prefix where Sponge reads them', async () => {
    const sm = stateManager()
    const internals = stateManagerInternals(sm)
    const caches = stateCaches(sm)
    expect(caches).toBeInstanceOf(Caches)
    expect(caches.account).toBeInstanceOf(AccountCache)
    expect(caches.storage).toBeInstanceOf(StorageCache)
    expect(caches.code).toBeInstanceOf(CodeCache)
    expect(internals._trie).toBeInstanceOf(MerklePatriciaTrie)
    expect(typeof internals._prefixCodeHashes).toBe('boolean')
    await sm.putAccount(address, new Account())
    await sm.putStorage(address, new Uint8Array(32), new Uint8Array([1]))
    await sm.flush()
    // The storage trie is made through _getStorageTrie and kept in _storageTries by the hash of its address.
    expect(internals._getStorageTrie(address)).toBeInstanceOf(MerklePatriciaTrie)
    expect(Object.values(internals._storageTries).some((t) => t instanceof MerklePatriciaTrie)).toBe(true)
  })

  it('refuses a state manager without caches', () => {
    expect(() => stateCaches(new MerkleStateManager({ common }))).toThrow(/must have caches/)
  })

  it("reads SSTORE's original values through the reader set on its original-storage cache", async () => {
    const sm = stateManager()
    const asked: string[] = []
    setOriginalStorageReader(sm, async (a, key) => {
      asked.push(`${a.toString()}:${key[31]}`)
      return new Uint8Array([9])
    })
    const key = new Uint8Array(32)
    key[31] = 5
    expect(await sm.originalStorageCache.get(address, key)).toEqual(new Uint8Array([9]))
    expect(asked).toEqual([`${address.toString()}:5`])
  })
})

describe("BlockBuilder's internals", () => {
  it('keeps its transactions, results, gas counters and checkpoint flag, and asks build() for the roots through them', async () => {
    const vm = await createVM({ common })
    const genesis = createBlock({ header: { gasLimit: 30_000_000n, baseFeePerGas: 7n } }, { common })
    const builder = await buildBlock(vm, {
      parentBlock: genesis,
      headerData: { timestamp: 12n, gasLimit: 30_000_000n },
      blockOpts: { calcDifficultyFromHeader: genesis.header },
    })
    const b = blockBuilderInternals(builder)
    expect(b.vm).toBe(vm)
    expect(b.transactions).toEqual([])
    expect(b.transactionResults).toEqual([])
    expect([typeof b.gasUsed, typeof b.blobGasUsed, typeof b._minerValue]).toEqual(['bigint', 'bigint', 'bigint'])
    expect(typeof b.checkpointed).toBe('boolean')
    const root = new Uint8Array(32).fill(3)
    b.transactionsTrie = () => Promise.resolve(root)
    b.receiptTrie = () => Promise.resolve(root)
    const { block } = await builder.build()
    expect(block.header.transactionsTrie).toEqual(root)
    expect(block.header.receiptTrie).toEqual(root)
  })
})

describe("Block's root memo", () => {
  it('is what transaction-root validation compares with the header before computing anything', async () => {
    const tx = createLegacyTx({ gasLimit: 21_000n, gasPrice: 10n, to: address }, { common }).sign(new Uint8Array(32).fill(1))
    const block = createBlock({ header: { transactionsTrie: new Uint8Array(32).fill(4) }, transactions: [tx] }, { common })
    expect(await block.transactionsTrieIsValid()).toBe(false)
    const cache = blockRootCache(block)
    // The root it computed and kept: the transactions' own, not the header's.
    expect(cache.txTrieRoot).toEqual(await block.genTxTrie())
    expect(cache.txTrieRoot).not.toEqual(block.header.transactionsTrie)
    cache.txTrieRoot = new Uint8Array(32).fill(4)
    expect(await block.transactionsTrieIsValid()).toBe(true)
  })
})
