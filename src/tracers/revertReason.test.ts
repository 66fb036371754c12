import { describe, expect, it } from 'vitest'
import { hexToBytes } from '../util/hex.js'
import { revertReason } from './revertReason.js'

// geth's abi.UnpackRevert: Error(string) decoded with the ABI's bounds, Panic(uint256) named as ethers names it.

const word = (v: number | bigint) => BigInt(v).toString(16).padStart(64, '0')
const error = (text: string) => hexToBytes(`0x08c379a0${word(32)}${word(text.length)}${Buffer.from(text).toString('hex').padEnd(64, '0')}`)
const panic = (code: bigint) => hexToBytes(`0x4e487b71${word(code)}`)

describe('revert reasons', () => {
  it('reads Error(string) and Panic(uint256)', () => {
    expect(revertReason(error('nope'))).toBe('nope')
    expect(revertReason(error(''))).toBe('')
    expect(revertReason(panic(0x01n))).toBe('assert(false)')
    expect(revertReason(panic(0x11n))).toBe('arithmetic underflow or overflow')
    expect(revertReason(panic(0x99n))).toBe('unknown panic code: 0x99')
    expect(revertReason(panic(1n << 200n))).toBe(`unknown panic code: 0x${(1n << 200n).toString(16)}`)
  })

  it('gives nothing for other data or an encoding that points outside it', () => {
    expect(revertReason(hexToBytes('0x08c379'))).toBeUndefined()
    expect(revertReason(hexToBytes('0xdeadbeef'))).toBeUndefined()
    expect(revertReason(hexToBytes(`0x08c379a0${word(64)}`))).toBeUndefined()
    expect(revertReason(hexToBytes(`0x08c379a0${word(32)}${word(100)}`))).toBeUndefined()
    expect(revertReason(hexToBytes('0x4e487b7101'))).toBeUndefined()
  })
})
