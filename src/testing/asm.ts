import { bytesToHex, hexToBytes } from '../util/hex.js'
import { leftAligned as word } from './words.js'

// A minimal EVM assembler for the benchmark contracts: opcodes by name (every opcode through Osaka but CREATE, CREATE2 and
// SELFDESTRUCT), pushes of fixed-width immediates, and labels resolved to 2-byte jump targets. Enough to write small
// contracts readably, no more.

const OPCODES = {
  STOP: 0x00,
  ADD: 0x01,
  MUL: 0x02,
  SUB: 0x03,
  DIV: 0x04,
  SDIV: 0x05,
  MOD: 0x06,
  SMOD: 0x07,
  ADDMOD: 0x08,
  MULMOD: 0x09,
  EXP: 0x0a,
  SIGNEXTEND: 0x0b,
  LT: 0x10,
  GT: 0x11,
  SLT: 0x12,
  SGT: 0x13,
  EQ: 0x14,
  ISZERO: 0x15,
  AND: 0x16,
  OR: 0x17,
  XOR: 0x18,
  NOT: 0x19,
  BYTE: 0x1a,
  SHL: 0x1b,
  SHR: 0x1c,
  SAR: 0x1d,
  CLZ: 0x1e,
  KECCAK256: 0x20,
  ADDRESS: 0x30,
  BALANCE: 0x31,
  ORIGIN: 0x32,
  CALLER: 0x33,
  CALLVALUE: 0x34,
  CALLDATALOAD: 0x35,
  CALLDATASIZE: 0x36,
  CALLDATACOPY: 0x37,
  CODESIZE: 0x38,
  CODECOPY: 0x39,
  GASPRICE: 0x3a,
  EXTCODESIZE: 0x3b,
  EXTCODECOPY: 0x3c,
  RETURNDATASIZE: 0x3d,
  RETURNDATACOPY: 0x3e,
  EXTCODEHASH: 0x3f,
  BLOCKHASH: 0x40,
  COINBASE: 0x41,
  TIMESTAMP: 0x42,
  NUMBER: 0x43,
  PREVRANDAO: 0x44,
  GASLIMIT: 0x45,
  CHAINID: 0x46,
  SELFBALANCE: 0x47,
  BASEFEE: 0x48,
  BLOBHASH: 0x49,
  BLOBBASEFEE: 0x4a,
  POP: 0x50,
  MLOAD: 0x51,
  MSTORE: 0x52,
  MSTORE8: 0x53,
  SLOAD: 0x54,
  SSTORE: 0x55,
  JUMP: 0x56,
  JUMPI: 0x57,
  PC: 0x58,
  MSIZE: 0x59,
  GAS: 0x5a,
  JUMPDEST: 0x5b,
  TLOAD: 0x5c,
  TSTORE: 0x5d,
  MCOPY: 0x5e,
  PUSH0: 0x5f,
  DUP1: 0x80,
  DUP2: 0x81,
  DUP3: 0x82,
  DUP4: 0x83,
  DUP5: 0x84,
  DUP6: 0x85,
  DUP7: 0x86,
  DUP8: 0x87,
  DUP9: 0x88,
  DUP10: 0x89,
  DUP11: 0x8a,
  DUP12: 0x8b,
  DUP13: 0x8c,
  DUP14: 0x8d,
  DUP15: 0x8e,
  DUP16: 0x8f,
  SWAP1: 0x90,
  SWAP2: 0x91,
  SWAP3: 0x92,
  SWAP4: 0x93,
  SWAP5: 0x94,
  SWAP6: 0x95,
  SWAP7: 0x96,
  SWAP8: 0x97,
  SWAP9: 0x98,
  SWAP10: 0x99,
  SWAP11: 0x9a,
  SWAP12: 0x9b,
  SWAP13: 0x9c,
  SWAP14: 0x9d,
  SWAP15: 0x9e,
  SWAP16: 0x9f,
  LOG0: 0xa0,
  LOG1: 0xa1,
  LOG2: 0xa2,
  LOG3: 0xa3,
  LOG4: 0xa4,
  CALL: 0xf1,
  CALLCODE: 0xf2,
  RETURN: 0xf3,
  DELEGATECALL: 0xf4,
  STATICCALL: 0xfa,
  REVERT: 0xfd,
  INVALID: 0xfe,
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

/** A loop's tail: the counter on top of the stack less one, and back to `label` while it is not zero (left on the stack). */
export function countDown(label: string): Item[] {
  return ['0x01', 'SWAP1', 'SUB', 'DUP1', { target: label }, 'JUMPI']
}

/**
 * `count` (1-255) times LOG1(`topic`) of `bytes` (a multiple of 32) of memory, the block number in its first word:
 * the chains that log queries and their benches read.
 */
export function logEmitter(count: number, topic: `0x${string}`, bytes: number): string {
  const push = (n: number): `0x${string}` => `0x${n.toString(16).padStart(n > 0xff ? 4 : 2, '0')}`
  return assemble([push(count), { label: 'top' }, 'NUMBER', '0x00', 'MSTORE', topic, push(bytes), '0x00', 'LOG1', ...countDown('top'), 'STOP'])
}

/**
 * Loops, keccak and memory, `turns` (1-0xffff) times, for i = turns down to 1: mem[0] = i and mem[64 + 32i] =
 * keccak256(mem[0..64]) (memory grows by a word a turn); leaves the spent counter, 0, on the stack. The heavy
 * contracts of the benches (bench:exec's block workload and bench:load's eth_call) run it.
 */
export function keccakMemoryLoop(turns: number): Item[] {
  return [
    `0x${turns.toString(16).padStart(4, '0')}`,
    { label: 'top' },
    'DUP1',
    '0x00',
    'MSTORE',
    '0x40',
    '0x00',
    'KECCAK256',
    'DUP2',
    '0x05',
    'SHL',
    '0x40',
    'ADD',
    'MSTORE',
    ...countDown('top'),
  ]
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
