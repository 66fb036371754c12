import { RLP } from '@ethereumjs/rlp'
import { bigIntToUnpaddedBytes } from '@ethereumjs/util'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { describe, expect, it } from 'vitest'
import { Fork } from '../chain/evmFork.js'
import { keccak256 } from '../crypto/keccak.js'
import type { Authorization } from '../evm/authorization.js'
import { createAddress, createAddress2 } from '../evm/interpreter.js'
import { addressToBytes, bytesToWord } from '../evm/words.js'
import { type Item, assemble } from '../testing/asm.js'
import { uint256 as word } from '../testing/words.js'
import { bytesToHex, hexToBytes, toQuantity } from '../util/hex.js'
import { addressHex as hex } from './format.js'
import { type PrestateMap, PrestateTracer, type PrestateTracerOptions } from './prestateTracer.js'
import { COINBASE, CONTRACT, OTHER, SENDER, THIRD, account, traced } from './testEvm.js'

// The prestate tracer against replies worked out from geth's prestateTracer (eth/tracers/native/prestate.go): which
// accounts and slots count, as they were when first touched, and diffMode's post and pre.

const push20 = (a: bigint) => `0x${a.toString(16).padStart(40, '0')}` as const
const code = (...parts: string[]) => `0x${parts.map((p) => p.replace(/^0x/, '')).join('')}`
const codeHash = (c: string) => bytesToHex(keccak256(hexToBytes(c)))
const FUNDS = 10n ** 24n

// SSTORE(5, 42); STATICCALL a contract returning its slot 0 (42); LOG1 of it; return it (src/rpc/methods/trace.test.ts).
const SLOT0 = assemble(['0x00', 'SLOAD', '0x00', 'MSTORE', '0x20', '0x00', 'RETURN'])
const CALLER = assemble([
  '0x2a',
  '0x05',
  'SSTORE',
  '0x20',
  '0x00',
  '0x00',
  '0x00',
  push20(OTHER),
  'GAS',
  'STATICCALL',
  'POP',
  '0xbeef',
  '0x20',
  '0x00',
  'LOG1',
  '0x20',
  '0x00',
  'RETURN',
])
const ACCOUNTS: Parameters<typeof traced>[0] = [
  [CONTRACT, account(CALLER)],
  [OTHER, account(SLOT0, { storage: [[0n, 42n]] })],
]

type Args = [accounts: Parameters<typeof traced>[0], over?: Parameters<typeof traced>[2], o?: Parameters<typeof traced>[3]]

/** The prestate of a traced run (not diffMode). */
function prestate(options: PrestateTracerOptions, ...[accounts, over = {}, o = {}]: Args): PrestateMap {
  const r = traced(accounts, new PrestateTracer(options), over, o).result
  if ('post' in r) throw new Error('diffMode')
  return r
}

/** diffMode's post and pre of a traced run. */
function diffOf(options: PrestateTracerOptions, ...[accounts, over = {}, o = {}]: Args): { post: PrestateMap; pre: PrestateMap } {
  const r = traced(accounts, new PrestateTracer({ ...options, diffMode: true }), over, o).result
  if (!('post' in r)) throw new Error('not diffMode')
  return r as { post: PrestateMap; pre: PrestateMap }
}

describe('the prestate tracer', () => {
  it('gives every account the transaction touched as it was, with the slots it read or wrote', () => {
    expect(prestate({}, ACCOUNTS)).toEqual({
      // The sender: no nonce yet (geth leaves a zero out).
      [hex(SENDER)]: { balance: toQuantity(FUNDS) },
      [hex(CONTRACT)]: { balance: '0x0', code: CALLER, codeHash: codeHash(CALLER), storage: { [word(5)]: word(0) } },
      [hex(OTHER)]: { balance: '0x0', code: SLOT0, codeHash: codeHash(SLOT0), storage: { [word(0)]: word(42) } },
      // The coinbase is touched too, but was empty: left out.
    })
  })

  it("with diffMode, what changed: post's new values, pre's old ones", () => {
    expect(diffOf({}, ACCOUNTS)).toEqual({
      post: { [hex(SENDER)]: { nonce: 1 }, [hex(CONTRACT)]: { storage: { [word(5)]: word(42) } } },
      // Slot 5 held nothing: not in pre. OTHER was only read.
      pre: { [hex(SENDER)]: { balance: toQuantity(FUNDS) }, [hex(CONTRACT)]: { balance: '0x0', code: CALLER, codeHash: codeHash(CALLER) } },
    })
  })

  it('counts the fee and the coinbase, and keeps an empty account on request', () => {
    const paying = diffOf({}, ACCOUNTS, { maxFeePerGas: 10n, maxPriorityFeePerGas: 2n }, { asTransaction: true, block: { baseFee: 1n } })
    expect(paying.post[hex(COINBASE)]).toEqual({ balance: expect.stringMatching(/^0x[0-9a-f]+$/) })
    expect(paying.pre[hex(COINBASE)]).toBeUndefined()
    expect(prestate({ includeEmpty: true }, ACCOUNTS)[hex(COINBASE)]).toEqual({ balance: '0x0' })
  })

  it('leaves out code and storage when asked', () => {
    const pre = prestate({ disableCode: true, disableStorage: true }, ACCOUNTS)
    expect(pre[hex(CONTRACT)]).toEqual({ balance: '0x0', codeHash: codeHash(CALLER) })
    const diff = diffOf({ disableStorage: true }, ACCOUNTS)
    // Nothing but the storage changed at the contract: with storage left out, it did not change.
    expect(diff.post[hex(CONTRACT)]).toBeUndefined()
  })

  it('counts the addresses opcodes name, but not one whose opcode ran out of gas before it looked', () => {
    const balanceOf = (a: bigint): Item[] => [push20(a), 'BALANCE', 'POP']
    const program = assemble([...balanceOf(THIRD), ...balanceOf(OTHER), 'STOP'])
    const accounts: Parameters<typeof traced>[0] = [
      [CONTRACT, account(program)],
      [OTHER, account('0x', { balance: 1n })],
      [THIRD, account('0x', { balance: 2n })],
    ]
    const all = prestate({}, accounts)
    expect(all[hex(THIRD)]).toEqual({ balance: '0x2' })
    expect(all[hex(OTHER)]).toEqual({ balance: '0x1' })
    // Gas for the first BALANCE (3 + 2,600 + 2) and the second PUSH20, not the second BALANCE's cold 2,600.
    const short = prestate({}, accounts, { gasLimit: 21_000n + 2605n + 3n + 100n })
    expect(short[hex(THIRD)]).toEqual({ balance: '0x2' })
    expect(short[hex(OTHER)]).toBeUndefined()
  })

  it("shows a contract created by the transaction only in diffMode's post, with its code, nonce and storage", () => {
    // Init code: SSTORE(1, 7), then return the one byte 0x00.
    const init = assemble(['0x07', '0x01', 'SSTORE', '0x01', '0x1f', 'RETURN'])
    const created = hex(createAddress(SENDER, 0n))
    const diff = diffOf({}, [], { to: undefined, data: hexToBytes(init) })
    expect(diff.post[created]).toEqual({ code: '0x00', codeHash: codeHash('0x00'), nonce: 1, storage: { [word(1)]: word(7) } })
    expect(diff.pre[created]).toBeUndefined()
  })

  it('finds the address a CREATE2 makes from its init code in memory', () => {
    // CREATE2(0, 27, 5, salt 9) of 0x60006000fd (REVERT(0, 0)), stored right-aligned in word 0.
    const factory = code(assemble(['0x60006000fd', '0x00', 'MSTORE', '0x09', '0x05', '0x1b', '0x00']), 'f5', '00')
    const pre = prestate({ includeEmpty: true }, [[CONTRACT, account(factory)]])
    expect(pre[hex(createAddress2(CONTRACT, 9n, hexToBytes('0x60006000fd')))]).toEqual({ balance: '0x0' })
  })

  it('keeps an account a SELFDESTRUCT deletes whole in pre, and out of post', () => {
    // Before Cancun the contract goes: SSTORE(1, 0), then SELFDESTRUCT to THIRD.
    const program = code(assemble(['0x00', '0x01', 'SSTORE', push20(THIRD)]), 'ff')
    const diff = diffOf({}, [[CONTRACT, account(program, { balance: 5n, storage: [[1n, 3n]] })]], {}, { fork: Fork.shanghai })
    expect(diff.pre[hex(CONTRACT)]).toEqual({ balance: '0x5', code: program, codeHash: codeHash(program), storage: { [word(1)]: word(3) } })
    expect(diff.post[hex(CONTRACT)]).toBeUndefined()
    expect(diff.post[hex(THIRD)]).toEqual({ balance: '0x5' })
  })

  it("counts an EIP-7702 authority as it was before its authorization, and a delegated account's delegate", () => {
    const key = new Uint8Array(32).fill(7)
    const signer = bytesToWord(keccak256(secp256k1.getPublicKey(key, false).subarray(1)).subarray(12))
    const auth = signAuthorization(key, { chainId: 1n, address: OTHER, nonce: 0n })
    // The transaction calls the authority, now delegated to OTHER (which returns its slot 0).
    const diff = diffOf(
      {},
      [[signer, account('0x', { balance: 3n })], ...ACCOUNTS],
      { type: 4, to: signer, authorizations: [auth] },
      { asTransaction: true },
    )
    expect(diff.pre[hex(signer)]).toEqual({ balance: '0x3' })
    const delegation = `0xef0100${OTHER.toString(16).padStart(40, '0')}`
    expect(diff.post[hex(signer)]).toEqual({ code: delegation, codeHash: codeHash(delegation), nonce: 1 })
    // Calling a delegated account counts its delegate, whose code runs on the account's own storage.
    const pre = prestate({}, [[THIRD, account(delegation)], ...ACCOUNTS], { to: THIRD })
    expect(pre[hex(OTHER)]).toEqual({ balance: '0x0', code: SLOT0, codeHash: codeHash(SLOT0) })
    expect(pre[hex(THIRD)]).toEqual({ balance: '0x0', code: delegation, codeHash: codeHash(delegation), storage: { [word(0)]: word(0) } })
  })
})

function signAuthorization(key: Uint8Array, a: { chainId: bigint; address: bigint; nonce: bigint }): Authorization {
  const payload = RLP.encode([bigIntToUnpaddedBytes(a.chainId), addressToBytes(a.address), bigIntToUnpaddedBytes(a.nonce)])
  const hash = keccak256(Uint8Array.of(0x05, ...payload))
  const sig = secp256k1.Signature.fromBytes(secp256k1.sign(hash, key, { prehash: false, format: 'recovered' }), 'recovered')
  return { ...a, yParity: BigInt(sig.recovery!), r: sig.r, s: sig.s }
}
