import { Worker } from 'node:worker_threads'
import { createFeeMarket1559Tx, createTxFromRLP } from '@ethereumjs/tx'
import { describe, expect, it } from 'vitest'
import { devAccounts, devGenesis } from '../chain/dev.js'
import { ChainSpec } from '../chain/spec.js'
import { bytesToHex, hexToBytes } from '../util/hex.js'
import { decodeBlockTx, recoverSenderKey, type SignedTx, signingRulesOf } from './blockTx.js'
import { createSenderSlots, putKnownSenders, recoverRawSenders, recoverSenders, sharedSenders } from './senderRecovery.js'

const spec = new ChainSpec(devGenesis())
const common = spec.commonAt(1n, 1n)

function raws(count: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    const from = devAccounts()[i % 10]!
    const tx = createFeeMarket1559Tx(
      {
        chainId: spec.chainId,
        nonce: BigInt(i),
        maxFeePerGas: 10n,
        maxPriorityFeePerGas: 1n,
        gasLimit: 21_000n,
        to: devAccounts()[9]!.address as `0x${string}`,
      },
      { common },
    ).sign(hexToBytes(from.privateKey))
    return bytesToHex(tx.serialize())
  })
}
const rules = signingRulesOf(common)
const decode = (list: string[]): SignedTx[] => list.map((r) => decodeBlockTx(hexToBytes(r), rules))
const expectedSenders = (count: number) => Array.from({ length: count }, (_, i) => devAccounts()[i % 10]!.address.toLowerCase())
/** The engine worker's side: each transaction's sender asked in its turn, as the block's run asks. */
function inTurn(slots: SharedArrayBuffer, txs: SignedTx[]): (string | undefined)[] {
  const senderAt = sharedSenders(slots, txs)
  return txs.map((_, i) => {
    const sender = senderAt(i)
    return sender === undefined ? undefined : bytesToHex(sender)
  })
}
const keyOf = (raw: string) => createTxFromRLP(hexToBytes(raw), { common }).getSenderPublicKey()

describe('sender recovery shared with a helper', () => {
  const list = raws(70)

  it('takes every key a helper recovered, and they are the senders', () => {
    const slots = createSenderSlots(list.length)
    recoverRawSenders(slots, list, common)
    expect(inTurn(slots, decode(list))).toEqual(expectedSenders(list.length))
  })

  it('recovers from the signing hashes what no helper claimed, the senders EthereumJS recovers', () => {
    const found = inTurn(createSenderSlots(list.length), decode(list))
    expect(found).toEqual(list.map((r) => createTxFromRLP(hexToBytes(r), { common }).getSenderAddress().toString()))
    expect(found).toEqual(expectedSenders(list.length))
  })

  it('recovers again, in its turn, what the helper failed on', () => {
    const slots = createSenderSlots(list.length)
    recoverSenders(slots, (i) => {
      if (i % 3 === 0) throw new Error('helper failed')
      return keyOf(list[i]!)
    })
    expect(inTurn(slots, decode(list))).toEqual(expectedSenders(list.length))
  })

  it('takes the keys the pool knows by hash, and nobody recovers those again', () => {
    const slots = createSenderSlots(list.length)
    const pooled = new Map<string, Uint8Array>()
    for (const raw of list.filter((_, i) => i % 2 === 0)) {
      const tx = createTxFromRLP(hexToBytes(raw), { common })
      pooled.set(bytesToHex(tx.hash()), tx.getSenderPublicKey())
    }
    expect(putKnownSenders(slots, list, (hash) => pooled.get(hash))).toBe(pooled.size)
    const claimed: number[] = []
    recoverSenders(slots, (i) => {
      claimed.push(i)
      return keyOf(list[i]!)
    })
    expect(claimed).toEqual(list.map((_, i) => i).filter((i) => i % 2 === 1))
    expect(inTurn(slots, decode(list))).toEqual(expectedSenders(list.length))
  })

  it('gives no sender to a transaction whose signature does not recover', () => {
    const good = createTxFromRLP(hexToBytes(list[0]!), { common })
    // An r in range that is no point's x: about half of them; the first such of the small ones.
    let badRaw: string | undefined
    for (let r = 1n; r < 64n && badRaw === undefined; r++) {
      const raw = bytesToHex(createFeeMarket1559Tx({ ...good.toJSON(), r } as never, { common }).serialize())
      if (recoverSenderKey(decode([raw])[0]!) === undefined) badRaw = raw
    }
    const slots = createSenderSlots(1)
    recoverRawSenders(slots, [badRaw!], common)
    expect(inTurn(slots, decode([badRaw!]))).toEqual([undefined])
    expect(inTurn(createSenderSlots(1), decode([badRaw!]))).toEqual([undefined])
  })
})

describe("each sender in the transaction's turn", () => {
  const list = raws(70)

  it('recovers only the transaction asked for, and leaves the later ones to a helper starting late', () => {
    const slots = createSenderSlots(list.length)
    const txs = decode(list)
    expect(bytesToHex(sharedSenders(slots, txs)(0)!)).toBe(expectedSenders(1)[0])
    const claimed: number[] = []
    recoverSenders(slots, (i) => {
      claimed.push(i)
      return keyOf(list[i]!)
    })
    expect(claimed).toEqual(list.map((_, i) => i).filter((i) => i > 0))
    expect(inTurn(slots, txs)).toEqual(expectedSenders(list.length))
  })

  it('recovers what nobody claimed while the helper recovers the one asked for, and never waits for the helper', () => {
    const slots = createSenderSlots(list.length)
    const txs = decode(list)
    const claimed: number[] = []
    let found: (string | undefined)[] = []
    // The helper claims the first chunk and, recovering its first transaction, stops: the engine worker asks for
    // every sender meanwhile (the helper held at index 0, as one descheduled or dead would be).
    recoverSenders(slots, (i) => {
      claimed.push(i)
      if (i === 0) found = inTurn(slots, txs)
      return keyOf(list[i]!)
    })
    expect(found).toEqual(expectedSenders(list.length))
    // The engine worker took the rest of the helper's chunk and claimed every later one: the helper got no other.
    expect(claimed).toEqual([0])
  })

  it('gives the senders a helper in another thread recovers alongside, each in its turn', async () => {
    const many = raws(300)
    const slots = createSenderSlots(many.length)
    const helper = new Worker(HELPER, { eval: true, workerData: { module: MODULE, slots, transactions: many } })
    const done = new Promise((resolve, reject) => helper.once('exit', resolve).once('error', reject))
    try {
      expect(inTurn(slots, decode(many))).toEqual(expectedSenders(many.length))
      await done
    } finally {
      await helper.terminate()
    }
  })
})

const MODULE = new URL('../../dist/exec/senderRecovery.js', import.meta.url).href
const SPEC = new URL('../../dist/chain/spec.js', import.meta.url).href
const DEV = new URL('../../dist/chain/dev.js', import.meta.url).href
// The public worker's task (workers/worker.ts): recoverRawSenders on the payload's raw transactions.
const HELPER = `
const { workerData } = require('node:worker_threads')
Promise.all([import(workerData.module), import(${JSON.stringify(SPEC)}), import(${JSON.stringify(DEV)})]).then(([recovery, { ChainSpec }, { devGenesis }]) => {
  recovery.recoverRawSenders(workerData.slots, workerData.transactions, new ChainSpec(devGenesis()).commonAt(1n, 1n))
})
`
