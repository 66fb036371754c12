import { MerkleStateManager } from '@ethereumjs/statemanager'
import { Account, Address, KECCAK256_RLP, bigIntToBytes, setLengthLeft } from '@ethereumjs/util'
import { describe, expect, it } from 'vitest'
import { type Hex, bytesToHex, hexToBytes } from '../util/hex.js'
import { type PlainAccount, type PlainState, accountsRoot, storageRoot } from './accountsRoot.js'

const account = (a: Partial<PlainAccount>): PlainAccount => ({ nonce: 0n, balance: 0n, code: new Uint8Array(), storage: new Map(), ...a })

/** Plain accounts, storage and code: a big balance, a nonce alone, code, storage with zero values and 300 slots. */
const state: PlainState = new Map<Hex, PlainAccount>([
  ['0x00000000000000000000000000000000000000a1', account({ balance: 10n ** 30n })],
  ['0x00000000000000000000000000000000000000a2', account({ nonce: 5n })],
  [
    '0x00000000000000000000000000000000000000a3',
    account({
      balance: 1n,
      code: hexToBytes('0x6001600155'),
      storage: new Map([
        [1n, 7n],
        [2n, 0n],
        [3n, 256n],
      ]),
    }),
  ],
  [
    '0x00000000000000000000000000000000000000a4',
    account({ nonce: 1n, storage: new Map(Array.from({ length: 300 }, (_, i) => [BigInt(i), 2n ** 255n + BigInt(i)])) }),
  ],
  ['0xa94f5374fce5edbc8e2a8697c15331677e6ebf0b', account({ balance: 2n ** 256n - 1n, nonce: 2n ** 64n - 1n })],
])

/** The root EthereumJS's own state manager computes for the same accounts. */
async function ethereumjsRoot(accounts: PlainState): Promise<string> {
  const sm = new MerkleStateManager()
  for (const [address, a] of accounts) {
    const at = new Address(hexToBytes(address))
    await sm.putAccount(at, new Account(a.nonce, a.balance))
    if (a.code.length > 0) await sm.putCode(at, a.code)
    for (const [slot, value] of a.storage) {
      if (value !== 0n) await sm.putStorage(at, setLengthLeft(bigIntToBytes(slot), 32), bigIntToBytes(value))
    }
  }
  await sm.checkpoint()
  await sm.commit()
  return bytesToHex(await sm.getStateRoot())
}

describe('accountsRoot', () => {
  it('is the root EthereumJS computes for the same accounts', async () => {
    expect(bytesToHex(accountsRoot(state))).toBe(await ethereumjsRoot(state))
  })

  it('is the root of each single account, as EthereumJS has it', async () => {
    for (const entry of state) {
      const one = new Map([entry])
      expect(bytesToHex(accountsRoot(one))).toBe(await ethereumjsRoot(one))
    }
  })

  it('is the empty trie root for no accounts and no storage', () => {
    expect(accountsRoot(new Map())).toEqual(KECCAK256_RLP)
    expect(storageRoot(new Map([[1n, 0n]]))).toEqual(KECCAK256_RLP)
  })

  it('matches a root published by the execution-spec-tests (a state test post state)', () => {
    // cancun/eip1153_tstore/test_basic_tload_after_store.json: the post state after the transaction, and its hash.
    const post = new Map<Hex, PlainAccount>([
      [
        '0x1ad41edb9130201ba8476168bcbf9bafe279f89d',
        account({ nonce: 1n, code: hexToBytes('0x5b601660015560015c6001556001600255'), storage: new Map([[2n, 1n]]) }),
      ],
      ['0x766b923079c2900993bafa89b07d66423481776e', account({ nonce: 1n, balance: 0x6124fee993b55c0an })],
      ['0x2adc25665018aa1fe0e6bc666dac8fc2697ff9ba', account({ balance: 0x01fdfdn })],
    ])
    expect(bytesToHex(accountsRoot(post))).toBe('0x26ee901705e7190e9f9b97d60e70ccc7b5ae6881b1609b379d5e683d5de99ec0')
  })
})
