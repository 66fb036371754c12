import { createFeeMarket1559Tx, createTxFromRLP } from '@ethereumjs/tx'
import { describe, expect, it } from 'vitest'
import { devAccounts, devGenesis } from '../chain/dev.js'
import { ChainSpec } from '../chain/spec.js'
import { bytesToHex, hexToBytes } from '../util/hex.js'
import { decodeBlockTx, recoverSenderKey, type SignedTx, signingRulesOf } from './blockTx.js'
import { createSenderSlots, putKnownSenders, recoverRawSenders, recoverSenders, takeSenders } from './senderRecovery.js'

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
const senders = (txs: SignedTx[]) => txs.map((t) => (t.sender === undefined ? undefined : bytesToHex(t.sender)))

describe('sender recovery shared with a helper', () => {
  const list = raws(70)

  it('takes every key a helper recovered, and they are the senders', () => {
    const slots = createSenderSlots(list.length)
    recoverRawSenders(slots, list, common)
    const txs = decode(list)
    expect(takeSenders(slots, txs)).toBe(list.length)
    expect(senders(txs)).toEqual(expectedSenders(list.length))
  })

  it('recovers from the signing hashes what no helper claimed, the senders EthereumJS recovers', () => {
    const txs = decode(list)
    expect(takeSenders(createSenderSlots(list.length), txs)).toBe(list.length)
    expect(senders(txs)).toEqual(list.map((r) => createTxFromRLP(hexToBytes(r), { common }).getSenderAddress().toString()))
    expect(senders(txs)).toEqual(expectedSenders(list.length))
  })

  it("leaves what the helper failed on to the block's run", () => {
    const slots = createSenderSlots(list.length)
    recoverSenders(slots, (i) => {
      if (i % 3 === 0) throw new Error('helper failed')
      return createTxFromRLP(hexToBytes(list[i]!), { common }).getSenderPublicKey()
    })
    const txs = decode(list)
    expect(takeSenders(slots, txs)).toBe(list.filter((_, i) => i % 3 !== 0).length)
    expect(senders(txs)).toEqual(expectedSenders(list.length).map((s, i) => (i % 3 === 0 ? undefined : s)))
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
      return createTxFromRLP(hexToBytes(list[i]!), { common }).getSenderPublicKey()
    })
    expect(claimed).toEqual(list.map((_, i) => i).filter((i) => i % 2 === 1))
    const txs = decode(list)
    expect(takeSenders(slots, txs)).toBe(list.length)
    expect(senders(txs)).toEqual(expectedSenders(list.length))
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
    const [tx] = decode([badRaw!])
    expect(takeSenders(slots, [tx!])).toBe(0)
    expect(tx!.sender).toBeUndefined()
  })
})
