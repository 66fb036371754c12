import { describe, expect, it } from 'vitest'
import type { AccountData } from '../evm/state.js'
import type { AccountChange } from '../evm/state.js'
import { EMPTY_TRIE_ROOT } from './accountCodec.js'
import type { CommittedAccount } from './blockCommit.js'
import type { StoredStateSource } from './stateSources.js'
import { WarmState } from './warmState.js'

/** A stored state held in maps, counting the reads that reach it. */
class CountedSource implements StoredStateSource {
  reads = 0
  constructor(
    private readonly accounts: Map<bigint, AccountData>,
    private readonly slots: Map<string, bigint> = new Map(),
  ) {}
  account(address: bigint): AccountData | undefined {
    this.reads++
    return this.accounts.get(address)
  }
  code(): Uint8Array {
    return new Uint8Array()
  }
  storage(address: bigint, slot: bigint): bigint {
    this.reads++
    return this.slots.get(`${address}:${slot}`) ?? 0n
  }
  hasStorage(): boolean {
    return false
  }
  storageRoot(): Uint8Array {
    return new Uint8Array(32).fill(7)
  }
}

const CODE_HASH = new Uint8Array(32).fill(1)
const acct = (balance: bigint): AccountData => ({ nonce: 0n, balance, codeHash: CODE_HASH })
const root = (n: number) => new Uint8Array(32).fill(n)

function written(address: bigint, balance: bigint | undefined, storage: [bigint, bigint][] = []): CommittedAccount {
  const change: AccountChange = {
    address,
    account: balance === undefined ? undefined : { nonce: 1n, balance, codeHash: CODE_HASH, code: undefined },
    storage: new Map(storage),
    storageWiped: false,
  }
  return { change, storageRoot: new Uint8Array(32).fill(9) }
}

describe('the warm state between blocks', () => {
  it('reads an account or slot from the store once, and holds what a block committed', () => {
    const base = new CountedSource(new Map([[1n, acct(10n)]]), new Map([['1:5', 55n]]))
    const warm = new WarmState()
    const s = warm.at(root(0), base)
    expect(s.account(1n)?.balance).toBe(10n)
    expect(s.storage(1n, 5n)).toBe(55n)
    expect(s.account(1n)?.balance).toBe(10n)
    expect(s.storage(1n, 5n)).toBe(55n)
    expect(base.reads).toBe(2)
    warm.advance(root(1), [written(1n, 20n, [[5n, 66n]])])
    const next = warm.at(root(1), base)
    expect(next.account(1n)?.balance).toBe(20n)
    expect(next.storage(1n, 5n)).toBe(66n)
    expect(base.reads).toBe(2)
    // Another state: nothing held is good for it.
    warm.at(root(7), base).account(1n)
    expect(base.reads).toBe(3)
  })

  it('answers a deleted account as empty storage without asking the store', () => {
    const base = new CountedSource(new Map([[2n, acct(1n)]]), new Map([['2:1', 3n]]))
    const warm = new WarmState()
    warm.at(root(0), base).account(2n)
    warm.advance(root(1), [written(2n, undefined)])
    const s = warm.at(root(1), base)
    expect(s.account(2n)).toBeUndefined()
    expect(s.storage(2n, 1n)).toBe(0n)
    expect(warm.storageRoot(2n)).toEqual(EMPTY_TRIE_ROOT)
    expect(base.reads).toBe(1)
  })

  it('lets go of accounts no block touched for three blocks, and keeps those touched since', () => {
    const accounts = new Map<bigint, AccountData>()
    for (let a = 1n; a <= 1000n; a++) accounts.set(a, acct(a))
    const base = new CountedSource(accounts)
    const warm = new WarmState()
    // Each block makes 100 fresh accounts and reads account 1 (a hot one, as a token contract is).
    for (let block = 0; block < 10; block++) {
      const s = warm.at(root(block), base)
      s.account(1n)
      const made: CommittedAccount[] = []
      for (let i = 0; i < 100; i++) made.push(written(BigInt(10_000 + block * 100 + i), 1n))
      warm.advance(root(block + 1), made)
      // The last three blocks' fresh accounts and the hot one; never all the blocks'.
      expect(warm.size).toBe(Math.min(block + 1, 3) * 100 + 1)
    }
    const reads = base.reads
    const s = warm.at(root(10), base)
    expect(s.account(1n)?.balance).toBe(1n)
    expect(s.account(10_950n)?.nonce).toBe(1n)
    expect(base.reads).toBe(reads)
    // Let go: read from the store again.
    expect(s.account(10_000n)).toBeUndefined()
    expect(base.reads).toBe(reads + 1)
  })
})
