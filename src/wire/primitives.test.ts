import { describe, expect, it } from 'vitest'
import { validateBlockByNumber, validateByHash, validateRawTx, validateStorage, validateTxByNumberAndIndex } from './ethParams.js'

const HASH = `0x${'ab'.repeat(32)}`

describe('wire formats are checked with the interface patterns', () => {
  it('accepts a lowercase 32-byte hash and rejects short, long and uppercase ones', () => {
    expect(validateByHash([HASH]).success).toBe(true)
    expect(validateByHash([HASH.slice(0, -2)]).success).toBe(false)
    expect(validateByHash([`${HASH}00`]).success).toBe(false)
    expect(validateByHash([HASH.toUpperCase().replace('0X', '0x')]).success).toBe(false)
    expect(validateByHash([]).success).toBe(false)
    expect(validateByHash([HASH, 1]).success).toBe(false)
  })
  it('accepts quantities and tags, rejects leading zeros and unknown tags', () => {
    expect(validateTxByNumberAndIndex(['0x1', '0x0']).success).toBe(true)
    expect(validateTxByNumberAndIndex(['latest', '0x0']).success).toBe(true)
    expect(validateTxByNumberAndIndex(['0x01', '0x0']).success).toBe(false)
    expect(validateTxByNumberAndIndex(['0x1', '0x00']).success).toBe(false)
    expect(validateTxByNumberAndIndex(['newest', '0x0']).success).toBe(false)
    expect(validateTxByNumberAndIndex([1, '0x0']).success).toBe(false)
    expect(validateTxByNumberAndIndex(['0x1ffffffffffffffff', '0x0']).success).toBe(false)
  })
  it('requires the fullTransactions flag to be a boolean', () => {
    expect(validateBlockByNumber(['latest', false]).success).toBe(true)
    expect(validateBlockByNumber(['latest', 'false']).success).toBe(false)
    expect(validateBlockByNumber(['latest']).success).toBe(false)
  })
  it('accepts addresses in either case and EIP-1898 block objects', () => {
    const addr = '0x7435ED30a8b4aeb0877cef0c6e8cffe834eb865f'
    expect(validateStorage([addr, '0x0', { blockHash: HASH }]).success).toBe(true)
    expect(validateStorage([addr, '0x0', { blockNumber: 'latest' }]).success).toBe(true)
    expect(validateStorage([addr.slice(0, -1), '0x0', 'latest']).success).toBe(false)
  })
  it('takes bytes as whole bytes of lowercase hex, a raw transaction at least one, whatever its length', () => {
    expect(validateRawTx(['0x02']).success).toBe(true)
    expect(validateRawTx([`0x${'ab'.repeat(131_072)}`]).success).toBe(true)
    expect(validateRawTx(['0x']).success).toBe(false)
    expect(validateRawTx(['0x0']).success).toBe(false)
    expect(validateRawTx([`0x${'ab'.repeat(131_072)}a`]).success).toBe(false)
    expect(validateRawTx(['0xAB']).success).toBe(false)
  })
})
