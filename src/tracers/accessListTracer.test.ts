import { describe, expect, it } from 'vitest'
import { Fork } from '../chain/evmFork.js'
import { createAddress } from '../evm/interpreter.js'
import type { AccessListEntry } from '../evm/transaction.js'
import { type Item, assemble } from '../testing/asm.js'
import { AccessListTracer, accessListExclusions } from './accessListTracer.js'
import { CONTRACT, OTHER, SENDER, THIRD, account, transaction, traced } from './testEvm.js'

// The access-list tracer against lists worked out from geth's AccessListTracer and eth_createAccessList
// (internal/ethapi/api.go): what it excludes, what it keeps, its order, and the rerun until the list settles.

const push20 = (a: bigint) => `0x${a.toString(16).padStart(40, '0')}` as const
const code = (...parts: string[]) => `0x${parts.map((p) => p.replace(/^0x/, '')).join('')}`
const staticCall = (to: bigint): Item[] => ['0x00', '0x00', '0x00', '0x00', push20(to), 'GAS', 'STATICCALL', 'POP']

/** The list a call finds, rerun with each list found until it settles, as geth's eth_createAccessList. */
function createAccessList(accounts: Parameters<typeof traced>[0], over: Parameters<typeof traced>[2] = {}): AccessListEntry[] {
  const exclude = accessListExclusions(transaction(over), Fork.osaka, 1n)
  let prev = new AccessListTracer(over.accessList ?? [], exclude)
  for (let i = 0; i < 10; i++) {
    const list = prev.result()
    const tracer = new AccessListTracer(list, exclude)
    traced(accounts, tracer, { ...over, accessList: list })
    if (tracer.equals(prev)) return list
    prev = tracer
  }
  throw new Error('the list did not settle')
}

describe('the access-list tracer', () => {
  it("lists what opcodes name and the slots they touch, the recipient's slots included, in order", () => {
    // SSTORE(5, 1) at the recipient; BALANCE of the sender and of THIRD; STATICCALL OTHER (SLOAD 3, 1) and the
    // identity precompile.
    const top = assemble([
      '0x01',
      '0x05',
      'SSTORE',
      push20(SENDER),
      'BALANCE',
      'POP',
      push20(THIRD),
      'BALANCE',
      'POP',
      ...staticCall(OTHER),
      ...staticCall(4n),
      'STOP',
    ])
    const list = createAccessList([
      [CONTRACT, account(top)],
      [OTHER, account(assemble(['0x03', 'SLOAD', '0x01', 'SLOAD', 'STOP']))],
    ])
    expect(list).toEqual([
      { address: CONTRACT, storageKeys: [5n] },
      { address: OTHER, storageKeys: [1n, 3n] },
      { address: THIRD, storageKeys: [] },
    ])
  })

  it('lists the slots a created contract touches, and keeps what the request gave unless excluded', () => {
    // CREATE of init code SLOAD(7) (0x600754, stored right-aligned in word 0): CREATE(0, 29, 3).
    const factory = code(assemble(['0x600754', '0x00', 'MSTORE', '0x03', '0x1d', '0x00']), 'f0', '00')
    const created = createAddress(CONTRACT, 0n)
    const given: AccessListEntry[] = [
      { address: THIRD, storageKeys: [9n] },
      { address: SENDER, storageKeys: [1n] },
    ]
    expect(createAccessList([[CONTRACT, account(factory)]], { accessList: given })).toEqual(
      [
        { address: created, storageKeys: [7n] },
        { address: THIRD, storageKeys: [9n] },
      ].sort((a, b) => (a.address < b.address ? -1 : 1)),
    )
  })

  it('excludes the sender, the recipient or the address a creation makes, and the precompiles', () => {
    expect([...accessListExclusions(transaction({ to: OTHER }), Fork.osaka, 1n)].slice(0, 2)).toEqual([SENDER, OTHER])
    const creation = accessListExclusions(transaction({ to: undefined, nonce: 3n }), Fork.osaka, 1n)
    expect(creation.has(createAddress(SENDER, 3n))).toBe(true)
    // Osaka's precompiles run 0x01 to 0x11 and P-256 at 0x100.
    expect(creation.has(0x11n) && creation.has(0x100n) && !creation.has(0x12n)).toBe(true)
  })
})
