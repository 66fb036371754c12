import { type Block, createBlock, createBlockHeader } from '@ethereumjs/block'
import { createCommonFromGethGenesis } from '@ethereumjs/common'
import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { MerkleStateManager } from '@ethereumjs/statemanager'
import { createLegacyTx } from '@ethereumjs/tx'
import { Address, MapDB, ValueEncoding, createAddressFromPrivateKey } from '@ethereumjs/util'
import { createVM, runBlock } from '@ethereumjs/vm'
import { describe, expect, it } from 'vitest'
import type { GethGenesisFile } from '../chain/genesis.js'
import { ChainSpec } from '../chain/spec.js'
import { genesisBlock } from '../state/genesis.js'
import { writeGenesisState } from '../state/genesisState.js'
import { ChainStore } from '../store/chainStore.js'
import { tempDatadir } from '../testing/paths.js'
import { hexToBytes } from '../util/hex.js'
import { DAO_DRAIN_LIST, DAO_REFUND_CONTRACT } from '../vm/daoFork.js'
import { BlockExecutor } from './executor.js'

// The DAO fork's block on a chain that has it at block 1 (Homestead from genesis, as mainnet was then), made by
// plain EthereumJS (runBlock with `generate`: its own DAO change, then the block) and executed by the block executor
// on Sponge's EVM, which must arrive at the same state root; then the balances are where the fork puts them.

const KEY = hexToBytes(`0x${'11'.repeat(32)}`)
const SENDER = createAddressFromPrivateKey(KEY).toString()
const hexAddress = (a: bigint): string => `0x${a.toString(16).padStart(40, '0')}`
const [drainedA, drainedB, drainedEmpty] = DAO_DRAIN_LIST.map(hexAddress)
const ETHER = 10n ** 18n

function daoGenesis(support: boolean): GethGenesisFile {
  return {
    config: { chainId: 1, homesteadBlock: 0, daoForkBlock: 1, daoForkSupport: support },
    difficulty: '0x20000',
    gasLimit: '0x4c4b40',
    timestamp: '0x0',
    extraData: '0x',
    alloc: {
      [SENDER]: { balance: `0x${(100n * ETHER).toString(16)}` },
      [drainedA!]: { balance: `0x${(7n * ETHER).toString(16)}` },
      [drainedB!]: { balance: '0x3', nonce: '0x2' },
      [drainedEmpty!]: { balance: '0x0' },
      [hexAddress(DAO_REFUND_CONTRACT)]: { balance: '0x5' },
    },
  }
}

/** The DAO block made by plain EthereumJS: a transfer of 9 wei into a drained account, after the drain. */
async function ethereumjsDaoBlock(genesis: GethGenesisFile, parent: Block): Promise<{ block: Block; balances: Map<bigint, bigint> }> {
  const common = createCommonFromGethGenesis(
    { nonce: '0x0', mixHash: `0x${'00'.repeat(32)}`, coinbase: `0x${'00'.repeat(20)}`, ...genesis } as never,
    {
      chain: 'dao',
    },
  )
  common.setHardforkBy({ blockNumber: 1n })
  const db = new MapDB<string, Uint8Array>()
  const root = writeGenesisState(genesis.alloc, (key, value) => void db.put(key, value))
  const trie = new MerklePatriciaTrie({ db, useKeyHashing: true, valueEncoding: ValueEncoding.Bytes, common })
  const stateManager = new MerkleStateManager({ common, trie })
  await stateManager.setStateRoot(root)
  const vm = await createVM({ common, stateManager })
  const tx = createLegacyTx({ nonce: 0n, gasPrice: 10n, gasLimit: 21_000n, to: drainedA as `0x${string}`, value: 9n }, { common }).sign(KEY)
  const header = createBlockHeader(
    {
      number: 1n,
      parentHash: parent.hash(),
      timestamp: 15n,
      gasLimit: parent.header.gasLimit,
      coinbase: `0x${'cc'.repeat(20)}`,
      extraData: '0x64616f2d686172642d666f726b',
    },
    { common, calcDifficultyFromHeader: parent.header },
  )
  const draft = createBlock({ header: header.toJSON(), transactions: [tx.toJSON()] }, { common, calcDifficultyFromHeader: parent.header })
  const result = await runBlock(vm, { block: draft, generate: true, skipHeaderValidation: true, skipBlockValidation: true })
  const balances = new Map<bigint, bigint>()
  for (const a of [DAO_REFUND_CONTRACT, ...DAO_DRAIN_LIST.slice(0, 3)]) {
    balances.set(a, (await stateManager.getAccount(new Address(hexToBytes(hexAddress(a)))))?.balance ?? -1n)
  }
  const block = createBlock(
    {
      header: {
        ...header.toJSON(),
        stateRoot: result.stateRoot,
        logsBloom: result.logsBloom,
        gasUsed: result.gasUsed,
        receiptTrie: result.receiptsRoot,
        transactionsTrie: await draft.genTxTrie(),
      },
      transactions: [tx.toJSON()],
    },
    { common },
  )
  return { block, balances }
}

async function executeOnSponge(
  genesis: GethGenesisFile,
  label: string,
  run: (executor: BlockExecutor, store: ChainStore, parent: Block) => Promise<void>,
) {
  const spec = new ChainSpec(genesis)
  const store = new ChainStore(tempDatadir(label))
  try {
    const parent = await genesisBlock(spec, store)
    await run(await BlockExecutor.create(spec, store), store, parent)
  } finally {
    await store.close()
  }
}

describe("the DAO fork's block", () => {
  it('moves every drained balance to the refund contract before the transactions, as EthereumJS does', async () => {
    const genesis = daoGenesis(true)
    await executeOnSponge(genesis, 'dao', async (executor, store, parent) => {
      const { block, balances } = await ethereumjsDaoBlock(genesis, parent)
      // EthereumJS's block really is a DAO block: the drained ether is in the refund contract.
      expect(balances.get(DAO_REFUND_CONTRACT)).toBe(7n * ETHER + 3n + 5n)
      const { record } = await executor.execute(block, parent.header) // throws unless the roots and gas agree
      store.putBlockSync(record)
      const state = executor.config.stateAt(block.header.stateRoot)
      expect(state.account(DAO_REFUND_CONTRACT)?.balance).toBe(7n * ETHER + 3n + 5n)
      expect(state.account(DAO_DRAIN_LIST[0]!)?.balance).toBe(9n)
      expect(state.account(DAO_DRAIN_LIST[1]!)).toMatchObject({ balance: 0n, nonce: 2n })
      // Before EIP-161 the drained accounts that did not exist are brought in, empty.
      expect(state.account(DAO_DRAIN_LIST[3]!)).toMatchObject({ balance: 0n, nonce: 0n })
    })
  })

  it('moves nothing on a chain that does not support the fork', async () => {
    const genesis = daoGenesis(false)
    const withFork = daoGenesis(true)
    await executeOnSponge(genesis, 'nodao', async (executor, _store, parent) => {
      // EthereumJS applies the change whatever daoForkSupport says: its block is not this chain's.
      const { block } = await ethereumjsDaoBlock(withFork, parent)
      await expect(executor.execute(block, parent.header)).rejects.toThrow(/receiptTrie|stateRoot/)
    })
  })
})
