import { describe, expect, it } from 'vitest'
import type { PlainAccount } from '../../state/accountsRoot.js'
import { type Hex, bytesToHex, hexToBytes } from '../../util/hex.js'
import type { Expectation } from './fixture.js'
import type { TxLog } from './types.js'
import { judge, logsHash, stateDiff } from './verdict.js'

const account = (a: Partial<PlainAccount>): PlainAccount => ({ nonce: 0n, balance: 0n, code: new Uint8Array(), storage: new Map(), ...a })
const word = (hex: string): Uint8Array => hexToBytes(`0x${hex.padStart(64, '0')}`)
const CCCC: Hex = '0xcccccccccccccccccccccccccccccccccccccccc'

describe('logsHash', () => {
  it('is keccak(rlp([])) for no logs', () => {
    expect(bytesToHex(logsHash([]))).toBe('0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347')
  })

  it('is the hash the fixtures give for their logs (static/VMTests/vmLogTest)', () => {
    // log0[fork_Cancun-state_test-logTwice]: two LOG0s.
    const twice: TxLog[] = [
      { address: CCCC, topics: [], data: hexToBytes(`0xaabb${'ff'.repeat(28)}ccdd`) },
      { address: CCCC, topics: [], data: hexToBytes(`0x${'ff'.repeat(16)}`) },
    ]
    expect(bytesToHex(logsHash(twice))).toBe('0x8158c4dd9e2ec309f0ecf2edd274b27663e8075c3bb8b0357b040d1484a2930e')
    // log3[fork_Cancun-state_test-caller]: LOG3 with zero topics and CALLER.
    const log3: TxLog[] = [
      {
        address: CCCC,
        topics: [word('0'), word('0'), word('a94f5374fce5edbc8e2a8697c15331677e6ebf0b')],
        data: hexToBytes(`0xaabb${'ff'.repeat(28)}ccdd`),
      },
    ]
    expect(bytesToHex(logsHash(log3))).toBe('0x7892c989716799974e37f634fd1e5415875819865e33cb54062aab2f75cd2294')
  })
})

describe('judge', () => {
  // cancun/eip1153_tstore/test_basic_tload_after_store.json's post state and its root.
  const post = new Map<Hex, PlainAccount>([
    [
      '0x1ad41edb9130201ba8476168bcbf9bafe279f89d',
      account({ nonce: 1n, code: hexToBytes('0x5b601660015560015c6001556001600255'), storage: new Map([[2n, 1n]]) }),
    ],
    ['0x766b923079c2900993bafa89b07d66423481776e', account({ nonce: 1n, balance: 0x6124fee993b55c0an })],
    ['0x2adc25665018aa1fe0e6bc666dac8fc2697ff9ba', account({ balance: 0x01fdfdn })],
  ])
  const root = hexToBytes('0x26ee901705e7190e9f9b97d60e70ccc7b5ae6881b1609b379d5e683d5de99ec0')
  const noLogs = logsHash([])
  const valid: Expectation = { stateRoot: root, logsHash: noLogs, exception: undefined, state: post }
  const invalid: Expectation = { ...valid, exception: 'TransactionException.INSUFFICIENT_ACCOUNT_FUNDS' }

  it('passes the expected post state, as accounts or as a root', () => {
    expect(judge(valid, { kind: 'accounts', accounts: post, logs: [] })).toBeUndefined()
    expect(judge(valid, { kind: 'root', stateRoot: root, logs: [] })).toBeUndefined()
  })

  it('passes a rejection the fixture expects, whatever the executor calls it', () => {
    expect(judge(invalid, { kind: 'rejected', reason: 'not enough funds' })).toBeUndefined()
  })

  it('passes a refusal where a fixture marking no exceptions (the legacy tests) wants the pre-state kept', () => {
    const unmarked: Expectation = { ...valid, preIfUnmarked: post, state: undefined }
    expect(judge(unmarked, { kind: 'rejected', reason: 'intrinsic gas too low' })).toBeUndefined()
    const changed: Expectation = { ...unmarked, preIfUnmarked: new Map([...post].slice(1)) }
    expect(judge(changed, { kind: 'rejected', reason: 'intrinsic gas too low' })).toBe('rejected (intrinsic gas too low), want executed')
  })

  it('says what differed', () => {
    expect(judge(invalid, { kind: 'root', stateRoot: root, logs: [] })).toBe(
      'executed, want rejected (TransactionException.INSUFFICIENT_ACCOUNT_FUNDS)',
    )
    expect(judge(valid, { kind: 'rejected', reason: 'nonce too low' })).toBe('rejected (nonce too low), want executed')
    const richer = new Map(post)
    richer.set('0x2adc25665018aa1fe0e6bc666dac8fc2697ff9ba', account({ balance: 0x01fdfen }))
    expect(judge(valid, { kind: 'accounts', accounts: richer, logs: [] })).toMatch(
      /^state root 0x[0-9a-f]{64}, want 0x26ee9017.* \(0x2adc25665018aa1fe0e6bc666dac8fc2697ff9ba balance 130558, want 130557\)$/,
    )
    const log: TxLog = { address: CCCC, topics: [], data: new Uint8Array() }
    expect(judge(valid, { kind: 'root', stateRoot: root, logs: [log] })).toMatch(/^logs hash 0x[0-9a-f]{64} of 1 logs, want 0x1dcc4de8/)
  })
})

describe('stateDiff', () => {
  it('names missing and extra accounts, fields and slots, at most max', () => {
    const a: Hex = '0x00000000000000000000000000000000000000aa'
    const b: Hex = '0x00000000000000000000000000000000000000bb'
    const c: Hex = '0x00000000000000000000000000000000000000cc'
    const got = new Map([
      [a, account({ nonce: 1n, storage: new Map([[1n, 2n]]) })],
      [c, account({})],
    ])
    const want = new Map([
      [a, account({ nonce: 2n, storage: new Map([[3n, 4n]]) })],
      [b, account({})],
    ])
    expect(stateDiff(got, want, 10)).toEqual([
      `${a} nonce 1, want 2`,
      `${a} storage[0x1] 0x2, want 0x0`,
      `${a} storage[0x3] 0x0, want 0x4`,
      `${b} missing`,
      `${c} should not exist`,
    ])
    expect(stateDiff(got, want)).toHaveLength(3)
  })
})
