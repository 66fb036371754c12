import { describe, expect, it } from 'vitest'
import { Fork } from '../../chain/evmFork.js'
import { disagreements, shown } from '../../testing/ethereumjsPrecompiles.js'
import { hexToBytes } from '../../util/hex.js'
import { blake2f } from './blake2f.js'

// EIP-152's test vectors: BLAKE2b-512 of "abc" as one final block (h is the parameter-mixed IV, t = 3).
const H = '48c9bdf267e6096a3ba7ca8485ae67bb2bf894fe72f36e3cf1361d5f3af54fa5d182e6ad7f520e511f6c3e2b8c68059b6bbd41fbabd9831f79217e1319cde05b'
const M = `616263${'00'.repeat(125)}`
const T = `03${'00'.repeat(15)}`
const input = (rounds: number, final: string): Uint8Array => hexToBytes(`0x${rounds.toString(16).padStart(8, '0')}${H}${M}${T}${final}`)

describe('blake2f (0x09)', () => {
  it("compresses EIP-152's vectors, one gas a round", () => {
    expect(shown(blake2f(input(12, '01'), 12))).toEqual({
      ok: true,
      gasUsed: 12,
      output: 'ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d17d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923',
    })
    expect(shown(blake2f(input(12, '00'), 12)).output).toBe(
      '75ab69d3190a562c51aef8d88f1c2775876944407270c42c9844252c26d2875298743e7f6d5ea2f2d3e8d226039cd31b4e426ac4f2d3d666a610c2116fde4735',
    )
    expect(shown(blake2f(input(0, '01'), 0)).output).toBe(
      '08c9bcf367e6096a3ba7ca8485ae67bb2bf894fe72f36e3cf1361d5f3af54fa5d282e6ad7f520e511f6c3e2b8c68059b9442be0454267ce079217e1319cde05b',
    )
    expect(shown(blake2f(input(1, '01'), 1)).output).toBe(
      'b63a380cb2897d521994a85234ee2c181b5f844d2c624c002677e9703449d2fba551b3a8333bcdf5f2f7e08993d53923de3d64fcc68c034e717b9293fed7a421',
    )
  })
  it('fails on a length other than 213, a final flag other than 0 or 1, or too little gas', () => {
    // geth's words, and its order: the length (such an input is priced at 0), the gas, the flag.
    const fail = (gas: number, error: string): unknown => ({ ok: false, gasUsed: gas, output: new Uint8Array(), error })
    expect(blake2f(input(12, '01').subarray(1), 100)).toEqual(fail(100, 'invalid input length'))
    expect(blake2f(hexToBytes(`0x${Buffer.from(input(12, '01')).toString('hex')}00`), 100)).toEqual(fail(100, 'invalid input length'))
    expect(blake2f(new Uint8Array(), 0)).toEqual(fail(0, 'invalid input length'))
    expect(blake2f(input(12, '02'), 100)).toEqual(fail(100, 'invalid final flag'))
    expect(blake2f(input(12, '01'), 11)).toEqual(fail(11, 'out of gas'))
    expect(blake2f(input(12, '02'), 11)).toEqual(fail(11, 'out of gas'))
  })
  it('agrees with EthereumJS, rounds past a 10-round cycle and large words included', async () => {
    const inputs = [input(0, '00'), input(1, '01'), input(10, '00'), input(25, '01'), input(12, '02'), input(12, '01').subarray(0, 212)]
    inputs.push(Uint8Array.from({ length: 213 }, (_, i) => (i < 4 ? [0, 0, 0, 37][i]! : i === 212 ? 1 : (i * 97 + 13) & 0xff)))
    const rounds = (i: Uint8Array): number => (i.length === 213 ? (i[2]! << 8) | i[3]! : 0)
    expect(await disagreements(9n, Fork.osaka, blake2f, inputs, rounds)).toEqual([])
  })
})
