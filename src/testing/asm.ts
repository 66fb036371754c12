import { bytesToHex, hexToBytes } from '../util/hex.js'
import { leftAligned as word } from './words.js'

// A minimal EVM assembler for the benchmark contracts: opcodes by name, pushes of fixed-width immediates, and
// labels resolved to 2-byte jump targets. Enough to write small contracts readably, no more.

const OPCODES = {
  STOP: 0x00,
  ADD: 0x01,
  SUB: 0x03,
  LT: 0x10,
  GT: 0x11,
  EQ: 0x14,
  ISZERO: 0x15,
  SHR: 0x1c,
  CALLER: 0x33,
  CALLVALUE: 0x34,
  CALLDATALOAD: 0x35,
  CALLDATASIZE: 0x36,
  NUMBER: 0x43,
  GAS: 0x5a,
  POP: 0x50,
  MLOAD: 0x51,
  MSTORE: 0x52,
  SLOAD: 0x54,
  SSTORE: 0x55,
  JUMP: 0x56,
  JUMPI: 0x57,
  JUMPDEST: 0x5b,
  DUP1: 0x80,
  DUP2: 0x81,
  SWAP1: 0x90,
  SWAP2: 0x91,
  LOG1: 0xa1,
  LOG2: 0xa2,
  LOG3: 0xa3,
  RETURN: 0xf3,
  STATICCALL: 0xfa,
  REVERT: 0xfd,
} as const

export type Op = keyof typeof OPCODES
/** An opcode, a push of hex bytes (`0x…`, PUSH1–PUSH32 by length), a label, or a push of a label's offset. */
export type Item = Op | `0x${string}` | { label: string } | { target: string }

export function assemble(items: Item[]): string {
  const labels = new Map<string, number>()
  let at = 0
  for (const it of items) {
    if (typeof it === 'object' && 'label' in it) labels.set(it.label, at)
    at += size(it)
  }
  const out: number[] = []
  for (const it of items) {
    if (typeof it === 'object') {
      if ('label' in it) {
        out.push(OPCODES.JUMPDEST)
      } else {
        const to = labels.get(it.target)
        if (to === undefined) throw new Error(`unknown label ${it.target}`)
        out.push(0x61, to >> 8, to & 0xff)
      }
    } else if (it.startsWith('0x')) {
      const bytes = hexToBytes(it)
      if (bytes.length < 1 || bytes.length > 32) throw new Error(`push of ${bytes.length} bytes`)
      out.push(0x5f + bytes.length, ...bytes)
    } else {
      out.push(OPCODES[it as Op])
    }
  }
  return bytesToHex(Uint8Array.from(out))
}

function size(it: Item): number {
  if (typeof it === 'object') return 'label' in it ? 1 : 3
  return it.startsWith('0x') ? 1 + (it.length - 2) / 2 : 1
}

/** Jumps back to its start until it runs out of gas: three steps and 12 gas a turn. */
export const LOOP_FOREVER = assemble([{ label: 'top' }, { target: 'top' }, 'JUMP'])

/** Reverts with Error("nope"): Solidity's error encoding written to memory, then REVERT of its 100 bytes. */
export const REVERT_NOPE: Item[] = [
  word('08c379a0'),
  '0x00',
  'MSTORE',
  word('00000020'),
  '0x20',
  'MSTORE',
  word(`00000004${Buffer.from('nope').toString('hex')}`),
  '0x40',
  'MSTORE',
  '0x64',
  '0x00',
  'REVERT',
]
