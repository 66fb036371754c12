import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager'
import { Account, Address, MapDB, ValueEncoding } from '@ethereumjs/util'
import { describe, expect, it } from 'vitest'
import { keccak256 } from '../crypto/keccak.js'
import { bytesToHex } from '../util/hex.js'
import { installBatchedCommit } from './stateCommit.js'

/** EthereumJS's in-memory trie database, also serving nodes by hash as the batched commit reads and writes them. */
class NodeMapDB extends MapDB<string, Uint8Array> {
  getNode(hash: Uint8Array): Uint8Array | undefined {
    return this._database.get(Buffer.from(hash).toString('hex'))
  }
  putNode(hash: Uint8Array, encoded: Uint8Array): void {
    this._database.set(Buffer.from(hash).toString('hex'), encoded)
  }
}

function stateManager(batched: boolean): MerkleStateManager {
  const db = new NodeMapDB()
  const trie = new MerklePatriciaTrie({ db, useKeyHashing: true, valueEncoding: ValueEncoding.Bytes })
  const sm = new MerkleStateManager({ trie, caches: new Caches() })
  if (batched) installBatchedCommit(sm, db)
  return sm
}

const address = (i: number) => new Address(keccak256(Uint8Array.of(i)).subarray(12))
const slot = (i: number) => keccak256(Uint8Array.of(0xee, i))

/** One block's worth of changes, the same for both state managers; `round` varies them. */
async function block(sm: MerkleStateManager, round: number): Promise<string> {
  await sm.checkpoint()
  for (let i = 0; i < 40; i++) {
    const a = address(i)
    const account = (await sm.getAccount(a)) ?? new Account()
    account.balance += BigInt(1 + i * round)
    account.nonce += BigInt(i % 2)
    await sm.putAccount(a, account)
    for (let s = 0; s < 12; s++) {
      // Every third slot is zeroed in later rounds: deletes from storage tries built earlier.
      const value = round > 0 && (s + round) % 3 === 0 ? new Uint8Array() : Uint8Array.of(round + 1, s, i)
      await sm.putStorage(a, slot(s + (i % 5)), value)
    }
  }
  // A contract deployed, one account deleted, one cleared, a slot written and reverted within the block.
  await sm.putCode(address(100 + round), Uint8Array.of(0x60, round, 0x60, 0, 0x55))
  if (round > 0) await sm.deleteAccount(address(round))
  if (round > 1) await sm.clearStorage(address(round + 10))
  await sm.checkpoint()
  await sm.putStorage(address(7), slot(99), Uint8Array.of(9))
  await sm.revert()
  await sm.commit()
  return bytesToHex(await sm.getStateRoot())
}

describe('batched state commit', () => {
  it('gives the state roots of EthereumJS’s own commit, block after block: storage written, zeroed, cleared; accounts made, changed, deleted; code', async () => {
    const own = stateManager(false)
    const batched = stateManager(true)
    for (let round = 0; round < 5; round++) expect(await block(batched, round), `round ${round}`).toBe(await block(own, round))
  })

  it('leaves every value readable from the new root alone, with nothing cached', async () => {
    const batched = stateManager(true)
    for (let round = 0; round < 3; round++) await block(batched, round)
    const root = await batched.getStateRoot()
    const fresh = batched.shallowCopy(false)
    await fresh.setStateRoot(root)
    const own = stateManager(false)
    for (let round = 0; round < 3; round++) await block(own, round)
    for (let i = 0; i < 40; i++) {
      expect((await fresh.getAccount(address(i)))?.serialize(), `account ${i}`).toEqual((await own.getAccount(address(i)))?.serialize())
      for (let s = 0; s < 17; s++)
        expect(await fresh.getStorage(address(i), slot(s)), `account ${i} slot ${s}`).toEqual(await own.getStorage(address(i), slot(s)))
    }
    expect(await fresh.getCode(address(102))).toEqual(Uint8Array.of(0x60, 2, 0x60, 0, 0x55))
  })
})
