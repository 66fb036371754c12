import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devAccounts } from '../chain/dev.js'
import { type RawTxFields, signRawTx } from '../testing/rawTx.js'
import { type TestNode, receiptNow, startTestNode } from '../testing/testNode.js'
import { hexToBytes } from '../util/hex.js'

// The pool's admission and the builder's inclusion share one validation (src/txrules): random transactions from
// the dev accounts, sent to a dev node that makes a block for each, are either refused at submission with an error
// or mined — their receipt exists as soon as the send is answered. Nothing is acknowledged and then left pending.
// A model of geth's rules says which of the two each one must be.

let n: TestNode
beforeAll(async () => {
  n = await startTestNode({ dev: {} })
})
afterAll(async () => {
  await n.close()
})

const CHAIN_ID = 1337n
const GWEI = 1_000_000_000n
const TX_GAS_CAP = 16_777_216n
const TX_MAX_SIZE = 131_072
const MAX_INIT_CODE = 49_152

interface Case {
  from: number
  kind: 'fee market' | 'access list' | 'legacy' | 'unprotected legacy'
  chainId: bigint
  create: boolean
  size: number
  bytes: 'zero' | 'non-zero' | 'mixed'
  gas: 'intrinsic - 1' | 'intrinsic' | 'floor - 1' | 'floor' | 'more' | 'cap' | 'cap + 1'
  more: bigint
  maxFee: bigint
  tip: 'zero' | 'some' | 'the fee cap' | 'above the fee cap'
  value: bigint
  staleNonce: boolean
}

const cases: fc.Arbitrary<Case> = fc.record({
  from: fc.integer({ min: 0, max: 7 }),
  // Each dimension is mostly valid, so that both outcomes are common.
  kind: fc.constantFrom('fee market', 'fee market', 'fee market', 'access list', 'legacy', 'legacy', 'unprotected legacy'),
  chainId: fc.oneof({ weight: 7, arbitrary: fc.constant(CHAIN_ID) }, { weight: 1, arbitrary: fc.constantFrom(1n, 31_337n) }),
  create: fc.oneof({ weight: 5, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
  size: fc.oneof(
    fc.constant(0),
    fc.integer({ min: 1, max: 200 }),
    fc.integer({ min: 40_000, max: 60_000 }),
    fc.integer({ min: 100 * 1024 - 100, max: 100 * 1024 + 100 }),
    fc.integer({ min: TX_MAX_SIZE - 400, max: TX_MAX_SIZE + 200 }),
  ),
  bytes: fc.constantFrom('zero', 'non-zero', 'mixed'),
  gas: fc.oneof(
    { weight: 6, arbitrary: fc.constant('more' as const) },
    { weight: 1, arbitrary: fc.constantFrom('intrinsic - 1', 'intrinsic', 'floor - 1', 'floor', 'floor', 'cap', 'cap + 1') },
  ),
  more: fc.bigInt({ min: 0n, max: 300_000n }),
  maxFee: fc.constantFrom(GWEI, 2n * GWEI, 10n * GWEI),
  tip: fc.constantFrom('zero', 'some', 'some', 'the fee cap', 'the fee cap', 'above the fee cap'),
  value: fc.oneof({ weight: 9, arbitrary: fc.constantFrom(0n, 1n, 10n ** 18n) }, { weight: 1, arbitrary: fc.constant(10n ** 30n) }),
  staleNonce: fc.oneof({ weight: 9, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
})

function calldata(c: Case): Uint8Array {
  const data = new Uint8Array(c.size)
  if (c.bytes === 'non-zero') data.fill(0x01)
  if (c.bytes === 'mixed') for (let i = 0; i < data.length; i += 2) data[i] = 0x60
  return data
}

/** Intrinsic gas and EIP-7623's floor, as the EIPs define them. */
function gasCosts(c: Case, data: Uint8Array): { intrinsic: bigint; floor: bigint } {
  const zeros = BigInt(data.filter((b) => b === 0).length)
  const nonZeros = BigInt(data.length) - zeros
  const words = (BigInt(data.length) + 31n) / 32n
  const intrinsic = 21_000n + 4n * zeros + 16n * nonZeros + (c.create ? 32_000n + 2n * words : 0n)
  return { intrinsic, floor: 21_000n + 10n * (zeros + 4n * nonZeros) }
}

function gasOf(c: Case, costs: { intrinsic: bigint; floor: bigint }): bigint {
  const needed = costs.intrinsic > costs.floor ? costs.intrinsic : costs.floor
  switch (c.gas) {
    case 'intrinsic - 1':
      return costs.intrinsic - 1n
    case 'intrinsic':
      return costs.intrinsic
    case 'floor - 1':
      return costs.floor - 1n
    case 'floor':
      return costs.floor
    case 'more':
      return needed + c.more
    case 'cap':
      return TX_GAS_CAP
    case 'cap + 1':
      return TX_GAS_CAP + 1n
  }
}

const tipOf = (c: Case): bigint => (c.tip === 'zero' ? 0n : c.tip === 'some' ? GWEI / 10n : c.tip === 'the fee cap' ? c.maxFee : c.maxFee + 1n)

describe('admission and inclusion share one validation', () => {
  it('a random transaction is either refused at submission or mined', async () => {
    let sent = 0
    let mined = 0
    const reasons = new Set<string>()
    await fc.assert(
      fc.asyncProperty(cases, async (c) => {
        const from = devAccounts()[c.from]!.address
        const pending = BigInt((await n.http<string>('eth_getTransactionCount', [from, 'pending'])).result!)
        const nonce = c.staleNonce && pending > 0n ? pending - 1n : pending
        const data = calldata(c)
        const costs = gasCosts(c, data)
        const gasLimit = gasOf(c, costs)
        const fields: RawTxFields = {
          type: c.kind === 'fee market' ? 2 : c.kind === 'access list' ? 1 : 0,
          chainId: c.kind === 'unprotected legacy' ? undefined : c.chainId,
          nonce,
          maxFee: c.maxFee,
          tip: tipOf(c),
          gasLimit,
          to: c.create ? undefined : devAccounts()[9]!.address,
          value: c.value,
          data,
        }
        const raw = signRawTx(fields, hexToBytes(devAccounts()[c.from]!.privateKey))
        // geth's rules, as a model: any of these refuses it; otherwise it must be mined.
        const refusedBy = [
          hexToBytes(raw).length > TX_MAX_SIZE && 'size',
          c.kind === 'unprotected legacy' && 'replay protection',
          c.create && data.length > MAX_INIT_CODE && 'init code',
          gasLimit > TX_GAS_CAP && 'EIP-7825',
          fields.type === 2 && tipOf(c) > c.maxFee && 'tip above fee cap',
          c.kind !== 'unprotected legacy' && c.chainId !== CHAIN_ID && 'chain id',
          gasLimit < costs.intrinsic && 'intrinsic gas',
          gasLimit < costs.floor && 'floor',
          nonce < pending && 'nonce',
          gasLimit * c.maxFee + c.value > 10n ** 24n && 'funds',
        ].filter((x): x is string => x !== false)
        for (const r of refusedBy) reasons.add(r)
        const reply = await n.http<string>('eth_sendRawTransaction', [raw])
        sent++
        const what = `${JSON.stringify(c, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))} gas ${gasLimit} size ${hexToBytes(raw).length}`
        if (reply.error !== undefined) {
          expect(refusedBy, `refused (${reply.error.message}) though geth's rules take it: ${what}`).not.toEqual([])
          expect(reply.error.code).toBe(-32000)
          // geth's words: no EthereumJS transaction dump, no JavaScript source.
          expect(reply.error.message).not.toMatch(/tx type=|hash=0x|=>|function|return |common/)
          // Refused means not pooled: nothing of the sender's waits.
          const after = await n.http<string>('eth_getTransactionCount', [from, 'pending'])
          expect(BigInt(after.result!)).toBe(pending)
          return
        }
        expect(refusedBy, `accepted though geth refuses it: ${what}`).toEqual([])
        // A dev node answers a send once the block holding it is made: the receipt is there now.
        const receipt = await receiptNow(n, reply.result!)
        expect(receipt.transactionHash).toBe(reply.result)
        mined++
      }),
      { seed: 21_4_5, numRuns: 40, endOnFailure: true },
    )
    expect(sent).toBe(40)
    // The seed gives both outcomes, and refusals for each of issue 21's rules among others.
    expect(mined).toBeGreaterThan(5)
    expect(sent - mined).toBeGreaterThan(5)
    expect([...reasons].sort()).toEqual(
      expect.arrayContaining(['EIP-7825', 'chain id', 'floor', 'init code', 'replay protection', 'size', 'tip above fee cap']),
    )
  })
})
