import { keccak256 } from '../crypto/keccak.js'
import type { PlainAccount } from '../state/accountsRoot.js'
import { type Item, assemble } from '../testing/asm.js'
import { hexToBytes } from '../util/hex.js'
import { BENCH_TOKEN_BALANCE_OF_SLOT, BENCH_TOKEN_RUNTIME } from './benchToken.js'

// The cases of bench:evm: each a contract, its calldata and the state it runs on, the same for Sponge's interpreter and
// EthereumJS's. The opcode-family loops are written with the test assembler; each folds what its opcodes compute into
// the word it returns (or leaves it in storage or memory it returns), so a wrong result shows as a disagreement, not
// only a wrong gas figure.

export interface EvmCase {
  name: string
  description: string
  /** The pre-state: the caller, the contracts, their storage. */
  accounts: Map<bigint, PlainAccount>
  caller: bigint
  to: bigint
  input: Uint8Array
  gas: number
  /** Storage read after the run on both engines and compared: [address, slot]. */
  slots: [bigint, bigint][]
  /** The output a correct run returns, when the case knows it (checked on both engines). */
  expectedOutput?: bigint
}

export const CALLER = 0x1000000000000000000000000000000000000001n
export const HOLDER = CALLER
export const RECIPIENT = 0x2000000000000000000000000000000000000002n
const CODE_BASE = 0xc0de000000000000000000000000000000000000n
const GAS = 10_000_000
const ETHER = 10n ** 18n

/** The address of a mapping entry at `slot` for `key` (Solidity's layout: keccak256(key word ++ slot word)). */
export function mappingSlot(key: bigint, slot: number | bigint): bigint {
  const buf = new Uint8Array(64)
  const view = new DataView(buf.buffer)
  for (let i = 0; i < 4; i++) {
    view.setBigUint64(i * 8, (key >> BigInt(192 - i * 64)) & 0xffffffffffffffffn)
    view.setBigUint64(32 + i * 8, (BigInt(slot) >> BigInt(192 - i * 64)) & 0xffffffffffffffffn)
  }
  let v = 0n
  for (const b of keccak256(buf)) v = (v << 8n) | BigInt(b)
  return v
}

/** A value as a push of exactly `bytes` bytes (PUSH1…PUSH32). */
export function push(v: bigint | number, bytes = 32): `0x${string}` {
  const digits = BigInt(v).toString(16)
  if (digits.length > bytes * 2) throw new Error(`${v} does not fit in ${bytes} bytes`)
  return `0x${digits.padStart(bytes * 2, '0')}`
}

/**
 * A counted loop: `body` `n` times with the counter (n down to 1) on top of the stack (the body leaves the stack as it
 * found it), then `finish` with the counter gone. Labels are prefixed so loops can follow one another.
 */
export function loop(name: string, n: number, body: Item[], finish: Item[] = []): Item[] {
  return [push(n, 2), { label: `${name}:top` }, ...body, '0x01', 'SWAP1', 'SUB', 'DUP1', { target: `${name}:top` }, 'JUMPI', 'POP', ...finish]
}

/** Returns the word on top of the stack. */
const RETURN_TOP: Item[] = ['PUSH0', 'MSTORE', '0x20', 'PUSH0', 'RETURN']

/** An accumulator under the counter: the body swaps it up, folds into it, and swaps back. */
function accumulate(name: string, n: number, seed: bigint, fold: Item[]): Item[] {
  return [push(seed), ...loop(name, n, ['SWAP1', ...fold, 'SWAP1']), ...RETURN_TOP]
}

const K1 = 0x9e3779b97f4a7c15f39cc0605cedc8341082276bf3a27251f86c6a11d0c18e95n
const K2 = 0xbf58476d1ce4e5b94a7c15f39cc0605cedc8341082276bf3a27251f86c6a11dn
const K3 = 0x94d049bb133111eb1ce4e5b94a7c15f39cc0605cedc8341082276bf3a2727n
/** 2²⁵⁵ − 19: a modulus that keeps the accumulator 255 bits wide. */
const P = (1n << 255n) - 19n

const ARITHMETIC: Item[] = accumulate('arith', 500, K1, [
  push(K1),
  'ADD',
  push(K2),
  'MUL',
  push(K3),
  'SWAP1',
  'SUB',
  '0x07',
  'SWAP1',
  'DIV',
  push(K2),
  'MUL',
  push(K3),
  'SWAP1',
  'SDIV',
  push(K1),
  'ADD',
  push(P),
  'SWAP1',
  'MOD',
  push(K3),
  'SWAP1',
  'SMOD',
  push(K2),
  'XOR',
  push(0x10001, 3),
  'SWAP1',
  'EXP',
  push(P),
  push(K2),
  'DUP3',
  'ADDMOD',
  'SWAP1',
  'POP',
  push(P),
  push(K1),
  'DUP3',
  'MULMOD',
  'SWAP1',
  'POP',
  push(K1),
  'ADD',
  '0x1e',
  'SIGNEXTEND',
])

const BITWISE: Item[] = accumulate('bits', 1000, K2, [
  push(K1),
  'XOR',
  'DUP1',
  push(K2),
  'LT',
  'ADD',
  'DUP1',
  push(K3),
  'GT',
  'ADD',
  'DUP1',
  push(K2),
  'SLT',
  'ADD',
  'DUP1',
  push(K1),
  'SGT',
  'ADD',
  'DUP1',
  'DUP1',
  'EQ',
  'ADD',
  'DUP1',
  'ISZERO',
  'ADD',
  push(K3),
  'OR',
  push(K2),
  'AND',
  'NOT',
  '0x03',
  'SHL',
  'DUP1',
  '0x0b',
  'BYTE',
  'XOR',
  '0x05',
  'SHR',
  'DUP1',
  'CLZ',
  'ADD',
  '0x07',
  'SAR',
  push(K1),
  'XOR',
])

/** PUSH of every width, DUPs and SWAPs down to the 16th item, POPs, the rest folded with XOR. */
const STACK: Item[] = accumulate('stack', 500, K3, [
  'PUSH0',
  ...[1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 16, 20, 24, 28, 32].map((w) => push((K1 >> BigInt(256 - w * 8)) | 1n, w)),
  'DUP16',
  'DUP15',
  'DUP3',
  'DUP8',
  'DUP1',
  'SWAP1',
  'SWAP2',
  'SWAP3',
  'SWAP4',
  'SWAP5',
  'SWAP6',
  'SWAP7',
  'SWAP8',
  'SWAP9',
  'SWAP10',
  'SWAP11',
  'SWAP12',
  'SWAP13',
  'SWAP14',
  'SWAP15',
  'SWAP16',
  'POP',
  'POP',
  'POP',
  'POP',
  'POP',
  'POP',
  'POP',
  'POP',
  ...Array.from({ length: 13 }, (): Item => 'XOR'),
])

/**
 * A kilobyte of memory read and written word by word at a moving offset, a byte stored, 64 bytes copied within it
 * (unaligned); the whole region returned.
 */
const MEMORY: Item[] = [
  ...loop('mem', 1000, [
    'DUP1',
    '0x05',
    'SHL',
    push(0x3ff, 2),
    'AND', //                     [i, off]
    'DUP1',
    'MLOAD',
    'DUP3',
    'ADD',
    'DUP2',
    'MSTORE', //                  memory[off] += i
    'DUP2',
    'DUP2',
    '0x11',
    'ADD',
    'MSTORE8', //                 memory[off + 17] = i
    '0x40',
    'DUP2',
    'DUP1',
    push(0x123, 2),
    'XOR',
    'MCOPY', //                   64 bytes from off to off ^ 0x123
    'POP',
  ]),
  push(0x440, 2),
  'PUSH0',
  'RETURN',
]

/** Four slots read and written in turn (warm after the first time each), one only read. */
const STORAGE: Item[] = loop(
  'sto',
  500,
  ['DUP1', '0x03', 'AND', 'DUP1', 'SLOAD', 'DUP3', 'ADD', 'SWAP1', 'SSTORE', '0x10', 'SLOAD', 'POP'],
  ['PUSH0', 'SLOAD', ...RETURN_TOP],
)

/** What the frame, the transaction and the block say, folded together; GAS too, so the gas at each step is compared. */
const ENVIRONMENT: Item[] = accumulate('env', 500, K1, [
  'CALLER',
  'XOR',
  'CALLVALUE',
  'ADD',
  '0x04',
  'CALLDATALOAD',
  'XOR',
  'CALLDATASIZE',
  'ADD',
  'ADDRESS',
  'XOR',
  'ORIGIN',
  'XOR',
  'GASPRICE',
  'ADD',
  'CODESIZE',
  'ADD',
  'COINBASE',
  'XOR',
  'TIMESTAMP',
  'ADD',
  'NUMBER',
  'ADD',
  'PREVRANDAO',
  'XOR',
  'GASLIMIT',
  'ADD',
  'CHAINID',
  'ADD',
  'SELFBALANCE',
  'ADD',
  'BASEFEE',
  'ADD',
  'BLOBBASEFEE',
  'ADD',
  'CALLER',
  'BALANCE',
  'XOR',
  'MSIZE',
  'ADD',
  'RETURNDATASIZE',
  'ADD',
  'PC',
  'ADD',
  'GAS',
  'XOR',
])

/** JUMP, a taken JUMPI, a JUMPI not taken, four times a turn (and the loop's own JUMPI). */
const CONTROL: Item[] = loop(
  'ctl',
  1000,
  [0, 1, 2, 3].flatMap((k): Item[] => [
    { target: `ctl:a${k}` },
    'JUMP',
    'INVALID',
    { label: `ctl:a${k}` },
    '0x01',
    { target: `ctl:b${k}` },
    'JUMPI',
    'INVALID',
    { label: `ctl:b${k}` },
    'PUSH0',
    { target: `ctl:c${k}` },
    'JUMPI',
    { label: `ctl:c${k}` },
  ]),
  ['PC', ...RETURN_TOP],
)

/** A chain of hashes: 64 bytes (a mapping's slot) and 512 bytes each turn; the last two returned. */
const KECCAK: Item[] = [
  push(K1),
  'PUSH0',
  'MSTORE',
  ...loop('kec', 1000, ['0x40', 'PUSH0', 'KECCAK256', 'PUSH0', 'MSTORE', push(0x200, 2), 'PUSH0', 'KECCAK256', '0x20', 'MSTORE']),
  '0x40',
  'PUSH0',
  'RETURN',
]

const CHUNK_SHIFT = 13 // 8 KiB
const CHUNKS = 64 // 512 KiB

/**
 * 512 KiB of memory, grown 8 KiB at a time (a byte stored at each chunk's end), code copied into each chunk, then each
 * chunk copied over the next one (MCOPY); the last chunk returned.
 */
const MEMORY_HEAVY: Item[] = [
  // Counting down, the byte at the end of chunk CHUNKS + 1 - i: memory grows a chunk a turn.
  ...loop('grow', CHUNKS, ['DUP1', 'DUP1', push(CHUNKS + 1, 1), 'SUB', push(CHUNK_SHIFT, 1), 'SHL', '0x01', 'SWAP1', 'SUB', 'MSTORE8']),
  ...loop('code', CHUNKS - 1, [push(1 << CHUNK_SHIFT, 2), 'PUSH0', 'DUP3', push(CHUNK_SHIFT, 1), 'SHL', 'CODECOPY']),
  ...loop('copy', CHUNKS - 1, [
    push(1 << CHUNK_SHIFT, 2),
    'DUP2',
    '0x01',
    'SWAP1',
    'SUB',
    push(CHUNK_SHIFT, 1),
    'SHL',
    'DUP3',
    push(CHUNK_SHIFT, 1),
    'SHL',
    'MCOPY',
  ]),
  push(1 << CHUNK_SHIFT, 2),
  push((CHUNKS - 1) << CHUNK_SHIFT, 3),
  'RETURN',
]

/** Calls itself with the first calldata word less one until it is zero; each level returns its callee's answer plus one. */
const DEEP: Item[] = [
  'PUSH0',
  'CALLDATALOAD',
  'DUP1',
  'ISZERO',
  { target: 'bottom' },
  'JUMPI',
  '0x01',
  'SWAP1',
  'SUB',
  'PUSH0',
  'MSTORE',
  '0x20',
  'PUSH0',
  '0x20',
  'PUSH0',
  'PUSH0',
  'ADDRESS',
  'GAS',
  'CALL',
  'POP',
  'PUSH0',
  'MLOAD',
  '0x01',
  'ADD',
  ...RETURN_TOP,
  { label: 'bottom' },
  ...RETURN_TOP,
]

/** Returns its first calldata word plus one. */
const INCREMENT: Item[] = ['PUSH0', 'CALLDATALOAD', '0x01', 'ADD', ...RETURN_TOP]

/** CALLs `target` (INCREMENT) once a turn with the counter, adding up the answers; returns the sum. */
function callsInARow(target: bigint, n: number): Item[] {
  return [
    ...loop('calls', n, [
      'DUP1',
      'PUSH0',
      'MSTORE',
      '0x20',
      '0x20',
      '0x20',
      'PUSH0',
      'PUSH0',
      push(target, 20),
      'GAS',
      'CALL',
      'POP',
      '0x20',
      'MLOAD',
      '0x40',
      'MLOAD',
      'ADD',
      '0x40',
      'MSTORE',
    ]),
    '0x20',
    '0x40',
    'RETURN',
  ]
}

const code = (items: Item[]): Uint8Array => hexToBytes(assemble(items))
const STORAGE_SLOTS: [bigint, bigint][] = [0n, 1n, 2n, 3n, 16n].map((s) => [s, K1 >> (s * 8n)])

const account = (c: Uint8Array, storage: [bigint, bigint][] = [], balance = 0n): PlainAccount => ({
  nonce: c.length > 0 ? 1n : 0n,
  balance,
  code: c,
  storage: new Map(storage),
})

function selector(signature: string): string {
  return Buffer.from(keccak256(new TextEncoder().encode(signature)).subarray(0, 4)).toString('hex')
}

const word = (v: bigint) => v.toString(16).padStart(64, '0')

/** Every case; the caller (an account with ether) is in each state, the contracts at CODE_BASE + 1, + 2, … */
export function evmCases(): EvmCase[] {
  const cases: EvmCase[] = []
  let next = CODE_BASE + 1n
  /** The case's first contract is the one called; returns its address. */
  const add = (name: string, description: string, contracts: [Uint8Array, [bigint, bigint][]][], input: string, more: Partial<EvmCase> = {}) => {
    const accounts = new Map<bigint, PlainAccount>([[CALLER, account(new Uint8Array(0), [], 1000n * ETHER)]])
    const to = next
    for (const [c, storage] of contracts) accounts.set(next++, account(c, storage, ETHER))
    cases.push({ name, description, accounts, caller: CALLER, to, input: hexToBytes(`0x${input}`), gas: GAS, slots: [], ...more })
    return to
  }
  add('arithmetic', 'ADD MUL SUB DIV SDIV MOD SMOD EXP ADDMOD MULMOD SIGNEXTEND, 500 turns', [[code(ARITHMETIC), []]], '')
  add('bitwise', 'LT GT SLT SGT EQ ISZERO AND OR XOR NOT BYTE SHL SHR SAR CLZ, 1000 turns', [[code(BITWISE), []]], '')
  add('stack', 'PUSH0-PUSH32, DUP, SWAP to 16, POP, 500 turns', [[code(STACK), []]], '')
  add('memory', 'MLOAD MSTORE MSTORE8 MCOPY in 1 KiB, 1000 turns', [[code(MEMORY), []]], '')
  const storageAt = next
  add('storage', 'SLOAD SSTORE on four slots (warm after the first), SLOAD of a fifth, 500 turns', [[code(STORAGE), STORAGE_SLOTS]], '', {
    slots: STORAGE_SLOTS.slice(0, 4).map(([s]) => [storageAt, s]),
  })
  add('environment', 'CALLER CALLVALUE CALLDATALOAD ORIGIN … BALANCE GAS, 500 turns', [[code(ENVIRONMENT), []]], word(K2).repeat(2))
  add('control flow', 'JUMP, JUMPI taken and not, 1000 turns', [[code(CONTROL), []]], '')
  add('keccak', 'KECCAK256 of 64 B and 512 B chained, 1000 turns', [[code(KECCAK), []]], '')
  add('memory heavy', '512 KiB grown 8 KiB at a time, CODECOPY and MCOPY of 8 KiB chunks', [[code(MEMORY_HEAVY), []]], '')

  const token = hexToBytes(BENCH_TOKEN_RUNTIME)
  const holderSlot = mappingSlot(HOLDER, BENCH_TOKEN_BALANCE_OF_SLOT)
  const recipientSlot = mappingSlot(RECIPIENT, BENCH_TOKEN_BALANCE_OF_SLOT)
  const tokenStorage: [bigint, bigint][] = [
    [holderSlot, 1_000_000n * ETHER],
    [recipientSlot, 5n * ETHER],
    [2n, 1_000_005n * ETHER], // totalSupply
  ]
  const transferAt = next
  add(
    'ERC-20 transfer',
    'BenchToken.transfer(recipient, 1 token), solc 0.8.28',
    [[token, tokenStorage]],
    `${selector('transfer(address,uint256)')}${word(RECIPIENT)}${word(ETHER)}`,
    {
      expectedOutput: 1n,
      slots: [
        [transferAt, holderSlot],
        [transferAt, recipientSlot],
      ],
    },
  )
  add('ERC-20 balanceOf', 'BenchToken.balanceOf(holder), solc 0.8.28', [[token, tokenStorage]], `${selector('balanceOf(address)')}${word(HOLDER)}`, {
    expectedOutput: 1_000_000n * ETHER,
  })

  add('calls: depth 100', 'a contract CALLing itself 100 deep, each level adding one to the answer', [[code(DEEP), []]], word(100n), {
    expectedOutput: 100n,
  })
  add(
    'calls: 100 in a row',
    'a loop of 100 CALLs to a contract returning its input plus one',
    [
      [code(callsInARow(next + 1n, 100)), []],
      [code(INCREMENT), []],
    ],
    '',
    { expectedOutput: 5150n },
  )
  return cases
}
