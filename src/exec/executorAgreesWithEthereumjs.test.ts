import { Block, createBlockHeader } from '@ethereumjs/block'
import { createAccessList2930Tx, createFeeMarket1559Tx, createLegacyTx } from '@ethereumjs/tx'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devAccounts, devGenesis } from '../chain/dev.js'
import { MULTICALL3_ADDRESS } from '../chain/multicall3.js'
import { readBlock, readHeader } from '../store/blockCodec.js'
import { ChainStore } from '../store/chainStore.js'
import { tempDatadir } from '../testing/paths.js'
import { runPlainEthereumjs } from '../testing/plainEthereumjs.js'
import { type WithdrawalJson, payloadAttributes } from '../testing/engineBlocks.js'
import { type TestNode, ZERO32, signedTransfer, startTestNode } from '../testing/testNode.js'
import { bytesToHex, hexToBytes } from '../util/hex.js'
import { BlockExecutor } from './executor.js'
import { genesisBlock } from '../state/genesis.js'

// Blocks built by the node's builder, checked first by plain EthereumJS (runBlock: every transaction through runTx
// and the interpreter, every root of the header compared), then executed by the block executor on Sponge's EVM:
// execute() throws unless it arrives at the same state root, receipts root and gas.

const genesis = devGenesis()
const EMPTY = '0x00000000000000000000000000000000000000e0'
genesis.alloc[EMPTY] = { balance: '0x0' }
const fresh = (n: number) => `0x${n.toString(16).padStart(40, 'f')}`
const dev = devAccounts()
const GWEI = 1_000_000_000n

let builder: TestNode
beforeAll(async () => {
  builder = await startTestNode({ genesis, apis: ['eth', 'testing'] })
})
afterAll(async () => {
  await builder.close()
})

function signed(
  from: number,
  nonce: number,
  kind: 'legacy' | 'accessList' | 'dynamic',
  fields: { to: string; value?: bigint; data?: string },
): string {
  const common = builder.spec.commonAt(1n, BigInt(Math.floor(Date.now() / 1000)))
  const key = hexToBytes(dev[from]!.privateKey)
  const base = {
    nonce: BigInt(nonce),
    gasLimit: 100_000n,
    to: fields.to as `0x${string}`,
    value: fields.value ?? 0n,
    data: (fields.data ?? '0x') as `0x${string}`,
  }
  const tx =
    kind === 'legacy'
      ? createLegacyTx({ ...base, gasPrice: 10n * GWEI }, { common })
      : kind === 'accessList'
        ? createAccessList2930Tx({ ...base, gasPrice: 10n * GWEI, chainId: builder.spec.chainId, accessList: [] }, { common })
        : createFeeMarket1559Tx({ ...base, maxFeePerGas: 10n * GWEI, maxPriorityFeePerGas: GWEI, chainId: builder.spec.chainId }, { common })
  return bytesToHex(tx.sign(key).serialize())
}

interface Built {
  executionPayload: { blockHash: string; transactions: string[] } & Record<string, unknown>
  executionRequests?: string[]
}

async function build(parentHash: string, feeRecipient: string, timestamp: number, txs: string[], withdrawals: WithdrawalJson[] = []): Promise<Built> {
  const built = await builder.http<Built>('testing_buildBlockV1', [
    parentHash,
    payloadAttributes(timestamp, { feeRecipient, withdrawals }),
    txs,
    null,
  ])
  expect(built.error).toBeUndefined()
  expect(built.result!.executionPayload.transactions).toHaveLength(txs.length)
  const accepted = await builder.engine<{ status: string }>('engine_newPayloadV4', [
    built.result!.executionPayload,
    [],
    ZERO32,
    built.result!.executionRequests ?? [],
  ])
  expect(accepted.result?.status).toBe('VALID')
  return built.result!
}

/** The built block as the builder node stored it when newPayload accepted it. */
const blockOf = (built: Built): Block => readBlock(builder.spec, builder.node.store, hexToBytes(built.executionPayload.blockHash))!

describe("the block executor's plain transfers", () => {
  it('leave the state, receipts and gas exactly as the interpreter does, in every corner of a transfer', async () => {
    const g = (await builder.http<{ hash: string }>('eth_getBlockByNumber', ['0x0', false])).result!
    const coinbase = dev[1]!.address
    const first = await build(
      g.hash,
      coinbase,
      0x1000,
      [
        signedTransfer(builder.spec, 0, 0, { to: fresh(1), value: 1000n }), // creates an account
        signedTransfer(builder.spec, 0, 1, { to: fresh(2), value: 0n }), // touches a missing account: not created
        signedTransfer(builder.spec, 0, 2, { to: dev[0]!.address, value: 5n }), // to itself
        signedTransfer(builder.spec, 1, 0, { to: fresh(3), value: 7n, tip: 0n }), // from the fee recipient, no tip
        signed(2, 0, 'dynamic', { to: '0x0000000000000000000000000000000000000001', value: 1n }), // a precompile: interpreter
        signed(2, 1, 'dynamic', { to: MULTICALL3_ADDRESS }), // code: interpreter
        signed(3, 0, 'legacy', { to: dev[4]!.address, value: 1n }),
        signed(3, 1, 'accessList', { to: fresh(4), value: 2n }),
        signedTransfer(builder.spec, 2, 2, { to: coinbase, value: 3n }), // to the fee recipient
        signedTransfer(builder.spec, 2, 3, { to: fresh(5), value: 4n, gas: 30_000n }), // unused gas returned
        signed(2, 4, 'dynamic', { to: fresh(6), data: '0x1234' }), // calldata: interpreter
      ],
      [
        { index: '0x0', validatorIndex: '0x0', address: fresh(7), amount: '0x0' },
        { index: '0x1', validatorIndex: '0x1', address: fresh(8), amount: '0x5' },
      ],
    )
    // No tip at all and a fee recipient that does not exist: it is touched and stays absent; an existing empty
    // account touched by a zero-value transfer is removed (EIP-158).
    const second = await build(first.executionPayload.blockHash, fresh(9), 0x1010, [
      signedTransfer(builder.spec, 5, 0, { to: fresh(10), value: 1n, tip: 0n }),
      signedTransfer(builder.spec, 5, 1, { to: EMPTY, value: 0n, tip: 0n }),
      signedTransfer(builder.spec, 6, 0, { to: dev[7]!.address, value: 1n, tip: 0n }),
    ])

    await runPlainEthereumjs(
      genesis,
      [first, second].map((b) => ({ payload: b.executionPayload })),
    )

    const store = new ChainStore(tempDatadir('processor'))
    try {
      await genesisBlock(builder.spec, store)
      const executor = await BlockExecutor.create(builder.spec, store)
      for (const built of [first, second]) {
        const block = blockOf(built)
        const { record } = await executor.execute(block, readHeader(builder.spec, store, block.header.parentHash)!)
        store.putBlockSync(record)
      }
    } finally {
      await store.close()
    }
  })
})

describe("the executor's warm caches", () => {
  it('serve only the child of the block executed last: a sibling, a failed block and a block after it see their own parent', async () => {
    const g = (await builder.http<{ hash: string }>('eth_getBlockByNumber', ['0x0', false])).result!
    const a = blockOf(await build(g.hash, fresh(20), 0x2000, [signedTransfer(builder.spec, 8, 0, { to: fresh(21), value: 9n })]))
    const sibling = blockOf(await build(g.hash, fresh(20), 0x2000, [signedTransfer(builder.spec, 8, 0, { to: fresh(22), value: 8n })]))
    const child = blockOf(await build(bytesToHex(a.hash()), fresh(20), 0x2010, [signedTransfer(builder.spec, 8, 1, { to: fresh(21), value: 7n })]))
    // The child with another state root in its header: executes, then fails the root check.
    const badHeader = createBlockHeader({ ...child.header.toJSON(), stateRoot: a.header.stateRoot }, { common: child.common })
    const bad = new Block(badHeader, child.transactions, [], child.withdrawals, { common: child.common })

    const store = new ChainStore(tempDatadir('warm'))
    try {
      await genesisBlock(builder.spec, store)
      const executor = await BlockExecutor.create(builder.spec, store)
      const run = async (block: Block) => {
        const { record } = await executor.execute(block, readHeader(builder.spec, store, block.header.parentHash)!)
        store.putBlockSync(record)
      }
      await run(a)
      await run(sibling) // on genesis, not on a's state
      await run(a) // a again, after its sibling
      await expect(run(bad)).rejects.toThrow(/stateRoot/)
      await run(child) // on a's state, as it was before the failed block
      await run(child) // again: the warm state is at the child's own root now, not its parent's
    } finally {
      await store.close()
    }
  })
})
