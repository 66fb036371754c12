import { keccak_256 } from '@noble/hashes/sha3.js'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LOOP_FOREVER, REVERT_NOPE, assemble } from '../../testing/asm.js'
import { devAccounts } from '../../chain/dev.js'
import { laneTakes, movableClock } from '../../testing/lane.js'
import { type TestNode, devGenesisWith, startTestNode } from '../../testing/testNode.js'
import { uint256 as w32, leftAligned as word } from '../../testing/words.js'
import { hexToBytes } from '../../util/hex.js'
import { revertReason } from '../../tracers/revertReason.js'

// Contracts in the genesis, each doing one thing a call must report as geth does.
const SLOT0 = '0x00000000000000000000000000000000000c0001' // returns storage slot 0
const NUMBER = '0x00000000000000000000000000000000000c0002' // returns NUMBER
const ERROR = '0x00000000000000000000000000000000000c0003' // reverts with Error("nope")
const PANIC = '0x00000000000000000000000000000000000c0004' // reverts with Panic(1)
const EMPTY = '0x00000000000000000000000000000000000c0005' // reverts with no data
const LOOP = '0x00000000000000000000000000000000000c0006' // loops until out of gas
const WRITER = '0x00000000000000000000000000000000000c0007' // SSTORE(1, CALLVALUE + 1), returns SLOAD(0)
const RECOVER_LOOP = '0x00000000000000000000000000000000000c0008' // calls the ecrecover precompile until out of gas

// A real signature, so each precompile call spends its time in the native secp256k1 binding.
const DIGEST = keccak_256(new TextEncoder().encode('sponge'))
const SIG = secp256k1.sign(DIGEST, hexToBytes(devAccounts()[0]!.privateKey), { prehash: false, format: 'recovered' })
const sigWord = (from: number) => word(Buffer.from(SIG.subarray(from, from + 32)).toString('hex'))
const CODE: Record<string, string> = {
  [SLOT0]: assemble(['0x00', 'SLOAD', '0x00', 'MSTORE', '0x20', '0x00', 'RETURN']),
  [NUMBER]: assemble(['NUMBER', '0x00', 'MSTORE', '0x20', '0x00', 'RETURN']),
  [ERROR]: assemble(REVERT_NOPE),
  [PANIC]: assemble([word('4e487b71'), '0x00', 'MSTORE', word('00000001'), '0x20', 'MSTORE', '0x24', '0x00', 'REVERT']),
  [EMPTY]: assemble(['0x00', '0x00', 'REVERT']),
  [LOOP]: LOOP_FOREVER,
  [WRITER]: assemble(['CALLVALUE', '0x01', 'ADD', '0x01', 'SSTORE', '0x00', 'SLOAD', '0x00', 'MSTORE', '0x20', '0x00', 'RETURN']),
  [RECOVER_LOOP]: assemble([
    word(Buffer.from(DIGEST).toString('hex')),
    '0x00',
    'MSTORE',
    `0x${(27 + SIG[0]!).toString(16)}` as const,
    '0x20',
    'MSTORE',
    sigWord(1),
    '0x40',
    'MSTORE',
    sigWord(33),
    '0x60',
    'MSTORE',
    { label: 'top' },
    '0x20',
    '0x80',
    '0x80',
    '0x00',
    '0x01',
    'GAS',
    'STATICCALL',
    'POP',
    { target: 'top' },
    'JUMP',
  ]),
}

/** A node with the contracts above; the time limit and the gas cap are the defaults unless given. */
async function startCallNode(evmTimeoutMs?: number, gasCap = 4_000_000_000n, httpThreads?: number): Promise<TestNode> {
  // Prague, not Osaka: without EIP-7825's cap a call may have the gas the timeout tests need.
  const genesis = devGenesisWith(CODE, { storage: { [`0x${'00'.repeat(32)}`]: `0x${'00'.repeat(31)}2a` }, beforeOsaka: true })
  const node = await startTestNode({ genesis, evmTimeoutMs, gasCap, ...(httpThreads === undefined ? {} : { httpThreads }) })
  // The worker loads EthereumJS first: the timeout is for calls, not for that.
  await node.http('eth_getBalance', [`0x${'00'.repeat(20)}`])
  return node
}

let n: TestNode
beforeAll(async () => {
  n = await startCallNode()
})
afterAll(async () => {
  await n.close()
})

const from = devAccounts()[0]!.address
const err = (r: { error?: { code: number; message: string; data?: unknown } }) => r.error

describe('eth_call', () => {
  it('returns what the contract returns, at latest by default and at a given block', async () => {
    expect(await n.http('eth_call', [{ to: SLOT0 }])).toMatchObject({ result: w32(42) })
    expect((await n.http('eth_call', [{ to: SLOT0, input: '0x' }, '0x0'])).result).toBe(w32(42))
    const hash = (await n.http<{ hash: string }>('eth_getBlockByNumber', ['0x0', false])).result!.hash
    expect((await n.http('eth_call', [{ to: SLOT0 }, { blockHash: hash }])).result).toBe(w32(42))
    // A plain account returns nothing.
    expect((await n.http('eth_call', [{ from, to: devAccounts()[1]!.address, value: '0x1' }])).result).toBe('0x')
  })

  it('keeps reads between calls, never a write: each call sees the block’s state and its own overrides only', async () => {
    const readSlot1 = assemble(['0x01', 'SLOAD', '0x00', 'MSTORE', '0x20', '0x00', 'RETURN'])
    const slot1 = (overrides: object = {}) => n.http('eth_call', [{ to: WRITER }, 'latest', { [WRITER]: { code: readSlot1, ...overrides } }])
    expect((await slot1()).result).toBe(w32(0))
    // WRITER stores CALLVALUE + 1 at slot 1 in its call; the next call must not see it.
    expect((await n.http('eth_call', [{ from, to: WRITER, value: '0x5' }])).result).toBe(w32(42))
    expect((await slot1()).result).toBe(w32(0))
    expect((await slot1({ stateDiff: { [w32(1)]: w32(7) } })).result).toBe(w32(7))
    expect((await slot1({ state: { [w32(2)]: w32(9) } })).result).toBe(w32(0))
    expect((await n.http('eth_call', [{ to: SLOT0 }, 'latest', { [SLOT0]: { state: {} } }])).result).toBe(w32(0))
    expect((await n.http('eth_call', [{ to: SLOT0 }])).result).toBe(w32(42))
    expect((await slot1()).result).toBe(w32(0))
  })

  it('runs a call from an account with code, as geth does (no EIP-3607 for calls), and leaves its code alone', async () => {
    expect(await n.http('eth_call', [{ from: NUMBER, to: SLOT0 }])).toMatchObject({ result: w32(42) })
    expect((await n.http('eth_estimateGas', [{ from: NUMBER, to: devAccounts()[1]!.address }])).result).toBe('0x5208')
    expect((await n.http<string>('eth_getCode', [NUMBER])).result).toBe(CODE[NUMBER])
  })

  it('answers a revert as geth: 3 with the data and the decoded reason, -32000 when there is no data', async () => {
    const e = err(await n.http('eth_call', [{ to: ERROR }]))!
    expect(e.code).toBe(3)
    expect(e.message).toBe('execution reverted: nope')
    expect(revertReason(Buffer.from((e.data as string).slice(2), 'hex'))).toBe('nope')
    expect(err(await n.http('eth_call', [{ to: PANIC }]))).toMatchObject({ code: 3, message: 'execution reverted: assert(false)' })
    expect(err(await n.http('eth_call', [{ to: EMPTY }]))).toMatchObject({ code: -32000, message: 'execution reverted' })
    expect(err(await n.http('eth_call', [{ to: LOOP, gas: '0x186a0' }]))).toMatchObject({ code: -32000, message: 'out of gas' })
  })

  it('applies state and block overrides for the call only', async () => {
    const storage = { stateDiff: { [w32(0)]: w32(7) } }
    expect((await n.http('eth_call', [{ to: SLOT0 }, 'latest', { [SLOT0]: storage }])).result).toBe(w32(7))
    const code = { code: CODE[SLOT0], state: { [w32(0)]: w32(9) } }
    expect((await n.http('eth_call', [{ to: NUMBER }, 'latest', { [NUMBER]: code }])).result).toBe(w32(9))
    expect((await n.http('eth_call', [{ to: NUMBER }, 'latest', null, { number: '0x539' }])).result).toBe(w32(0x539))
    expect((await n.http('eth_call', [{ to: SLOT0 }])).result).toBe(w32(42))
    // Value beyond the balance is refused; an override of the balance lets it through.
    const poor = `0x${'99'.repeat(20)}`
    expect(err(await n.http('eth_call', [{ from: poor, to: WRITER, value: '0x10' }]))).toMatchObject({ code: -32000 })
    expect((await n.http('eth_call', [{ from: poor, to: WRITER, value: '0x10' }, 'latest', { [poor]: { balance: '0x100' } }])).result).toBe(w32(42))
  })

  it('moves a precompile for the call (movePrecompileToAddress), so its address can run other code', async () => {
    const sha256 = '0x0000000000000000000000000000000000000002'
    const moved = '0x0000000000000000000000000000000000001234'
    const digest = '0xe3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'
    expect((await n.http('eth_call', [{ to: sha256 }])).result).toBe(digest)
    const overrides = { [sha256]: { movePrecompileToAddress: moved, code: CODE[NUMBER] } }
    expect((await n.http('eth_call', [{ to: moved }, 'latest', overrides])).result).toBe(digest)
    expect((await n.http('eth_call', [{ to: sha256 }, 'latest', overrides])).result).toBe(w32(0))
    expect((await n.http('eth_call', [{ to: sha256 }])).result).toBe(digest)
    expect(err(await n.http('eth_call', [{ to: SLOT0 }, 'latest', { [SLOT0]: { movePrecompileToAddress: moved } }]))).toMatchObject({ code: -32000 })
  })

  it('refuses bad call objects and unknown blocks as geth does', async () => {
    expect(err(await n.http('eth_call', [{ to: SLOT0, input: '0x01', data: '0x02' }]))?.code).toBe(-32602)
    expect(err(await n.http('eth_call', [{ to: SLOT0, gasPrice: '0x1', maxFeePerGas: '0x1' }]))?.code).toBe(-32602)
    expect(err(await n.http('eth_call', [{ to: SLOT0 }, '0x99']))).toMatchObject({ code: -32000, message: 'header not found' })
    expect(err(await n.http('eth_call', [{ to: SLOT0 }, 'latest', { '0x12': { balance: '0x1' } }]))?.code).toBe(-32602)
    expect(err(await n.http('eth_call', [{ to: 'nope' }]))?.code).toBe(-32602)
  })
})

describe('eth_estimateGas', () => {
  it('is 21000 for a transfer, and enough (but not much more) for a contract call', async () => {
    expect((await n.http('eth_estimateGas', [{ from, to: devAccounts()[1]!.address, value: '0x1' }])).result).toBe('0x5208')
    const estimate = BigInt((await n.http<string>('eth_estimateGas', [{ from, to: WRITER, value: '0x1' }])).result!)
    expect(estimate).toBeGreaterThan(21_000n + 20_000n)
    expect((await n.http('eth_call', [{ from, to: WRITER, value: '0x1', gas: `0x${estimate.toString(16)}` }])).result).toBe(w32(42))
    const less = ((estimate * 97n) / 100n).toString(16)
    expect(err(await n.http('eth_call', [{ from, to: WRITER, value: '0x1', gas: `0x${less}` }]))?.code).toBe(-32000)
  })

  it('answers a revert as eth_call does, and says when no allowed gas suffices', async () => {
    expect(err(await n.http('eth_estimateGas', [{ from, to: ERROR }]))).toMatchObject({ code: 3, message: 'execution reverted: nope' })
    expect(err(await n.http('eth_estimateGas', [{ from, to: LOOP, gas: '0x30d40' }]))).toMatchObject({
      code: -32000,
      message: 'gas required exceeds allowance (200000)',
    })
  })
})

describe('eth_createAccessList', () => {
  it('lists the slots the call touches and the gas it uses with them', async () => {
    const r = (
      await n.http<{ accessList: { address: string; storageKeys: string[] }[]; gasUsed: string; error?: string }>('eth_createAccessList', [
        { from, to: WRITER },
      ])
    ).result!
    expect(r.accessList).toEqual([{ address: WRITER, storageKeys: [w32(0), w32(1)] }])
    expect(BigInt(r.gasUsed)).toBeGreaterThan(21_000n)
    expect(r.error).toBeUndefined()
    const failing = (await n.http<{ error?: string }>('eth_createAccessList', [{ from, to: ERROR }])).result!
    expect(failing.error).toBe('execution reverted: nope')
  })
})

// The time limit on its own node. Its limit is one no ordinary call comes near on any machine; the runaway calls
// have 2^62 gas, which no machine spends before the assertions (years). Their time is made to run out by moving
// this thread's clock (the one the lane's watchdog reads) past their deadline once the lane has taken them: the
// outcome does not depend on how fast anything runs.
describe('--rpc.evmtimeout', () => {
  const LIMIT_MS = 600_000
  const RUNAWAY_GAS = '0x4000000000000000'
  const ABORTED = { code: -32000, message: 'execution aborted (timeout = 10m0s)' }
  const zero = `0x${'00'.repeat(20)}`
  let limited: TestNode
  let clock: ReturnType<typeof movableClock>
  beforeAll(async () => {
    // One thread serving the port: the lane watched and the clock moved are this thread's.
    limited = await startCallNode(LIMIT_MS, 2n ** 62n, 1)
    clock = movableClock()
  })
  afterAll(async () => {
    clock.restore()
    await limited.close()
  })

  /** `send` starts a request holding a runaway call; once the lane has taken the call, its time runs out. */
  async function outOfTime<T>(send: () => Promise<T>): Promise<T> {
    const taken = laneTakes(limited.node.lanes.public, 'call')
    const reply = send()
    await taken
    clock.pass(LIMIT_MS)
    return reply
  }

  it('stops a call that runs past --rpc.evmtimeout, and keeps serving', async () => {
    expect(err(await outOfTime(() => limited.http('eth_call', [{ to: LOOP, gas: RUNAWAY_GAS }])))).toEqual(ABORTED)
    // The stopped worker is replaced; a state read (no time limit) waits for the new one to load.
    expect((await limited.http('eth_getBalance', [zero])).result).toBe('0x0')
    expect((await limited.http('eth_call', [{ to: SLOT0 }])).result).toBe(w32(42))
  })

  it('stops calls that spend their time in native code (the ecrecover precompile), and keeps serving', async () => {
    // The worker is stopped between native calls, never inside one (workers/nativeStop.test.ts shows why); a
    // precompile call refused on the way is not taken for an answer.
    for (let i = 0; i < 3; i++) {
      expect(err(await outOfTime(() => limited.http('eth_call', [{ to: RECOVER_LOOP, gas: RUNAWAY_GAS }])))).toEqual(ABORTED)
      // The replacement worker loads EthereumJS before it takes a call: a state read waits for it.
      expect((await limited.http('eth_getBalance', [zero])).result).toBe('0x0')
    }
    expect((await limited.http('eth_call', [{ to: SLOT0 }])).result).toBe(w32(42))
  })

  it('answers the calls that shared a stopped worker: state reads run again, a runaway call times out', async () => {
    // One body, one turn: the three go to the worker as one task, and the worker is stopped in the middle of it.
    const { replies } = await outOfTime(() =>
      limited.batch<string>([
        ['eth_getBalance', [zero, 'latest']],
        ['eth_call', [{ to: LOOP, gas: RUNAWAY_GAS }]],
        ['eth_getBalance', [zero, 'latest']],
      ]),
    )
    expect(replies.map((r) => r.result ?? r.error)).toEqual(['0x0', ABORTED, '0x0'])
  })
})
