import { Bloom, encodeReceipt as ethereumjsReceipt } from '@ethereumjs/vm'
import { describe, expect, it } from 'vitest'
import type { Log } from '../evm/state.js'
import { addressToBytes, wordToBytes } from '../evm/words.js'
import type { RawLog } from '../codecs/receipt.js'
import { BlockReceiptsEncoder, encodeReceipt, logsBloom, rawLogsBloom } from './receiptCodec.js'

// Receipts and blooms of the EVM's logs, checked against EthereumJS's encoding of the same receipts.

const logs: Log[] = [
  { address: 0xc0de01n, topics: [], data: new Uint8Array() },
  { address: 0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeen, topics: [1n, 2n ** 255n + 7n, 0n], data: Uint8Array.of(1, 2, 3) },
  { address: 0xffn, topics: [0xddf252adn], data: new Uint8Array(100).fill(0xab) },
  { address: 0x01n, topics: [5n, 6n, 7n, 8n], data: new Uint8Array(70_000).fill(0xcd) },
]
const rawOf = (l: Log[]): RawLog[] => l.map((x) => [addressToBytes(x.address), x.topics.map(wordToBytes), x.data])

function reference(type: 0 | 1 | 2 | 3 | 4, success: boolean, cumulative: bigint, l: Log[]): Uint8Array {
  const bloom = new Bloom()
  const raw = l.map((x) => [addressToBytes(x.address), x.topics.map(wordToBytes), x.data] as [Uint8Array, Uint8Array[], Uint8Array])
  for (const [address, topics] of raw) {
    bloom.add(address)
    for (const t of topics) bloom.add(t)
  }
  return ethereumjsReceipt({ status: success ? 1 : 0, cumulativeBlockGasUsed: cumulative, bitvector: bloom.bitvector, logs: raw }, type)
}

describe('receipts of the EVM’s logs', () => {
  it('encodes as EthereumJS does, every type, failed or not, with and without logs', () => {
    for (const type of [0, 1, 2, 3, 4] as const) {
      for (const success of [true, false]) {
        for (const l of [[], logs]) {
          const cumulative = 21_000n * BigInt(type + 1)
          expect(encodeReceipt(type, success, cumulative, logsBloom(l), l)).toEqual(reference(type, success, cumulative, l))
        }
      }
    }
  })

  it("writes a block's receipts into one buffer, each as encodeReceipt encodes it, blooms from the raw logs", () => {
    const encoder = new BlockReceiptsEncoder(1)
    const expected: Uint8Array[] = []
    const root = new Uint8Array(32).fill(0x42)
    for (const type of [0, 1, 2, 3, 4] as const) {
      for (const outcome of [true, false, root]) {
        for (const l of [[], logs.slice(0, 1), logs.slice(1, 3), logs]) {
          const cumulative = 21_000n * BigInt(type + 1) + (outcome === true ? 0n : 127n)
          const bloom = rawLogsBloom(rawOf(l), encoder.newBloom())
          expect(bloom).toEqual(logsBloom(l))
          encoder.add(type, outcome, cumulative, bloom, rawOf(l))
          expected.push(encodeReceipt(type, outcome, cumulative, logsBloom(l), l))
        }
      }
    }
    expect(encoder.encodings()).toEqual(expected)
  })

  it('adds to a bloom given', () => {
    const both = logsBloom(logs.slice(1), logsBloom(logs.slice(0, 1)))
    expect(both).toEqual(logsBloom(logs))
  })
})
