import { Fork } from '../../chain/evmFork.js'
import { bytesToBigInt, hexToBytes } from '../../util/hex.js'
import { EMPTY, failure, outOfGas, success } from './result.js'
import type { PrecompileResult } from './types.js'

// Lengths and gas are doubles. A length of 2^53 or more reads as Infinity, and any price that large is more gas than a
// call can carry (gas limits are safe integers), so the comparisons with the limit stay exact where they matter.

/** EIP-7823 (Osaka): a base, exponent or modulus longer than this fails. */
const OSAKA_MAX_LENGTH = 1024

/** The big-endian length word at `offset` (zeros past the input's end); Infinity from 2^53 on. */
function readLength(input: Uint8Array, offset: number): number {
  const end = Math.min(input.length, offset + 32)
  for (let i = offset; i < Math.min(end, offset + 25); i++) if (input[i] !== 0) return Number.POSITIVE_INFINITY
  let value = 0
  for (let i = offset + 25; i < offset + 32; i++) value = value * 256 + (i < end ? input[i]! : 0)
  return value < 2 ** 53 ? value : Number.POSITIVE_INFINITY
}

/**
 * Bit length of the exponent's head, its first min(expLen, 32) bytes, which prices the exponentiation (EIP-198's
 * adjusted exponent length; the head, as go-ethereum and EthereumJS read it, where EIP-2565's pseudocode masks).
 */
function headBitLength(input: Uint8Array, expStart: number, expLen: number): number {
  const width = Math.min(expLen, 32)
  const end = Math.min(expStart + width, input.length)
  for (let i = expStart; i < end; i++) {
    const byte = input[i]!
    if (byte !== 0) return (expStart + width - i - 1) * 8 + (32 - Math.clz32(byte))
  }
  return 0
}

/** The gas a call costs under the fork's pricing (EIP-198 from Byzantium, EIP-2565 from Berlin, EIP-7883 from Osaka). */
export function modexpGas(input: Uint8Array, fork: Fork): number {
  return price(input, readLength(input, 0), readLength(input, 32), readLength(input, 64), fork)
}

function price(input: Uint8Array, baseLen: number, expLen: number, modLen: number, fork: Fork): number {
  const maxLen = Math.max(baseLen, modLen)
  const expStart = 96 + baseLen
  const headBits = expStart < input.length ? headBitLength(input, expStart, expLen) : 0
  if (fork < Fork.berlin) return eip198Price(maxLen, expLen, headBits)
  const osaka = fork >= Fork.osaka
  const words = Math.ceil(maxLen / 8)
  const complexity = osaka ? (maxLen <= 32 ? 16 : 2 * words * words) : words * words
  if (complexity === 0) return 200 // Berlin's minimum, whatever the exponent: nothing to multiply
  let iterations = expLen > 32 ? (osaka ? 16 : 8) * (expLen - 32) : 0
  if (headBits > 0) iterations += headBits - 1
  if (iterations < 1) iterations = 1
  return osaka ? Math.max(500, complexity * iterations) : Math.max(200, Math.floor((complexity * iterations) / 3))
}

/**
 * EIP-198's price (Byzantium to Istanbul): floor(complexity(max length) * max(adjusted exponent length, 1) / 20), the
 * complexity quadratic in bytes with two discounted ranges. Its products pass 2^53 well below the lengths that price a
 * call out of reach, so they are taken as bigints; an Infinity length (2^53 or more) prices it out of reach, unless
 * there is nothing to multiply (no base, no modulus), which is free whatever the exponent.
 */
function eip198Price(maxLen: number, expLen: number, headBits: number): number {
  if (maxLen === 0) return 0
  if (maxLen === Number.POSITIVE_INFINITY || expLen === Number.POSITIVE_INFINITY) return Number.POSITIVE_INFINITY
  const x = BigInt(maxLen)
  const complexity = x <= 64n ? x * x : x <= 1024n ? (x * x) / 4n + 96n * x - 3072n : (x * x) / 16n + 480n * x - 199680n
  let iterations = expLen > 32 ? 8n * BigInt(expLen - 32) : 0n
  if (headBits > 0) iterations += BigInt(headBits - 1)
  if (iterations < 1n) iterations = 1n
  return Number((complexity * iterations) / 20n)
}

/** 0x05: base^exponent mod modulus over big-endian operands of declared lengths (EIP-198), zeros past the input. */
export function modexp(input: Uint8Array, gasLimit: number, fork: Fork): PrecompileResult {
  const baseLen = readLength(input, 0)
  const expLen = readLength(input, 32)
  const modLen = readLength(input, 64)
  const gas = price(input, baseLen, expLen, modLen, fork)
  if (!(gas <= gasLimit)) return outOfGas(gasLimit)
  if (fork >= Fork.osaka && (baseLen > OSAKA_MAX_LENGTH || expLen > OSAKA_MAX_LENGTH || modLen > OSAKA_MAX_LENGTH))
    return failure(gasLimit, 'one or more of base/exponent/modulus length exceeded 1024 bytes')
  // Paid for, a nonzero modulus length bounds the others (the price grows with each); without one the output is empty.
  if (modLen === 0) return success(gas, EMPTY)
  const modulus = readOperand(input, 96 + baseLen + expLen, modLen)
  const output = new Uint8Array(modLen)
  if (modulus === 0n) return success(gas, output)
  const result = powMod(readOperand(input, 96, baseLen) % modulus, input, 96 + baseLen, expLen, modulus)
  if (result !== 0n) {
    const digits = result.toString(16)
    output.set(hexToBytes(`0x${digits.length % 2 === 0 ? digits : `0${digits}`}`), modLen - Math.ceil(digits.length / 2))
  }
  return success(gas, output)
}

/** The operand at `input[start, start + length)`, zeros past the input's end. */
function readOperand(input: Uint8Array, start: number, length: number): bigint {
  if (length === 0 || start >= input.length) return 0n
  const present = Math.min(length, input.length - start)
  const value = bytesToBigInt(input.subarray(start, start + present))
  return present === length ? value : value << BigInt(8 * (length - present))
}

/**
 * base^e mod m, e read byte by byte from the input (never built as a bigint): square-and-multiply for short exponents,
 * a fixed 4-bit window past 8 significant bytes, where its 14 multiplications for the table pay for themselves.
 */
function powMod(base: bigint, input: Uint8Array, expStart: number, expLen: number, m: bigint): bigint {
  const available = Math.max(0, Math.min(expLen, input.length - expStart))
  let first = 0
  while (first < available && input[expStart + first] === 0) first++
  if (first === available) return 1n % m // a zero exponent (its zero padding too)
  const significant = expLen - first
  let r = 1n
  if (significant <= 8) {
    for (let i = first; i < expLen; i++) {
      const byte = i < available ? input[expStart + i]! : 0
      for (let bit = 7; bit >= 0; bit--) {
        r = (r * r) % m
        if ((byte >> bit) & 1) r = (r * base) % m
      }
    }
    return r % m
  }
  const table: bigint[] = [1n, base]
  for (let i = 2; i < 16; i++) table.push((table[i - 1]! * base) % m)
  for (let i = first; i < expLen; i++) {
    const byte = i < available ? input[expStart + i]! : 0
    for (let s = 0; s < 4; s++) r = (r * r) % m
    if (byte >> 4) r = (r * table[byte >> 4]!) % m
    for (let s = 0; s < 4; s++) r = (r * r) % m
    if (byte & 15) r = (r * table[byte & 15]!) % m
  }
  return r % m
}
