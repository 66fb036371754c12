import { RLP } from '@ethereumjs/rlp'
import { describe, expect, it } from 'vitest'
import { devGenesis } from '../chain/dev.js'
import { ChainSpec } from '../chain/spec.js'
import { bigIntToBytes } from '@ethereumjs/util'
import type { CanonicalSource } from './canonicalFees.js'
import { FeeOracle } from './feeOracle.js'

// The blocks' samples over an in-memory chain: found by number and checked against the canonical chain once per
// head generation, read in slices that give the thread back, dropped past their bounds. The HTTP tests
// (rpc/methods/fees.test.ts) check the replies against the plain computation over a real store.

const spec = new ChainSpec(devGenesis())
const GWEI = 1_000_000_000n

interface Block {
  hash: Uint8Array
  number: number
  parent: Uint8Array
  baseFee: bigint
  /** Tip and gas used of each transaction. */
  txs: [tip: bigint, gas: bigint][]
}

/** A chain store's reads over blocks kept in maps: `canonical` and `head` are set by the test. */
class MemoryChain implements CanonicalSource {
  readonly blocks = new Map<string, Block>()
  canonical: Uint8Array[] = []
  head: Uint8Array | undefined
  receiptLayout: 'node' | 'spaced' = 'node'
  /** Canonical checks of kept blocks (isCanonical calls). */
  checks = 0

  add(number: number, parent: Uint8Array, txs: [bigint, bigint][], salt = 0): Block {
    const hash = new Uint8Array(32)
    hash[0] = number
    hash[1] = salt
    const b: Block = { hash, number, parent, baseFee: GWEI + BigInt(number), txs }
    this.blocks.set(key(hash), b)
    return b
  }

  /** Blocks of `txs` each on top of `from` (genesis when undefined), made canonical with the last as head. */
  extend(from: Block | undefined, txs: [bigint, bigint][][], salt = 0): Block[] {
    const made: Block[] = []
    let parent = from
    for (const t of txs) {
      parent = this.add(parent === undefined ? 0 : parent.number + 1, parent?.hash ?? new Uint8Array(32), t, salt)
      made.push(parent)
      this.canonical[parent.number] = parent.hash
    }
    this.canonical.length = parent!.number + 1
    this.head = parent!.hash
    return made
  }

  getLabel(): Uint8Array | undefined {
    return this.head
  }
  getNumber(hash: Uint8Array): bigint | undefined {
    const b = this.blocks.get(key(hash))
    return b === undefined ? undefined : BigInt(b.number)
  }
  getCanonicalHash(number: bigint): Uint8Array | undefined {
    return this.canonical[Number(number)]
  }
  isCanonical(number: bigint, hash: Uint8Array): boolean {
    this.checks++
    const c = this.canonical[Number(number)]
    return c !== undefined && key(c) === key(hash)
  }
  getHeaderRlp(hash: Uint8Array): Uint8Array | undefined {
    const b = this.blocks.get(key(hash))
    if (b === undefined) return undefined
    const gasUsed = b.txs.reduce((s, [, gas]) => s + gas, 0n)
    // The positions HeaderView reads: parent hash, number, gas limit and used, timestamp, base fee, blob gas.
    const fields: Uint8Array[] = Array.from({ length: 19 }, () => new Uint8Array())
    fields[0] = b.parent
    fields[8] = bigIntToBytes(BigInt(b.number))
    fields[9] = bigIntToBytes(30_000_000n)
    fields[10] = bigIntToBytes(gasUsed)
    fields[11] = bigIntToBytes(1_000n + BigInt(b.number))
    fields[15] = bigIntToBytes(b.baseFee)
    return RLP.encode(fields)
  }
  getTxCount(hash: Uint8Array): number | undefined {
    return this.blocks.get(key(hash))?.txs.length
  }
  getReceiptJsonBytes(hash: Uint8Array, index: number): Uint8Array | undefined {
    const b = this.blocks.get(key(hash))!
    const [tip, gas] = b.txs[index]!
    const price = `0x${(b.baseFee + tip).toString(16)}`
    const used = `0x${gas.toString(16)}`
    const text =
      this.receiptLayout === 'node'
        ? `{"blockNumber":"0x1","cumulativeGasUsed":"0x1","effectiveGasPrice":"${price}","from":"0x00","gasUsed":"${used}","logs":[]}`
        : `{ "effectiveGasPrice" : "${price}", "gasUsed" : "${used}", "logs": [] }`
    return new TextEncoder().encode(text)
  }
}

const key = (h: Uint8Array): string => Buffer.from(h).toString('hex')
const transfers = (...tips: bigint[]): [bigint, bigint][] => tips.map((t) => [t, 21_000n])
/** Slices of no time: every block read from the store gives the thread back. */
const TINY = { blocks: 100, tips: 1000, sliceMs: 0 }

async function rangeOf(oracle: FeeOracle, first: number, end: number, withTips: boolean): Promise<string[] | undefined> {
  oracle.head()
  const r = await oracle.range(first, end, withTips)
  return r?.map((b) => `${b.number} ${b.baseFeeItem}${withTips ? oracle.tips(b).tips.join('/') : ''}`)
}

describe('FeeOracle', () => {
  it('reads a long range in slices, answering what one pass answers', async () => {
    const chain = new MemoryChain()
    chain.extend(
      undefined,
      Array.from({ length: 12 }, (_, i) => transfers(BigInt(i) * GWEI, 2n * GWEI, 1n)),
    )
    const sliced = new FeeOracle(spec, chain, TINY)
    sliced.head()
    const pending = sliced.range(0, 11, true)
    expect(pending).toBeInstanceOf(Promise)
    await pending
    const whole = new FeeOracle(spec, chain)
    expect(await rangeOf(sliced, 0, 11, true)).toEqual(await rangeOf(whole, 0, 11, true))
    // Kept now: answered at once.
    expect(Array.isArray(sliced.range(0, 11, true))).toBe(true)
  })

  it('gives up a sliced range when the chain below the head changes meanwhile, and not when the head only grows', async () => {
    const chain = new MemoryChain()
    const base = chain.extend(undefined, [transfers(GWEI), transfers(GWEI), transfers(GWEI)])
    const oracle = new FeeOracle(spec, chain, TINY)
    oracle.head()
    const grown = oracle.range(0, 2, true)
    chain.extend(base[2], [transfers(GWEI)])
    expect(await grown).toHaveLength(3)

    const fresh = new FeeOracle(spec, chain, TINY)
    fresh.head()
    const reorged = fresh.range(0, 3, true)
    // Blocks 2 and 3 replaced by a branch from block 1.
    chain.extend(base[1], [transfers(5n * GWEI), transfers(6n * GWEI)], 1)
    expect(await reorged).toBeUndefined()
    expect(await rangeOf(fresh, 2, 3, true)).toEqual([`2 "0x3b9aca02",${5n * GWEI}`, `3 "0x3b9aca03",${6n * GWEI}`])
  })

  it('checks kept blocks against the canonical chain after a reorg, and keeps them when the head only grows', async () => {
    const chain = new MemoryChain()
    const base = chain.extend(undefined, [transfers(GWEI), transfers(2n * GWEI), transfers(3n * GWEI)])
    const oracle = new FeeOracle(spec, chain)
    expect(await rangeOf(oracle, 0, 2, true)).toEqual([`0 "0x3b9aca00",${GWEI}`, `1 "0x3b9aca01",${2n * GWEI}`, `2 "0x3b9aca02",${3n * GWEI}`])
    // A sibling of block 2 at the same height.
    chain.extend(base[1], [transfers(7n * GWEI)], 1)
    expect(await rangeOf(oracle, 0, 2, true)).toEqual([`0 "0x3b9aca00",${GWEI}`, `1 "0x3b9aca01",${2n * GWEI}`, `2 "0x3b9aca02",${7n * GWEI}`])
    const kept = oracle.block(1)
    const checks = chain.checks
    chain.extend(chain.blocks.get(key(chain.canonical[2]!)), [transfers(8n * GWEI)])
    oracle.head()
    expect(oracle.block(1)).toBe(kept)
    expect(chain.checks).toBe(checks)
  })

  it("suggests geth's tip once per head: the 60th percentile of each block's three lowest tips of at least 2 wei", () => {
    const chain = new MemoryChain()
    const base = chain.extend(undefined, [transfers(), transfers(1n, 5n * GWEI, 3n * GWEI, 4n * GWEI, 9n * GWEI), transfers(2n * GWEI)])
    const oracle = new FeeOracle(spec, chain)
    // Samples 2, 3, 4, 5 gwei: the 60th percentile is the one at index floor(3 × 0.6) = 1.
    expect(oracle.suggestTip()).toBe(3n * GWEI)
    expect(oracle.gasPriceText()).toBe(`0x${(3n * GWEI + GWEI + 2n).toString(16)}`)
    chain.extend(base[2], [transfers(20n * GWEI, 30n * GWEI)])
    // Samples 2, 3, 4, 5, 20, 30 gwei: index floor(5 × 0.6) = 3.
    expect(oracle.tipText()).toBe(`0x${(5n * GWEI).toString(16)}`)
    // A head with no samples in reach answers the last suggestion.
    const empty = new MemoryChain()
    empty.extend(undefined, [transfers(), transfers(1n)])
    expect(new FeeOracle(spec, empty).suggestTip()).toBe(GWEI)
  })

  it('reads receipts of another layout whole', async () => {
    const chain = new MemoryChain()
    chain.receiptLayout = 'spaced'
    chain.extend(undefined, [transfers(3n, 1n, 2n)])
    expect(await rangeOf(new FeeOracle(spec, chain), 0, 0, true)).toEqual(['0 "0x3b9aca00",1/2/3'])
  })

  it('keeps at most its bounds of blocks and tips', async () => {
    const chain = new MemoryChain()
    chain.extend(
      undefined,
      Array.from({ length: 10 }, (_, i) => transfers(...Array.from({ length: i }, (_, k) => BigInt(k)))),
    )
    const oracle = new FeeOracle(spec, chain, { blocks: 4, tips: 10 })
    expect(await rangeOf(oracle, 0, 9, true)).toHaveLength(10)
    expect(oracle.size.blocks).toBeLessThanOrEqual(4)
    expect(oracle.size.tips).toBeLessThanOrEqual(10)
  })
})
