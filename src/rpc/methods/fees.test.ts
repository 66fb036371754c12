import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ChainSpec } from '../../chain/spec.js'
import { blobBaseFee, nextBaseFee, nextExcessBlobGas } from '../../fees/feeMath.js'
import { FeeOracle } from '../../fees/feeOracle.js'
import type { ChainStore } from '../../store/chainStore.js'
import { HeaderView } from '../../store/headerView.js'
import { type TestNode, sendMined, signedTransfer, startTestNode } from '../../testing/testNode.js'

// The fee methods over HTTP: eth_feeHistory's reply text against the plain computation from stored headers and
// receipts (what the method did per request before the blocks' samples were kept), across a reorg; the tip oracle;
// and the samples' memory bounds.

let n: TestNode
/** Blocks made by evm_mine, several transactions each. */
let m: TestNode
beforeAll(async () => {
  ;[n, m] = await Promise.all([startTestNode({ dev: {} }), startTestNode({ dev: { period: 3600 } })])
})
afterAll(async () => {
  await Promise.all([n.close(), m.close()])
})

describe('eth_maxPriorityFeePerGas and eth_gasPrice', () => {
  it('suggest 1 gwei with nothing to go on, then the tips recent blocks paid', async () => {
    expect((await n.http('eth_maxPriorityFeePerGas')).result).toBe('0x3b9aca00')
    // Mined before the send answers (the dev chain mines on demand).
    expect((await sendMined(n, 'eth_sendRawTransaction', signedTransfer(n.spec, 0, 0, { tip: 3_000_000_000n }))).receipt.blockNumber).toBe('0x1')
    expect((await n.http('eth_maxPriorityFeePerGas')).result).toBe('0xb2d05e00')
    const baseFee = BigInt((await n.http<{ baseFeePerGas: string }>('eth_getBlockByNumber', ['latest', false])).result!.baseFeePerGas)
    expect(BigInt((await n.http<string>('eth_gasPrice')).result!)).toBe(3_000_000_000n + baseFee)
  })
})

describe("eth_feeHistory's block count", () => {
  it("takes what geth's math.HexOrDecimal64 takes: a hex or decimal string, or a JSON number", async () => {
    const oldest = async (count: unknown) =>
      (await n.http<{ oldestBlock: string; gasUsedRatio: number[] }>('eth_feeHistory', [count, '0x1', []])).result?.gasUsedRatio.length
    // Block 1 exists (the test above mined it): two blocks end there.
    for (const count of ['0x2', '0X2', '0x02', '2', '02', 2]) expect(await oldest(count), JSON.stringify(count)).toBe(2)
    // `cast rpc eth_feeHistory 4 latest '[25,75]'` sends the number 4.
    expect((await n.http<{ reward: string[][] }>('eth_feeHistory', [4, 'latest', [25, 75]])).result?.reward).toBeDefined()
    // geth's ParseUint64: the empty string is zero, which answers an empty history.
    expect((await n.http<{ oldestBlock: string }>('eth_feeHistory', ['', 'latest', []])).result).toMatchObject({
      oldestBlock: '0x0',
      gasUsedRatio: [],
    })
  })

  it('refuses what geth refuses: negative, fractional, non-numeric, past uint64', async () => {
    for (const count of [-1, 1.5, '0x', '0xg', 'ten', '-1', '1e3', '18446744073709551616', `0x1${'0'.repeat(16)}`, null, true]) {
      expect((await n.http('eth_feeHistory', [count, 'latest', []])).error?.code, JSON.stringify(count)).toBe(-32602)
    }
    // The largest uint64 is accepted, and capped as any count past 1024 is.
    expect((await n.http('eth_feeHistory', ['18446744073709551615', 'latest', []])).error).toBeUndefined()
  })
})

/** A reply's text as the node wrote it (the parsed reply hides key order and number formatting). */
async function replyText(t: TestNode, method: string, params: unknown[]): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${t.node.httpPort}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return res.text()
}

/**
 * eth_feeHistory computed plainly, per request, from the stored headers and parsed receipts (the method's code
 * before the blocks' samples were kept): each transaction's tip and gas, sorted by tip, walked transaction by
 * transaction. `newest` is a block number at most the head's.
 */
function plainFeeHistory(store: ChainStore, spec: ChainSpec, count: number, newest: number, percentiles: number[] | undefined): object {
  const first = Math.max(0, newest - Math.min(count, 1024) + 1)
  const out = { oldestBlock: `0x${first.toString(16)}`, baseFeePerGas: [] as string[], gasUsedRatio: [] as number[] }
  const blobFees: string[] = []
  const blobRatios: number[] = []
  const rewards: string[][] = []
  const q = (v: bigint) => `0x${v.toString(16)}`
  const blobFeeAt = (excess: bigint | undefined, timestamp: bigint) => {
    const params = spec.blobParamsAt(timestamp)
    return excess === undefined || params === undefined ? 0n : blobBaseFee(excess, BigInt(params.baseFeeUpdateFraction))
  }
  let h: HeaderView | undefined
  for (let b = first; b <= newest; b++) {
    const hash = store.getCanonicalHash(BigInt(b))!
    h = HeaderView.read(store, hash)!
    out.baseFeePerGas.push(q(h.baseFee))
    out.gasUsedRatio.push(Number(h.gasUsed) / Number(h.gasLimit))
    blobFees.push(q(blobFeeAt(h.excessBlobGas, h.timestamp)))
    const params = spec.blobParamsAt(h.timestamp)
    blobRatios.push(params === undefined || h.blobGasUsed === undefined ? 0 : Number(h.blobGasUsed) / (params.max * 131_072))
    if (percentiles === undefined) continue
    const txs: { tip: bigint; gas: bigint }[] = []
    for (let i = 0; i < (store.getTxCount(hash) ?? 0); i++) {
      const r = JSON.parse(new TextDecoder().decode(store.getReceiptJsonBytes(hash, i)!)) as { effectiveGasPrice: string; gasUsed: string }
      txs.push({ tip: BigInt(r.effectiveGasPrice) - h.baseFee, gas: BigInt(r.gasUsed) })
    }
    txs.sort((a, c) => (a.tip < c.tip ? -1 : a.tip > c.tip ? 1 : 0))
    if (txs.length === 0) {
      rewards.push(percentiles.map(() => '0x0'))
      continue
    }
    const row: string[] = []
    let i = 0
    let sum = txs[0]!.gas
    for (const p of percentiles) {
      const threshold = (Number(h.gasUsed) * p) / 100
      while (Number(sum) < threshold && i < txs.length - 1) sum += txs[++i]!.gas
      row.push(q(txs[i]!.tip))
    }
    rewards.push(row)
  }
  const last = h!
  out.baseFeePerGas.push(q(spec.isActive('london', last.number + 1n, last.timestamp) ? nextBaseFee(last.baseFee, last.gasUsed, last.gasLimit) : 0n))
  const params = spec.blobParamsAt(last.timestamp)
  const nextExcess =
    params === undefined || last.excessBlobGas === undefined
      ? undefined
      : nextExcessBlobGas(last.excessBlobGas, last.blobGasUsed ?? 0n, params.target)
  blobFees.push(q(blobFeeAt(nextExcess, last.timestamp)))
  return {
    ...out,
    baseFeePerBlobGas: blobFees,
    blobGasUsedRatio: blobRatios,
    ...(percentiles === undefined ? {} : { reward: rewards }),
  }
}

/** Sends transfers from dev accounts `from`, one each with its tip, and mines them into one block (`m`). */
async function mineBlock(transfers: { from: number; tip: bigint }[], nonces: Map<number, number>): Promise<void> {
  for (const t of transfers) {
    const nonce = nonces.get(t.from) ?? 0
    nonces.set(t.from, nonce + 1)
    const sent = await m.http('eth_sendRawTransaction', [signedTransfer(m.spec, t.from, nonce, { tip: t.tip })])
    expect(sent.error).toBeUndefined()
  }
  expect((await m.http('evm_mine')).error).toBeUndefined()
}

describe('eth_feeHistory over blocks of several transactions', () => {
  const gwei = 1_000_000_000n
  const nonces = new Map<number, number>()
  const PERCENTILES = [undefined, [], [50], [0, 10, 25, 33.3, 50, 75, 90, 99.9, 100], [0, 0, 100, 100]]

  /** Every count, newest block and percentile list of the grid: the reply text is the plain computation's. */
  async function expectPlainReplies(): Promise<void> {
    const head = Number(m.node.store.getNumber(m.node.store.getLabel('head')!)!)
    for (const count of [1, 2, 3, head + 1, 2000]) {
      for (let newest = 0; newest <= head; newest++) {
        for (const percentiles of PERCENTILES) {
          const params = [count, `0x${newest.toString(16)}`, ...(percentiles === undefined ? [] : [percentiles])]
          const expected = JSON.stringify({ jsonrpc: '2.0', id: 1, result: plainFeeHistory(m.node.store, m.spec, count, newest, percentiles) })
          expect(await replyText(m, 'eth_feeHistory', params), JSON.stringify(params)).toBe(expected)
        }
      }
    }
    // The head's own tags, and a newest block past the head (the history ends at the head).
    const latest = JSON.stringify({ jsonrpc: '2.0', id: 1, result: plainFeeHistory(m.node.store, m.spec, 4, head, [25, 75]) })
    for (const tag of ['latest', 'pending', `0x${(head + 5).toString(16)}`]) {
      const text = await replyText(m, 'eth_feeHistory', [4, tag, [25, 75]])
      expect(text, tag).toBe(
        tag === 'latest' || tag === 'pending'
          ? latest
          : '{"jsonrpc":"2.0","id":1,"result":{"oldestBlock":"0x0","baseFeePerGas":[],"gasUsedRatio":[],"baseFeePerBlobGas":[],"blobGasUsedRatio":[]}}',
      )
    }
  }

  it('answers what the plain per-request computation answered, block by block', async () => {
    // Tips repeated within a block, a 1 wei tip (which the oracle ignores), an empty block.
    await mineBlock(
      [
        { from: 0, tip: 3n * gwei },
        { from: 1, tip: gwei },
        { from: 2, tip: 3n * gwei },
        { from: 3, tip: 1n },
      ],
      nonces,
    )
    await mineBlock([], nonces)
    await mineBlock(
      [
        { from: 4, tip: 2n * gwei },
        { from: 5, tip: 5n * gwei },
      ],
      nonces,
    )
    await expectPlainReplies()
  })

  it('follows a reorg: blocks replaced at the same heights are answered from their own receipts', async () => {
    const snapshot = (await m.http<string>('evm_snapshot')).result!
    await mineBlock([{ from: 6, tip: 7n * gwei }], nonces)
    await mineBlock([{ from: 7, tip: 8n * gwei }], nonces)
    await expectPlainReplies()
    const before = (await m.http<{ reward: string[][] }>('eth_feeHistory', [2, 'latest', [0, 100]])).result!.reward
    expect(before).toEqual([
      ['0x1a13b8600', '0x1a13b8600'],
      ['0x1dcd65000', '0x1dcd65000'],
    ])
    // Back to the snapshot: both transactions return to the pool, and the blocks made next at the same heights
    // hold them with others.
    expect((await m.http('evm_revert', [snapshot])).result).toBe(true)
    await mineBlock([{ from: 8, tip: 9n * gwei }], nonces)
    await mineBlock([], nonces)
    await expectPlainReplies()
    const after = (await m.http<{ reward: string[][] }>('eth_feeHistory', [2, 'latest', [0, 100]])).result!.reward
    expect(after).not.toEqual(before)
  })

  it("suggests the tip geth's oracle suggests over the blocks now canonical", async () => {
    const store = m.node.store
    const head = store.getNumber(store.getLabel('head')!)!
    const samples: bigint[] = []
    for (let b = head; b >= 0n && b > head - 20n; b--) {
      const hash = store.getCanonicalHash(b)!
      const baseFee = HeaderView.read(store, hash)!.baseFee
      const tips: bigint[] = []
      for (let i = 0; i < (store.getTxCount(hash) ?? 0); i++) {
        const r = JSON.parse(new TextDecoder().decode(store.getReceiptJsonBytes(hash, i)!)) as { effectiveGasPrice: string }
        tips.push(BigInt(r.effectiveGasPrice) - baseFee)
      }
      samples.push(
        ...tips
          .filter((t) => t >= 2n)
          .sort((a, c) => (a < c ? -1 : a > c ? 1 : 0))
          .slice(0, 3),
      )
    }
    samples.sort((a, c) => (a < c ? -1 : a > c ? 1 : 0))
    const tip = samples[Math.floor(((samples.length - 1) * 60) / 100)]!
    expect((await m.http<string>('eth_maxPriorityFeePerGas')).result).toBe(`0x${tip.toString(16)}`)
    const headBaseFee = HeaderView.read(store, store.getLabel('head')!)!.baseFee
    expect((await m.http<string>('eth_gasPrice')).result).toBe(`0x${(tip + headBaseFee).toString(16)}`)
  })

  it('keeps at most its bounds of blocks and tips, answering the same once it has dropped some', async () => {
    const store = m.node.store
    const head = Number(store.getNumber(store.getLabel('head')!)!)
    const bounded = new FeeOracle(m.spec, store, { blocks: 3, tips: 4 })
    const free = new FeeOracle(m.spec, store)
    for (const oracle of [bounded, free]) oracle.head()
    for (let round = 0; round < 2; round++) {
      for (let b = 0; b <= head; b++) {
        const [x, y] = [bounded.block(b), free.block(b)]
        expect([x.baseFeeItem, x.gasUsedRatioText, x.nextBaseFeeText()]).toEqual([y.baseFeeItem, y.gasUsedRatioText, y.nextBaseFeeText()])
        expect(bounded.tips(x).tips).toEqual(free.tips(y).tips)
        expect(bounded.size.blocks).toBeLessThanOrEqual(3)
        // A block's own tips are kept even past the bound while it is the only block left.
        expect(bounded.size.tips <= 4 || bounded.size.blocks === 1).toBe(true)
      }
    }
    expect(bounded.suggestTip()).toBe(free.suggestTip())
  })
})
