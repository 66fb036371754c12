import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { createFeeMarket1559Tx } from '@ethereumjs/tx'
import { KECCAK256_RLP, ValueEncoding, createAccountFromRLP } from '@ethereumjs/util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devAccounts, devGenesis } from '../chain/dev.js'
import { keccak256 } from '../crypto/keccak.js'
import { tempDatadir } from '../testing/paths.js'
import { payloadAttributes } from '../testing/engineBlocks.js'
import { type TestNode, ZERO32, signedTransfer, startTestNode } from '../testing/testNode.js'
import { uint256Digits as word } from '../testing/words.js'
import { bytesToHex, hexToBytes } from '../util/hex.js'
import { ChainStore } from '../store/chainStore.js'
import { type FlatDbs, applyChanges, applyUndo } from '../store/flatState.js'
import { ACCOUNT, ChangeWriter, SLOT, WIPE } from '../store/stateChanges.js'
import { OverlayTrieDB } from '../testing/storeTrieDb.js'

// The flat state table must hold exactly what the tries hold at its block's state root — the canonical head's — as
// the head moves along one branch, onto a sibling branch (the table goes back to the fork point and forward again),
// and back. Execution reads
// it first, so a wrong entry would also show as a state root mismatch; here it is compared entry by entry.

const STORE = `0x${'c0'.repeat(20)}`
// sstore(calldataload(0), calldataload(32))
const STORE_CODE = '0x6020356000355500'
// initcode: sstore(1, 1), then selfdestruct(caller) — created and destroyed in one transaction (EIP-6780).
const SELF_DESTRUCT_INIT = '0x600160015533ff'

const genesis = devGenesis()
genesis.alloc[STORE] = { balance: '0x0', code: STORE_CODE, nonce: '0x1', storage: { '0x01': '0x11', '0x02': '0x22' } }
const dev = devAccounts()

let n: TestNode
let store: ChainStore
const datadir = tempDatadir('flat')
beforeAll(async () => {
  n = await startTestNode({ genesis, apis: ['eth', 'testing'], datadir })
  store = new ChainStore(datadir)
})
afterAll(async () => {
  await n.close()
  await store.close()
})

const nonces = new Map<number, number>()
function tx(from: number, fields: { to?: string; data?: string; value?: bigint; gas?: bigint }): string {
  const nonce = nonces.get(from) ?? 0
  nonces.set(from, nonce + 1)
  const t = createFeeMarket1559Tx(
    {
      chainId: n.spec.chainId,
      nonce: BigInt(nonce),
      maxFeePerGas: 10_000_000_000n,
      maxPriorityFeePerGas: 1_000_000_000n,
      gasLimit: fields.gas ?? 100_000n,
      ...(fields.to === undefined ? {} : { to: fields.to as `0x${string}` }),
      value: fields.value ?? 0n,
      data: (fields.data ?? '0x') as `0x${string}`,
    },
    { common: n.spec.commonAt(1n, BigInt(Math.floor(Date.now() / 1000))) },
  ).sign(hexToBytes(dev[from]!.privateKey))
  return bytesToHex(t.serialize())
}
const setSlot = (from: number, slot: number, value: number) => tx(from, { to: STORE, data: `0x${word(slot)}${word(value)}` })

let time = Math.floor(Date.now() / 1000)
/** A block with `txs` on `parentHash`, stored by newPayload and made the head. */
async function stored(parentHash: string, txs: string[]): Promise<{ blockHash: string; stateRoot: string }> {
  const built = await n.http<{ executionPayload: { blockHash: string; stateRoot: string; transactions: string[] }; executionRequests?: string[] }>(
    'testing_buildBlockV1',
    [parentHash, payloadAttributes(++time, { feeRecipient: `0x${'fe'.repeat(20)}` }), txs, null],
  )
  expect(built.error).toBeUndefined()
  expect(built.result!.executionPayload.transactions).toHaveLength(txs.length)
  const p = built.result!.executionPayload
  const st = await n.engine<{ status: string }>('engine_newPayloadV4', [p, [], ZERO32, built.result!.executionRequests ?? []])
  expect(st.result?.status).toBe('VALID')
  const fc = await n.engine<{ payloadStatus: { status: string } }>('engine_forkchoiceUpdatedV3', [
    { headBlockHash: p.blockHash, safeBlockHash: ZERO32, finalizedBlockHash: ZERO32 },
    null,
  ])
  expect(fc.result?.payloadStatus.status).toBe('VALID')
  return p
}

/** Every account and slot of the state at `root`, read from the tries, keyed as hex of the hashed keys. */
async function trieState(root: Uint8Array): Promise<Record<string, string>> {
  const db = new OverlayTrieDB(store)
  const trie = new MerklePatriciaTrie({ db, useKeyHashing: true, valueEncoding: ValueEncoding.Bytes })
  trie.root(root)
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries((await trie.getValueMap()).values)) {
    out[key] = value
    const storageRoot = createAccountFromRLP(hexToBytes(value)).storageRoot
    if (bytesToHex(storageRoot) === bytesToHex(KECCAK256_RLP)) continue
    const st = new MerklePatriciaTrie({ db, useKeyHashing: true, valueEncoding: ValueEncoding.Bytes })
    st.root(storageRoot)
    for (const [slot, v] of Object.entries((await st.getValueMap()).values)) out[`${key}/${slot}`] = v
  }
  return out
}

/** The same, read from the flat table. */
function flatState(): Record<string, string> {
  store.refreshSnapshot()
  const out: Record<string, string> = {}
  for (const { key, value } of store.db('flatAccounts').getRange()) out[bytesToHex(keccak256(key as Uint8Array))] = bytesToHex(value as Uint8Array)
  for (const { key, value } of store.db('flatStorage').getRange()) {
    const k = key as Uint8Array
    out[`${bytesToHex(keccak256(k.subarray(0, 20)))}/${bytesToHex(k.subarray(20))}`] = bytesToHex(value as Uint8Array)
  }
  return out
}

async function expectFlatAt(block: { blockHash: string; stateRoot: string }): Promise<void> {
  store.refreshSnapshot()
  const head = store.flatHead()
  expect(head && bytesToHex(head.hash)).toBe(block.blockHash)
  expect(flatState()).toEqual(await trieState(hexToBytes(block.stateRoot)))
}

describe('flat state table', () => {
  it('holds the trie state of the head, across a reorg to a sibling branch and back', async () => {
    const g = (await n.http<{ hash: string; stateRoot: string }>('eth_getBlockByNumber', ['0x0', false])).result!
    await expectFlatAt({ blockHash: g.hash, stateRoot: g.stateRoot })

    // Branch A: slots changed, cleared and created; a transfer to a new account; a contract made and destroyed.
    const a1 = await stored(g.hash, [
      setSlot(0, 1, 5),
      setSlot(0, 2, 0),
      setSlot(0, 3, 7),
      signedTransfer(n.spec, 1, 0, { to: `0x${'a1'.repeat(20)}` }),
    ])
    await expectFlatAt(a1)
    const a2 = await stored(a1.blockHash, [tx(2, { data: SELF_DESTRUCT_INIT }), setSlot(0, 3, 0), setSlot(2, 4, 9)])
    await expectFlatAt(a2)

    // Branch B from genesis (its own sender): other writes to the same slots.
    const b1 = await stored(g.hash, [setSlot(3, 1, 6), setSlot(3, 5, 1)])
    await expectFlatAt(b1)
    const b2 = await stored(b1.blockHash, [setSlot(3, 1, 0)])
    await expectFlatAt(b2)

    // Back onto A: undo b2 and b1, redo a1 and a2, then a3.
    const a3 = await stored(a2.blockHash, [setSlot(0, 2, 3), signedTransfer(n.spec, 1, 1, { to: `0x${'a3'.repeat(20)}` })])
    await expectFlatAt(a3)
    // And onto B again, by its tip.
    const b3 = await stored(b2.blockHash, [setSlot(3, 6, 2)])
    await expectFlatAt(b3)
  })
})

describe('change lists', () => {
  it('undo puts back exactly what applying replaced, wipes included', async () => {
    const local = new ChainStore(tempDatadir('flat-unit'))
    const dbs = Object.fromEntries(
      (['meta', 'headers', 'flatAccounts', 'flatStorage', 'stateDiffs', 'stateUndo'] as const).map((k) => [k, local.db(k)]),
    ) as unknown as FlatDbs
    const addr = (b: number) => new Uint8Array(20).fill(b)
    const slot = (a: number, s: number) => {
      const k = new Uint8Array(52).fill(s)
      k.set(addr(a), 0)
      return k
    }
    const v = (b: number) => Uint8Array.of(b)
    const seed = new ChangeWriter()
    seed.add(ACCOUNT, addr(1), v(0xc1))
    seed.add(SLOT, slot(1, 1), v(1))
    seed.add(SLOT, slot(1, 2), v(2))
    seed.add(SLOT, slot(2, 1), v(3))
    const snapshot = () => ({
      accounts: [...local.db('flatAccounts').getRange()].map((e) => bytesToHex(e.key as Uint8Array) + bytesToHex(e.value as Uint8Array).slice(2)),
      slots: [...local.db('flatStorage').getRange()].map((e) => bytesToHex(e.key as Uint8Array) + bytesToHex(e.value as Uint8Array).slice(2)),
    })
    await local.db('meta').transactionSync(() => applyChanges(dbs, seed.finish()))
    const before = snapshot()
    const change = new ChangeWriter()
    change.add(WIPE, addr(1), undefined)
    change.add(SLOT, slot(1, 2), v(9))
    change.add(ACCOUNT, addr(1), v(0xc2))
    change.add(ACCOUNT, addr(3), v(0xc3))
    change.add(SLOT, slot(2, 1), undefined)
    const undo = await local.db('meta').transactionSync(() => applyChanges(dbs, change.finish()))
    expect(snapshot()).toEqual({
      accounts: [`${bytesToHex(addr(1))}c2`, `${bytesToHex(addr(3))}c3`],
      slots: [`${bytesToHex(slot(1, 2))}09`],
    })
    await local.db('meta').transactionSync(() => applyUndo(dbs, undo))
    expect(snapshot()).toEqual(before)
    await local.close()
  })
})
