import typia from 'typia'
import { describe, expect, it } from 'vitest'
import type { AccountParams, BlockByNumberParams, BlockNumberParams, ByHashParams, StorageParams, TxByNumberAndIndexParams } from './ethParams.js'
import {
  isAccountParams,
  isBlockByNumberParams,
  isBlockNumberParams,
  isByHashParams,
  isStorageParams,
  isTxByNumberAndIndexParams,
} from './quickParams.js'

const hash = `0x${'ab'.repeat(32)}`
const address = `0x${'aB'.repeat(20)}`
// Values of every kind a parameter may be sent as, each valid somewhere or nowhere.
const values: unknown[] = [
  hash,
  hash.toUpperCase(),
  `0x${'AB'.repeat(32)}`,
  `0x${'ab'.repeat(31)}`,
  `0x${'ab'.repeat(33)}`,
  `${hash}\n`,
  address,
  address.toLowerCase(),
  `0x${'ab'.repeat(19)}`,
  `0x${'ab'.repeat(21)}`,
  `${address}\n`,
  '0x0',
  '0x00',
  '0x1',
  '0x01',
  '0xA',
  '0xa',
  '0x',
  '0x1f',
  `0x1${'0'.repeat(15)}`,
  `0x1${'0'.repeat(16)}`,
  `0x${'f'.repeat(64)}`,
  `0x${'f'.repeat(65)}`,
  '0X1',
  '1',
  '',
  'latest',
  'pending',
  'safe',
  'finalized',
  'earliest',
  'Latest',
  'latest ',
  1,
  0,
  -1,
  1.5,
  true,
  false,
  null,
  undefined,
  {},
  [],
  { blockHash: hash },
  { blockNumber: '0x1' },
  { blockHash: hash, requireCanonical: true },
]

/** Every array of up to `max` members drawn from `values` (the first two positions), and some longer ones. */
function inputs(max: number): unknown[] {
  const out: unknown[] = [undefined, null, 'x', {}, hash, [hash, hash, hash, hash]]
  out.push([])
  for (const a of values) {
    out.push([a])
    if (max < 2) continue
    for (const b of values) {
      out.push([a, b])
      if (max < 3) continue
      for (const c of [undefined, 'latest', '0x1', hash, null, { blockHash: hash }, address, 7]) out.push([a, b, c])
    }
  }
  return out
}

const cases = [
  { name: 'ByHashParams', quick: isByHashParams, full: typia.createIs<ByHashParams>(), valid: [[hash]] },
  {
    name: 'AccountParams',
    quick: isAccountParams,
    full: typia.createIs<AccountParams>(),
    valid: [[address], [address, 'latest'], [address, '0x1f'], [address, hash]],
  },
  {
    name: 'StorageParams',
    quick: isStorageParams,
    full: typia.createIs<StorageParams>(),
    valid: [
      [address, '0x0'],
      [address, hash, 'latest'],
      [address, '0x1', '0x10'],
    ],
  },
  { name: 'BlockNumberParams', quick: isBlockNumberParams, full: typia.createIs<BlockNumberParams>(), valid: [['latest'], ['0x0'], ['0x1f']] },
  {
    name: 'BlockByNumberParams',
    quick: isBlockByNumberParams,
    full: typia.createIs<BlockByNumberParams>(),
    valid: [
      ['latest', false],
      ['0x1', true],
    ],
  },
  {
    name: 'TxByNumberAndIndexParams',
    quick: isTxByNumberAndIndexParams,
    full: typia.createIs<TxByNumberAndIndexParams>(),
    valid: [
      ['latest', '0x0'],
      ['0x1', '0x1f'],
    ],
  },
]

describe('quick parameter checks', () => {
  for (const c of cases) {
    it(`${c.name}: accepts nothing typia refuses, and the common forms`, () => {
      for (const input of inputs(3)) {
        if (c.quick(input)) expect([input, c.full(input)]).toEqual([input, true])
      }
      for (const input of c.valid) expect([input, c.quick(input)]).toEqual([input, true])
    })
  }
})
