import { describe, expect, it } from 'vitest'
import type { NodeContext } from '../context.js'
import { entry, tableOf } from '../methodTable.js'
import { RawJson } from '../reply.js'
import { allMethods } from './index.js'
import * as p from '../../wire/ethParams.js'
import type { Quantity } from '../../wire/primitives.js'
import type { BlockResult, ReceiptResult } from '../../wire/results.js'

// The method table's type checks, pinned: each `@ts-expect-error` line must fail to compile, so `npm run
// typecheck` fails if a check stops working (the directive is then unused). The rows below are never served.

const quantity = (_: [], ctx: Pick<NodeContext, 'spec'>): Quantity => `0x${ctx.spec.chainId.toString(16)}`

const unstated: RawJson = new RawJson(['{}'])

describe('the method table', () => {
  it('checks each handler against its method', () => {
    // Right: the result declared for eth_chainId, a narrow context.
    const good = entry('eth_chainId', 'eth', p.validateNoParams, quantity)
    // @ts-expect-error eth_chainId answers a Quantity: not a number
    entry('eth_chainId', 'eth', p.validateNoParams, () => 1)
    // @ts-expect-error eth_mining answers a boolean: not a Quantity
    entry('eth_mining', 'eth', p.validateNoParams, quantity)
    // @ts-expect-error eth_getBlockByNumber answers a block or null: not stored receipt JSON
    entry('eth_getBlockByNumber', 'eth', p.validateBlockByNumber, () => RawJson.of<ReceiptResult>('{}'))
    // Stored block JSON is: the phantom type says what the bytes encode.
    entry('eth_getBlockByNumber', 'eth', p.validateBlockByNumber, () => RawJson.of<BlockResult>('{}'))
    // @ts-expect-error pre-encoded JSON of unstated type (RawJson's default: unknown) is refused
    entry('eth_getBlockByNumber', 'eth', p.validateBlockByNumber, () => unstated)
    // @ts-expect-error a promised result is checked too
    entry('eth_blockNumber', 'eth', p.validateNoParams, async () => true)
    // @ts-expect-error the handler takes what the validator gives: eth_getBalance's are [Address, block?]
    entry('eth_getBalance', 'eth', p.validateAccount, (_: [number], _ctx: NodeContext) => '0x0')
    // @ts-expect-error a method RpcResults does not declare
    entry('eth_notAMethod', 'eth', p.validateNoParams, quantity)
    // @ts-expect-error a table that leaves out methods of RpcResults
    tableOf([good])
    expect(good[0]).toBe('eth_chainId')
  })

  it('is a map of every method, the handlers themselves', async () => {
    const table = allMethods()
    expect(table.size).toBe(96)
    const { chainId } = await import('./chainReads.js')
    expect(table.get('eth_chainId')?.handle).toBe(chainId)
  })
})
