import { describe, expect, it } from 'vitest'
import { Fork, forkByName } from '../chain/evmFork.js'
import type { PlainAccount } from '../state/accountsRoot.js'
import { hexToBytes } from '../util/hex.js'
import type { BlockEnv } from './env.js'
import { Status } from './frame.js'
import { Evm } from './interpreter.js'
import { MapStateSource } from './mapState.js'
import { WorldState } from './state.js'
import { applyTransaction, type EvmTransaction, intrinsicGas } from './transaction.js'

// What each fork before Berlin changed, one behaviour a test, as the legacy state tests (Frontier … Istanbul) check
// them in bulk: gas prices, the opcodes each fork adds, EIP-150's call gas, EIP-161's empty accounts, the metering of
// SSTORE, the code deposit, the intrinsic gas.

const SENDER = 0xa11cen
const CONTRACT = 0xc0den
const OTHER = 0xbeefn
const block: BlockEnv = {
  coinbase: 0xc0ffeen,
  number: 1n,
  timestamp: 1000n,
  gasLimit: 30_000_000n,
  prevRandao: 0n,
  difficulty: 0x20000n,
  baseFee: 0n,
  blobBaseFee: 0n,
  chainId: 1n,
  blockHash: () => 0n,
}
const account = (code = '0x', balance = 10n ** 30n): PlainAccount => ({ nonce: 0n, balance, code: hexToBytes(code), storage: new Map() })

function tx(over: Partial<EvmTransaction>): EvmTransaction {
  return {
    type: 0,
    sender: SENDER,
    to: CONTRACT,
    nonce: 0n,
    gasLimit: 1_000_000n,
    value: 0n,
    data: new Uint8Array(),
    gasPrice: 1n,
    maxFeePerGas: 1n,
    maxPriorityFeePerGas: 1n,
    accessList: [],
    maxFeePerBlobGas: 0n,
    blobHashes: [],
    authorizations: [],
    ...over,
  }
}

/** Runs `code` at CONTRACT (with `others` beside it) as a transaction in `fork`; the state is the block's after it. */
function run(fork: Fork, code: string, t: Partial<EvmTransaction> = {}, others: [bigint, PlainAccount][] = []) {
  const state = new WorldState(new MapStateSource([[SENDER, account()], [CONTRACT, account(code, 0n)], ...others]))
  const out = applyTransaction(new Evm({ fork, block, state }), tx(t), { maxBlobsPerBlock: 0 })
  state.endTransaction()
  return { out, state }
}

/** Gas the code itself used, before refunds (the transaction's 21,000 taken off). */
function executionGas(fork: Fork, code: string, others: [bigint, PlainAccount][] = []): number {
  const { out } = run(fork, code, {}, others)
  return out.gasUsed + out.refund - 21000
}

describe('forks before Berlin', () => {
  it('maps the chain spec’s and the state tests’ names', () => {
    expect(forkByName('dao')).toBe(Fork.homestead)
    expect(forkByName('muirGlacier')).toBe(Fork.istanbul)
    expect(forkByName('EIP150')).toBe(Fork.tangerineWhistle)
    expect(forkByName('EIP158')).toBe(Fork.spuriousDragon)
    expect(forkByName('ConstantinopleFix')).toBe(Fork.petersburg)
    expect(forkByName('toString')).toBeUndefined()
  })

  it('prices SLOAD, BALANCE and EXTCODESIZE per fork (EIP-150, EIP-1884, EIP-2929 cold)', () => {
    // PUSH1 0 SLOAD STOP: 3 + SLOAD
    const sload = [Fork.frontier, Fork.tangerineWhistle, Fork.istanbul, Fork.berlin].map((f) => executionGas(f, '0x60005400') - 3)
    expect(sload).toEqual([50, 200, 800, 2100])
    // PUSH20 OTHER BALANCE STOP
    const balance = `0x73${OTHER.toString(16).padStart(40, '0')}3100`
    expect([Fork.frontier, Fork.tangerineWhistle, Fork.istanbul, Fork.berlin].map((f) => executionGas(f, balance) - 3)).toEqual([20, 400, 700, 2600])
    const extcodesize = `0x73${OTHER.toString(16).padStart(40, '0')}3b00`
    expect([Fork.homestead, Fork.istanbul].map((f) => executionGas(f, extcodesize) - 3)).toEqual([20, 700])
  })

  it('charges EXP 10 a byte of exponent until EIP-160, 50 after', () => {
    // PUSH2 0x0101 PUSH1 2 EXP STOP: 3 + 3 + 10 + bytes * per byte
    expect(executionGas(Fork.homestead, '0x61010160020a00')).toBe(6 + 10 + 2 * 10)
    expect(executionGas(Fork.spuriousDragon, '0x61010160020a00')).toBe(6 + 10 + 2 * 50)
  })

  it('brings each opcode in with its fork', () => {
    const halts = (fork: Fork, code: string) => run(fork, code).out.halt !== undefined
    const cases: [string, Fork][] = [
      ['0x6000600060006000600060006000f400', Fork.homestead], // DELEGATECALL (one operand too many: harmless)
      ['0x60006000fd', Fork.byzantium], // REVERT
      ['0x3d00', Fork.byzantium], // RETURNDATASIZE
      ['0x600060006000600060006000fa00', Fork.byzantium], // STATICCALL
      ['0x600160011b00', Fork.constantinople], // SHL
      ['0x60003f00', Fork.constantinople], // EXTCODEHASH
      ['0x6000600060006000f500', Fork.constantinople], // CREATE2
      ['0x4600', Fork.istanbul], // CHAINID
      ['0x4700', Fork.istanbul], // SELFBALANCE
      ['0x4800', Fork.london], // BASEFEE
    ]
    for (const [code, since] of cases) {
      expect(halts((since - 1) as Fork, code), `${code} before its fork`).toBe(true)
      expect(halts(since, code), `${code} in its fork`).toBe(false)
    }
  })

  it('gives a call what it asks before EIP-150, all of which must be there; all but a 64th after', () => {
    // CALL OTHER with 1,000,000 gas asked, more than the transaction has: out of gas before EIP-150.
    const call = `0x6000600060006000600073${OTHER.toString(16).padStart(40, '0')}620f4240f100`
    expect(run(Fork.homestead, call, { gasLimit: 100_000n }).out.halt).toBeDefined()
    expect(run(Fork.tangerineWhistle, call, { gasLimit: 100_000n }).out.status).toBe(Status.success)
    // OTHER spends all it gets (INVALID): before EIP-150 exactly what was asked, after it the 63/64 cap.
    const spender: [bigint, PlainAccount][] = [[OTHER, account('0xfe', 0n)]]
    const ask = `0x6000600060006000600073${OTHER.toString(16).padStart(40, '0')}61c350f100` // 50,000
    expect(run(Fork.frontier, ask, { gasLimit: 100_000n }, spender).out.gasUsed).toBe(21000 + 7 * 3 + 40 + 50000)
    const left = 100_000 - 21000 - 7 * 3 - 700
    expect(run(Fork.tangerineWhistle, ask, { gasLimit: 100_000n }, spender).out.gasUsed).toBe(
      21000 + 7 * 3 + 700 + Math.min(50000, left - Math.floor(left / 64)),
    )
  })

  it('charges a zero-value CALL to a missing account 25,000 and creates it before EIP-161; neither after', () => {
    const call = `0x6000600060006000600073${OTHER.toString(16).padStart(40, '0')}6103e8f100`
    const before = run(Fork.tangerineWhistle, call)
    expect(before.out.gasUsed).toBe(21000 + 7 * 3 + 700 + 25000)
    expect(before.state.get(OTHER).exists).toBe(true)
    const after = run(Fork.spuriousDragon, call)
    expect(after.out.gasUsed).toBe(21000 + 7 * 3 + 700)
    expect(after.state.get(OTHER).exists).toBe(false)
  })

  it('keeps touched empty accounts before EIP-161 and deletes them from it', () => {
    // A zero-value call to an empty account that exists.
    const call = `0x6000600060006000600073${OTHER.toString(16).padStart(40, '0')}6103e8f100`
    const empty: [bigint, PlainAccount][] = [[OTHER, account('0x', 0n)]]
    expect(run(Fork.tangerineWhistle, call, {}, empty).state.get(OTHER).exists).toBe(true)
    expect(run(Fork.spuriousDragon, call, {}, empty).state.get(OTHER).exists).toBe(false)
  })

  it('starts a new contract’s nonce at 0 before EIP-161, at 1 from it', () => {
    const create = { to: undefined, data: hexToBytes('0x00') }
    const nonceOf = (fork: Fork) => {
      const { out, state } = run(fork, '0x', create)
      return state.get(out.created!).nonce
    }
    expect([nonceOf(Fork.tangerineWhistle), nonceOf(Fork.spuriousDragon)]).toEqual([0n, 1n])
  })

  it('keeps a Frontier contract whose code deposit runs out of gas, without code and its gas unspent; reverts it from Homestead', () => {
    // Init code returning 100 zero bytes (PUSH1 100 PUSH1 0 RETURN: 3 + 3 + 12 for 4 words of memory): a deposit of
    // 20,000 gas, of which 100 are left.
    const init = hexToBytes('0x60646000f3')
    const data = 4 * 68 + 4
    const frontier = run(Fork.frontier, '0x', { to: undefined, data: init, gasLimit: BigInt(21000 + data + 18 + 100) })
    // The transaction failed (as geth and EthereumJS report it), but the contract stands and the gas stays unspent.
    expect([frontier.out.status, frontier.out.error]).toEqual([Status.error, 'contract creation code storage out of gas'])
    const created = frontier.state.get(frontier.out.created!)
    expect([created.exists, frontier.state.codeOf(created).length]).toEqual([true, 0])
    expect(frontier.out.gasUsed).toBe(21000 + data + 18)
    const homestead = run(Fork.homestead, '0x', { to: undefined, data: init, gasLimit: BigInt(53000 + data + 18 + 100) })
    expect([homestead.out.status, homestead.out.error]).toEqual([Status.error, 'contract creation code storage out of gas'])
  })

  it('meters SSTORE by the current value (Frontier…Byzantium, Petersburg), EIP-1283 (Constantinople), EIP-2200 (Istanbul)', () => {
    // 0 → 1 → 0 in one transaction: PUSH1 1 PUSH1 0 SSTORE PUSH1 0 PUSH1 0 SSTORE STOP
    const code = '0x600160005560006000550000'
    const cost = (fork: Fork) => {
      const { out } = run(fork, code)
      return { gas: out.gasUsed + out.refund - 21000 - 12, refund: out.refund }
    }
    expect(cost(Fork.byzantium)).toEqual({ gas: 20000 + 5000, refund: 15000 })
    expect(cost(Fork.petersburg)).toEqual({ gas: 20000 + 5000, refund: 15000 })
    expect(cost(Fork.constantinople)).toEqual({ gas: 20000 + 200, refund: 19800 })
    expect(cost(Fork.istanbul)).toEqual({ gas: 20000 + 800, refund: 19200 })
  })

  it('refuses SSTORE on the call stipend from Istanbul (EIP-2200) only', () => {
    // PUSH1 1 PUSH1 0 SSTORE with 2,300 gas left: the transaction gives exactly that much past the pushes.
    const gasLimit = BigInt(21000 + 6 + 2300)
    expect(run(Fork.petersburg, '0x6001600055', { gasLimit }).out.halt).toBeDefined() // out of gas: 20,000 needed
    expect(run(Fork.istanbul, '0x6001600055', { gasLimit }).out.error).toBe('out of gas')
    // A no-op write costs 800 in Istanbul, but the sentry refuses it all the same.
    expect(run(Fork.constantinople, '0x6000600055', { gasLimit }).out.status).toBe(Status.success)
    expect(run(Fork.istanbul, '0x6000600055', { gasLimit }).out.status).toBe(Status.error)
  })

  it('prices a transaction’s creation and data per fork (EIP-2, EIP-2028)', () => {
    const data = hexToBytes('0x0001')
    expect(intrinsicGas(tx({ to: undefined, data }), Fork.frontier).gas).toBe(21000 + 4 + 68)
    expect(intrinsicGas(tx({ to: undefined, data }), Fork.homestead).gas).toBe(53000 + 4 + 68)
    expect(intrinsicGas(tx({ data }), Fork.istanbul).gas).toBe(21000 + 4 + 16)
  })

  it('caps the refund at half the gas used before London', () => {
    // Clearing a set slot: 5,000 gas and a 15,000 refund, capped at half of 21,000 + 5,006.
    const state = new WorldState(
      new MapStateSource([
        [SENDER, account()],
        [CONTRACT, { ...account('0x6000600055', 0n), storage: new Map([[0n, 1n]]) }],
      ]),
    )
    const out = applyTransaction(new Evm({ fork: Fork.byzantium, block, state }), tx({}), { maxBlobsPerBlock: 0 })
    expect(out.refund).toBe(Math.floor((21000 + 5006) / 2))
    expect(out.gasUsed).toBe(21000 + 5006 - out.refund)
  })

  it('charges SELFDESTRUCT nothing before EIP-150, then 5,000 and 25,000 for an account it makes', () => {
    const selfdestruct = `0x73${OTHER.toString(16).padStart(40, '0')}ff`
    // The contract has no balance: before EIP-161 a missing beneficiary costs 25,000 anyway, after it only with value.
    expect(executionGas(Fork.homestead, selfdestruct)).toBe(3)
    expect(executionGas(Fork.tangerineWhistle, selfdestruct)).toBe(3 + 5000 + 25000)
    expect(executionGas(Fork.spuriousDragon, selfdestruct)).toBe(3 + 5000)
  })

  it('has the precompiles of each fork at their prices (EIP-196 and EIP-1108, EIP-198 and EIP-2565)', () => {
    // CALL 0x06 (BN254 add) with no input and 100,000 gas; the precompile's gas is what the call used past 700.
    const add = '0x600060006000600060006006620186a0f100'
    const used = (fork: Fork) => run(fork, add).out.gasUsed - 21000 - 7 * 3 - 700
    expect(used(Fork.spuriousDragon)).toBe(0) // no precompile: an empty account, nothing run
    expect(used(Fork.byzantium)).toBe(500)
    expect(used(Fork.istanbul)).toBe(150)
    // MODEXP of 1^1 mod 1, one-byte operands: EIP-198's floor(1 * 1 / 20) = 0, EIP-2565's minimum 200; and the
    // CALL itself 700 in Istanbul, 100 in Berlin (a precompile is warm).
    const input = `${'01'.padStart(64, '0').repeat(3)}010101`
    const operands = '010101'.padEnd(64, '0')
    const store = (word: string, at: string) => `7f${word}60${at}52`
    const modexp = `0x${store(input.slice(0, 64), '00')}${store(input.slice(64, 128), '20')}${store(input.slice(128, 192), '40')}${store(operands, '60')}600060006063600060006005620186a0f100`
    const modexpGas = (fork: Fork) => run(fork, modexp).out.gasUsed - 21000
    expect(modexpGas(Fork.berlin) - modexpGas(Fork.istanbul)).toBe(200 - 0 + (100 - 700))
  })
})
