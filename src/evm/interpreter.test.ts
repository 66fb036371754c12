import { describe, expect, it } from 'vitest'
import { Fork } from '../chain/evmFork.js'
import { hexToBytes } from '../util/hex.js'
import type { BlockEnv } from './env.js'
import type { EvmTracer } from './tracer.js'
import { Evm } from './interpreter.js'
import type { PlainAccount } from '../state/accountsRoot.js'
import { MapStateSource } from './mapState.js'
import { WorldState } from './state.js'
import { applyTransaction, type EvmTransaction } from './transaction.js'

// Behaviours the state tests found wrong in the first cut, pinned here where a reader looks for them.

const SENDER = 0xa11cen
const CONTRACT = 0xc0den
const block: BlockEnv = {
  coinbase: 0xc0ffeen,
  number: 1n,
  timestamp: 1000n,
  gasLimit: 1n << 62n,
  prevRandao: 0n,
  difficulty: 0n,
  baseFee: 7n,
  blobBaseFee: 1n,
  chainId: 1n,
  blockHash: () => 0n,
}
const account = (code = '0x', balance = 10n ** 30n): PlainAccount => ({ nonce: 0n, balance, code: hexToBytes(code), storage: new Map() })

function tx(over: Partial<EvmTransaction>): EvmTransaction {
  return {
    type: 2,
    sender: SENDER,
    to: CONTRACT,
    nonce: 0n,
    gasLimit: 1_000_000n,
    value: 0n,
    data: new Uint8Array(),
    gasPrice: 0n,
    maxFeePerGas: 10n,
    maxPriorityFeePerGas: 1n,
    accessList: [],
    maxFeePerBlobGas: 0n,
    blobHashes: [],
    authorizations: [],
    ...over,
  }
}

function run(fork: Fork, code: string, t: Partial<EvmTransaction>, tracer?: EvmTracer) {
  const state = new WorldState(
    new MapStateSource([
      [SENDER, account()],
      [CONTRACT, account(code, 0n)],
    ]),
  )
  const out = applyTransaction(new Evm({ fork, block, state, tracer }), tx(t), { maxBlobsPerBlock: 6 })
  state.endTransaction()
  return { out, state }
}

describe('the interpreter', () => {
  it('gives a create no call data: CALLDATASIZE is 0 in init code', () => {
    // CALLDATASIZE PUSH1 1 ADD PUSH1 0 SSTORE STOP
    const { out, state } = run(Fork.cancun, '0x', { to: undefined, data: hexToBytes('0x3660010160005500') })
    expect(out.status).toBe(0)
    const created = state.get(out.created!)
    expect(state.getStorage(created, 0n)).toBe(1n)
  })

  it('keeps GAS exact for a gas limit past 2^53 (older forks allow up to 2^64)', () => {
    const gasLimit = (1n << 60n) + 12345n
    // GAS PUSH1 0 SSTORE STOP
    const { state } = run(Fork.cancun, '0x5a60005500', { type: 0, gasLimit, gasPrice: 7n, maxFeePerGas: 7n, maxPriorityFeePerGas: 7n })
    // The transaction's 21,000, then GAS's own 2.
    expect(state.getStorage(state.get(CONTRACT), 0n)).toBe(gasLimit - 21000n - 2n)
  })

  it('stops a frame whose memory would pass 2^32 bytes as out of gas, even with the gas to pay for it', () => {
    // PUSH1 1 PUSH4 0xffffffff MSTORE: memory to 2^32 + 31 bytes, about 2^45 gas, which a 2^60-gas transaction has.
    const { out } = run(Fork.berlin, '0x600163ffffffff52', { type: 0, gasLimit: 1n << 60n, gasPrice: 7n, maxFeePerGas: 7n, maxPriorityFeePerGas: 7n })
    expect([out.status, out.error]).toEqual([2, 'out of gas'])
  })

  it("undoes a reverted frame's storage writes", () => {
    // PUSH1 1 PUSH1 0 SSTORE PUSH1 0 PUSH1 0 REVERT
    const { out, state } = run(Fork.prague, '0x600160005560006000fd', {})
    expect(out.status).toBe(1)
    expect(state.getStorage(state.get(CONTRACT), 0n)).toBe(0n)
  })

  it('tells a state observer each account and slot read from the source, once', () => {
    const state = new WorldState(
      new MapStateSource([
        [SENDER, account()],
        [CONTRACT, account('0x600054600054', 0n)],
      ]),
    )
    const reads: string[] = []
    state.observer = {
      onAccountRead: (a, found) => void reads.push(`account ${a.toString(16)} ${found === undefined ? 'absent' : 'found'}`),
      onStorageRead: (a, slot, v) => void reads.push(`slot ${a.toString(16)}[${slot}] = ${v}`),
    }
    // PUSH1 0 SLOAD PUSH1 0 SLOAD: the second read is the cache's.
    applyTransaction(new Evm({ fork: Fork.cancun, block, state }), tx({}), { maxBlobsPerBlock: 6 })
    expect(reads).toEqual(['account a11ce found', 'account c0de found', 'slot c0de[0] = 0', 'account c0ffee absent'])
  })

  it("halts a call to a failing precompile with the precompile's words", () => {
    // A value transfer to BLAKE2F with no input: its length refused, as geth says it.
    const blake = run(Fork.osaka, '0x', { to: 9n, value: 1n })
    expect([blake.out.status, blake.out.error]).toEqual([2, 'invalid input length'])
    expect(blake.state.get(9n).balance).toBe(0n) // the transfer reverted with the call
    // Too little gas for BN254's addition: plain out of gas.
    const add = run(Fork.osaka, '0x', { to: 6n, gasLimit: 21000n + 149n })
    expect([add.out.status, add.out.error]).toEqual([2, 'out of gas'])
    // From inside a contract, passing on the wei it was given: the CALL's own result carries it (CALL(GAS, 9, 1, 0, 0, 0, 0)).
    const errors: (string | undefined)[] = []
    const tracer: EvmTracer = { onExit: (msg, r) => void (msg.depth === 1 && errors.push(r.error)) }
    run(Fork.osaka, '0x6000600060006000600160095af100', { value: 1n }, tracer)
    expect(errors).toEqual(['invalid input length'])
  })

  it('runs 1,024 nested calls without growing the JavaScript stack', () => {
    // A contract that calls itself with all its gas: CALL(GAS, ADDRESS, 0, 0, 0, 0, 0), STOP. The call from depth
    // 1,024 is refused, so every level returns.
    let deepest = 0
    const tracer: EvmTracer = { onEnter: (msg) => void (deepest = Math.max(deepest, msg.depth)) }
    const { out } = run(Fork.cancun, '0x60006000600060006000305af100', { gasLimit: 1n << 40n }, tracer)
    expect(out.status).toBe(0)
    expect(deepest).toBe(1025)
  })
})
