import { describe, expect, it } from 'vitest'
import { Fork } from '../chain/evmFork.js'
import { hexToBytes } from '../util/hex.js'
import type { PlainAccount } from '../state/accountsRoot.js'
import type { BlockEnv } from './env.js'
import { Evm, EvmAbortedError } from './interpreter.js'
import { MapStateSource } from './mapState.js'
import { precompileAt } from './precompiles/index.js'
import { WorldState } from './state.js'
import { applyTransaction, type EvmTransaction } from './transaction.js'

// What eth_call and its kin ask of the EVM beyond a block's transactions: a deadline the loop keeps itself, precompiles
// moved by an override, geth's call rules (no nonce or EIP-3607 checks, no fee without fee fields), state overrides
// and geth's words for each halt.

const SENDER = 0xa11cen
const CONTRACT = 0xc0den
const COINBASE = 0xc0ffeen
const block: BlockEnv = {
  coinbase: COINBASE,
  number: 1n,
  timestamp: 1000n,
  gasLimit: 30_000_000n,
  prevRandao: 0n,
  difficulty: 0n,
  baseFee: 0n,
  blobBaseFee: 1n,
  chainId: 1n,
  blockHash: () => 0n,
}
const account = (code = '0x', balance = 10n ** 30n, nonce = 0n): PlainAccount => ({ nonce, balance, code: hexToBytes(code), storage: new Map() })

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
    maxFeePerGas: 0n,
    maxPriorityFeePerGas: 0n,
    accessList: [],
    maxFeePerBlobGas: 0n,
    blobHashes: [],
    authorizations: [],
    ...over,
  }
}

function evmOver(accounts: [bigint, PlainAccount][], options: Partial<ConstructorParameters<typeof Evm>[0]> = {}) {
  const state = new WorldState(new MapStateSource(accounts))
  return new Evm({ fork: Fork.osaka, block, state, ...options })
}

describe('the EVM for calls', () => {
  it('stops a loop at its deadline by itself', () => {
    // JUMPDEST PUSH1 0 JUMP: forever, until the gas runs out.
    const evm = evmOver([[CONTRACT, account('0x5b600056', 0n)]], { deadline: performance.now() + 20 })
    expect(() => applyTransaction(evm, tx({ gasLimit: 1_000_000_000n }), { maxBlobsPerBlock: 6 }, { call: true })).toThrow(EvmAbortedError)
  })

  it('runs a moved precompile at its new address, cold, and leaves its old one without it', () => {
    const moves = new Map([
      [2n, undefined],
      [0x1234n, precompileAt(2n, Fork.osaka)],
    ])
    // STATICCALL(GAS, 0x1234, 0, 0, 0, 32) then RETURN the 32 bytes: sha256 of nothing.
    const code = '0x602060006000600061123460fffa5060206000f3'
    const evm = evmOver([[CONTRACT, account(code, 0n)]], { precompileMoves: moves })
    const out = applyTransaction(evm, tx({}), { maxBlobsPerBlock: 6 }, { call: true })
    expect(Buffer.from(out.output).toString('hex')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855')
    const atOld = evmOver([[CONTRACT, account(code.replace('611234', '610002'), 0n)]], { precompileMoves: moves })
    const old = applyTransaction(atOld, tx({}), { maxBlobsPerBlock: 6 }, { call: true })
    expect(Buffer.from(old.output).toString('hex')).toBe('00'.repeat(32))
  })

  it('calls from an account with code and any nonce, and pays no fee without fee fields', () => {
    const evm = evmOver([[SENDER, account('0x00', 0n, 5n)]])
    const out = applyTransaction(evm, tx({ nonce: 0n }), { maxBlobsPerBlock: 6 }, { call: true })
    expect(out.status).toBe(0)
    evm.state.endTransaction()
    expect(evm.state.get(COINBASE).exists).toBe(false)
    // As a transaction, the same is refused (EIP-3607).
    const asTx = evmOver([[SENDER, account('0x00', 10n ** 18n)]])
    expect(() => applyTransaction(asTx, tx({}), { maxBlobsPerBlock: 6 })).toThrow(/sender not an eoa/)
  })

  it("says geth's words for a halt", () => {
    const halt = (code: string) => applyTransaction(evmOver([[CONTRACT, account(code, 0n)]]), tx({}), { maxBlobsPerBlock: 6 }, { call: true }).error
    expect(halt('0xfe')).toBe('invalid opcode: INVALID')
    expect(halt('0xef')).toBe('invalid opcode: opcode 0xef not defined')
    expect(halt('0x01')).toBe('stack underflow (0 <=> 2)')
    expect(halt('0x600056')).toBe('invalid jump destination')
    expect(halt(`0x${'5f'.repeat(1025)}`)).toBe('stack limit reached 1024 (1023)')
  })

  it('overrides an account between transactions: balance, code, the whole storage or some slots', () => {
    const evm = evmOver([
      [
        CONTRACT,
        {
          ...account('0x', 0n),
          storage: new Map([
            [1n, 5n],
            [2n, 6n],
          ]),
        },
      ],
    ])
    const state = evm.state
    // SLOAD(1) + SLOAD(2), returned.
    state.override(CONTRACT, { code: hexToBytes('0x60015460025401600052602060' + '00f3'), storage: new Map([[2n, 7n]]) })
    const out = applyTransaction(evm, tx({}), { maxBlobsPerBlock: 6 }, { call: true })
    expect(BigInt(`0x${Buffer.from(out.output).toString('hex')}`)).toBe(7n)
    state.endTransaction()
    state.override(CONTRACT, { storageDiff: new Map([[1n, 1n]]) })
    const again = applyTransaction(evm, tx({}), { maxBlobsPerBlock: 6 }, { call: true })
    expect(BigInt(`0x${Buffer.from(again.output).toString('hex')}`)).toBe(8n)
  })
})
