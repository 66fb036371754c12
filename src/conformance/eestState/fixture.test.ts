import { Common, Hardfork, Mainnet } from '@ethereumjs/common'
import { createTxFromRLP } from '@ethereumjs/tx'
import { describe, expect, it } from 'vitest'
import { Fork } from '../../chain/evmFork.js'
import { bytesToHex } from '../../util/hex.js'
import { type CaseKey, type FixtureFile, type FixtureTest, FixtureError, buildCase, caseId, forkOf, parseFixtureFile } from './fixture.js'

// cancun/eip1153_tstore/test_basic_tload_after_store.json, with two more data/gas/value variants and a second fork's
// post entry added (the fixtures have one variant per test; the format allows lists).
const NAME = 'tests/cancun/eip1153_tstore/test_basic_tload.py::test_basic_tload_after_store[fork_Cancun-state_test]'
const LEGACY_TX =
  '0xf860800a834c4b40941ad41edb9130201ba8476168bcbf9bafe279f89d808025a049c30c1716544ca6c1960a201ca2c2e6f829510cbe85a663508c3b8499a318faa03336582b5cf99b9d55854927decda7f8db1b2703684aee01c4be9c80b2a108c0'
const post = (indexes: { data: number; gas: number; value: number }, extra: object = {}) => ({
  hash: '0x26ee901705e7190e9f9b97d60e70ccc7b5ae6881b1609b379d5e683d5de99ec0',
  logs: '0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347',
  txbytes: LEGACY_TX,
  indexes,
  state: { '0x2adc25665018aa1fe0e6bc666dac8fc2697ff9ba': { nonce: '0x00', balance: '0x01fdfd', code: '0x', storage: {} } },
  ...extra,
})
const test: FixtureTest = {
  env: {
    currentCoinbase: '0x2adc25665018aa1fe0e6bc666dac8fc2697ff9ba',
    currentGasLimit: '0x07270e00',
    currentNumber: '0x01',
    currentTimestamp: '0x03e8',
    currentRandom: '0x0000000000000000000000000000000000000000000000000000000000020000',
    currentDifficulty: '0x00',
    currentBaseFee: '0x07',
    currentExcessBlobGas: '0x0a0000',
  },
  config: {
    chainid: '0x01',
    blobSchedule: {
      Cancun: { target: '0x03', max: '0x06', baseFeeUpdateFraction: '0x32f0ed' },
      BPO1: { target: '0x0a', max: '0x0f', baseFeeUpdateFraction: '0x7f5a51' },
    },
  },
  pre: {
    '0x1AD41EDB9130201BA8476168BCBF9BAFE279F89D': {
      nonce: '0x01',
      balance: '0x00',
      code: '0x5b601660015560015c6001556001600255',
      storage: { '0x01': '0xff', '0x02': '0x00' },
    },
    '0x766b923079c2900993bafa89b07d66423481776e': { nonce: '0x00', balance: '0x6124fee993bc0000', code: '0x', storage: {} },
  },
  transaction: {
    nonce: '0x00',
    gasPrice: '0x0a',
    gasLimit: ['0x4c4b40', '0x5208'],
    to: '0x1ad41edb9130201ba8476168bcbf9bafe279f89d',
    value: ['0x00', '0x01', '0x02'],
    data: ['0x', '0x0102'],
    sender: '0x766b923079c2900993bafa89b07d66423481776e',
    secretKey: '0xf792f84d3860ff35b56caae61ad41edb9130201ba8476168bcbf9bafe279f89d',
  },
  post: {
    Cancun: [
      post({ data: 0, gas: 0, value: 0 }),
      post({ data: 1, gas: 1, value: 2 }, { expectException: 'TransactionException.INTRINSIC_GAS_TOO_LOW' }),
    ],
    BPO1: [post({ data: 0, gas: 0, value: 1 })],
  },
}
const file: FixtureFile = { [NAME]: test }
const FILE = 'cancun/eip1153_tstore/test_basic_tload_after_store.json'

describe('state test fixtures', () => {
  it('parses a file, checked against the format', () => {
    expect(parseFixtureFile(JSON.stringify(file))).toEqual(file)
    const broken = { [NAME]: { ...test, transaction: { ...test.transaction, gasLimit: '0x5208' } } }
    expect(() => parseFixtureFile(JSON.stringify(broken))).toThrow(/gasLimit/)
  })

  it('names a case by its file, short test name, fork and post entry', () => {
    const key: CaseKey = { file: FILE, test: NAME, fork: 'Cancun', index: 1 }
    expect(caseId(key)).toBe(`${FILE}::test_basic_tload_after_store[fork_Cancun-state_test] Cancun/1`)
    expect(caseId({ ...key, test: 'plain' })).toBe(`${FILE}::plain Cancun/1`)
  })

  it('builds the env, pre-state and the transaction variant of a case', () => {
    const c = buildCase(file, { file: FILE, test: NAME, fork: 'Cancun', index: 1 })
    expect(c.input.fork).toBe(Fork.cancun)
    const env = c.input.env
    expect([env.chainId, env.number, env.timestamp, env.gasLimit, env.baseFee, env.difficulty]).toEqual([1n, 1n, 1000n, 0x07270e00n, 7n, 0n])
    expect(bytesToHex(env.prevRandao)).toBe(`0x${'00'.repeat(29)}020000`)
    // 0xa0000 excess blob gas with Cancun's fraction 3338477: fake_exponential(1, 655360, 3338477) = 1.
    expect(env.blob).toEqual({ excessBlobGas: 0xa0000n, baseFee: 1n, target: 3, max: 6, baseFeeUpdateFraction: 3338477 })
    // Addresses lowercased; zero storage values dropped.
    const contract = c.input.pre.get('0x1ad41edb9130201ba8476168bcbf9bafe279f89d')!
    expect([contract.nonce, [...contract.storage]]).toEqual([1n, [[1n, 0xffn]]])
    const tx = c.input.tx
    expect([tx.type, tx.gasLimit, tx.value, bytesToHex(tx.data), tx.gasPrice, tx.maxFeePerGas, tx.to]).toEqual([
      0,
      0x5208n,
      2n,
      '0x0102',
      10n,
      undefined,
      '0x1ad41edb9130201ba8476168bcbf9bafe279f89d',
    ])
    expect(c.expect.exception).toBe('TransactionException.INTRINSIC_GAS_TOO_LOW')
    expect([...c.expect.state!.keys()]).toEqual(['0x2adc25665018aa1fe0e6bc666dac8fc2697ff9ba'])
  })

  it('runs a BPO fork as Osaka with that fork’s blob schedule', () => {
    expect(forkOf('BPO1')).toBe(Fork.osaka)
    expect(forkOf('Paris')).toBe(Fork.paris)
    const c = buildCase(file, { file: FILE, test: NAME, fork: 'BPO1', index: 0 })
    expect(c.input.fork).toBe(Fork.osaka)
    expect(c.input.forkName).toBe('BPO1')
    expect(c.input.env.blob).toMatchObject({ target: 10, max: 15, baseFeeUpdateFraction: 0x7f5a51 })
  })

  it('leaves what came before Paris and London out of the env', () => {
    const berlin: FixtureFile = { [NAME]: { ...test, post: { Berlin: [post({ data: 0, gas: 0, value: 0 })] } } }
    const env = buildCase(berlin, { file: FILE, test: NAME, fork: 'Berlin', index: 0 }).input.env
    expect([env.baseFee, env.blob, env.difficulty, bytesToHex(env.prevRandao)]).toEqual([undefined, undefined, 0n, `0x${'00'.repeat(32)}`])
  })

  it('reads the legacy tests: the old forks by their names, no config, no post state, a transaction to sign', () => {
    expect([forkOf('Frontier'), forkOf('EIP150'), forkOf('EIP158'), forkOf('ConstantinopleFix'), forkOf('Istanbul')]).toEqual([
      Fork.frontier,
      Fork.tangerineWhistle,
      Fork.spuriousDragon,
      Fork.petersburg,
      Fork.istanbul,
    ])
    const { config: _, ...noConfig } = test
    const { sender: __, ...unsigned } = test.transaction
    const { txbytes: ___, state: ____, ...bare } = post({ data: 0, gas: 0, value: 0 })
    const legacy: FixtureFile = { [NAME]: { ...noConfig, transaction: unsigned, post: { Frontier: [bare] } } }
    const c = buildCase(legacy, { file: FILE, test: NAME, fork: 'Frontier', index: 0 })
    expect(c.input.fork).toBe(Fork.frontier)
    expect(c.input.env.chainId).toBe(1n)
    // The sender is the secret key's, and the transaction is signed with it as the test was filled (no chain id).
    expect(c.input.tx.sender).toBe(test.transaction.sender)
    const signed = createTxFromRLP(c.input.tx.raw, { common: new Common({ chain: Mainnet, hardfork: Hardfork.Chainstart }) })
    expect([signed.getSenderAddress().toString(), signed.gasLimit]).toEqual([test.transaction.sender, 0x4c4b40n])
    expect(signed.v === 27n || signed.v === 28n).toBe(true)
    expect(c.expect.state).toBeUndefined()
    // No post entry marks its exception: a refusal is expected where the post root is the pre-state's.
    expect(c.expect.preIfUnmarked?.size).toBe(2)
    expect(buildCase(file, { file: FILE, test: NAME, fork: 'Cancun', index: 0 }).expect.preIfUnmarked).toBeUndefined()
  })

  it('refuses what it cannot run, naming why', () => {
    const typed = { [NAME]: { ...test, transaction: { ...test.transaction, maxFeePerGas: '0x0a', maxPriorityFeePerGas: '0x01' } } }
    expect(() => buildCase(typed, { file: FILE, test: NAME, fork: 'Cancun', index: 0 })).toThrow(/txbytes are of type 0.*type 2/)
    const unknown = { [NAME]: { ...test, post: { Olympic: [post({ data: 0, gas: 0, value: 0 })] } } }
    expect(() => buildCase(unknown, { file: FILE, test: NAME, fork: 'Olympic', index: 0 })).toThrow(FixtureError)
    const outside = { [NAME]: { ...test, post: { Cancun: [post({ data: 2, gas: 0, value: 0 })] } } }
    expect(() => buildCase(outside, { file: FILE, test: NAME, fork: 'Cancun', index: 0 })).toThrow(/indexes.data 2/)
  })
})
