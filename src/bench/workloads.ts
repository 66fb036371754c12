import { devAccounts } from '../chain/dev.js'
import type { GethGenesisFile } from '../chain/genesis.js'
import { type TxShape, recipient } from './chainGen.js'
import { assemble, keccakMemoryLoop } from '../testing/asm.js'

// The execution workloads of bench:exec: what a block of each is made of, and the contracts it needs at genesis.

export interface Workload {
  name: string
  description: string
  /** Accounts added to the dev genesis: the workload's contracts and their storage. */
  alloc: GethGenesisFile['alloc']
  /** Roughly the gas one transaction uses, to size the generated chain. */
  gasPerTx: number
  /**
   * Gas of each generated block, when not full ones: the transactions are sent one block's worth at a time and a
   * block made of each, as a consensus client's stream would bring them.
   */
  blockGas?: number
  tx(i: number): TxShape
}

const word = (v: bigint | number | string) => `0x${BigInt(v).toString(16).padStart(64, '0')}`

export const TOKEN = '0x00000000000000000000000000000000000c0de1'
export const CALLER = '0x00000000000000000000000000000000000c0de2'
const TARGET = '0x00000000000000000000000000000000000c0de3'
export const HEAVY = '0x00000000000000000000000000000000000c0de6'
export const HEAVY_TURNS = 4000
/** keccak256("Transfer(address,address,uint256)"). */
export const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
export const CALLS_PER_TX = 16

/**
 * An ERC-20-shaped token without the ABI: calldata is (to, amount) as two words, balances live at slot = address.
 * A transfer reads and writes the sender's slot, creates the recipient's, and logs Transfer(from, to, amount).
 */
const TOKEN_CODE = assemble([
  '0x20',
  'CALLDATALOAD', //                       [amount]
  'CALLER',
  'SLOAD', //                            [balance, amount]
  'DUP2',
  'DUP2',
  'LT',
  { target: 'fail' },
  'JUMPI',
  'SUB',
  'CALLER',
  'SSTORE', //                    balance[from] -= amount
  '0x00',
  'CALLDATALOAD',
  'DUP1',
  'SLOAD', //      [balance[to], to]
  '0x20',
  'CALLDATALOAD',
  'ADD',
  'SWAP1',
  'SSTORE', // balance[to] += amount
  '0x20',
  'CALLDATALOAD',
  '0x00',
  'MSTORE',
  '0x00',
  'CALLDATALOAD',
  'CALLER',
  TRANSFER_TOPIC,
  '0x20',
  '0x00',
  'LOG3',
  'STOP',
  { label: 'fail' },
  '0x00',
  'DUP1',
  'REVERT',
])

/** Returns storage[slot] + 1 for the slot given in the first calldata word. */
const TARGET_CODE = assemble(['0x00', 'CALLDATALOAD', 'SLOAD', '0x01', 'ADD', '0x00', 'MSTORE', '0x20', '0x00', 'RETURN'])

/**
 * Starts from the seed in the first calldata word, STATICCALLs TARGET once per slot 0…15 adding up the answers, and
 * stores the sum at slot = sender: call-heavy execution with cold storage reads in the callee.
 */
const CALLER_CODE = assemble([
  '0x00',
  'CALLDATALOAD',
  '0x00', //               [i = 0, acc = seed]
  { label: 'loop' },
  'DUP1',
  `0x${CALLS_PER_TX.toString(16).padStart(2, '0')}`,
  'GT',
  'ISZERO',
  { target: 'end' },
  'JUMPI',
  'DUP1',
  '0x00',
  'MSTORE', //                     argument: i
  '0x20',
  '0x20',
  '0x20',
  '0x00',
  TARGET,
  'GAS',
  'STATICCALL',
  'ISZERO',
  { target: 'fail' },
  'JUMPI',
  '0x20',
  'MLOAD',
  'SWAP1',
  'SWAP2',
  'ADD',
  'SWAP1', // acc += answer
  '0x01',
  'ADD',
  { target: 'loop' },
  'JUMP',
  { label: 'end' },
  'POP',
  'CALLER',
  'SSTORE',
  'STOP',
  { label: 'fail' },
  '0x00',
  'DUP1',
  'REVERT',
])

/**
 * Heavy contract execution (loops, keccak, memory): with the seed of the first calldata word at mem[32], for i =
 * HEAVY_TURNS down to 1, mem[0] = i and mem[64 + 32i] = keccak256(mem[0..64]) (memory grows to ~125 KiB); then
 * stores mem[96] = keccak256(word(1) ++ word(seed)) at slot = sender, so the work is not dead. ~0.5 M gas a call.
 */
const HEAVY_CODE = assemble([
  '0x00',
  'CALLDATALOAD',
  '0x20',
  'MSTORE',
  ...keccakMemoryLoop(HEAVY_TURNS),
  'POP',
  '0x60',
  'MLOAD',
  'CALLER',
  'SSTORE',
  'STOP',
])

function tokenAlloc(): GethGenesisFile['alloc'] {
  const storage: Record<string, string> = {}
  for (const a of devAccounts()) storage[word(a.address)] = word(10n ** 30n)
  return { [TOKEN]: { balance: '0x0', code: TOKEN_CODE, storage } }
}

function callsAlloc(): GethGenesisFile['alloc'] {
  const storage: Record<string, string> = {}
  for (let slot = 0; slot < CALLS_PER_TX; slot++) storage[word(slot)] = word(1000 + slot)
  return {
    [CALLER]: { balance: '0x0', code: CALLER_CODE },
    [TARGET]: { balance: '0x0', code: TARGET_CODE, storage },
  }
}

const transfer = (i: number): TxShape => ({ to: recipient(i), value: 1n, gasLimit: 21_000n })
const tokenTransfer = (i: number): TxShape => ({ to: TOKEN, data: `${word(recipient(i))}${word(1).slice(2)}`, gasLimit: 60_000n })
const contractCall = (i: number): TxShape => ({ to: CALLER, data: word(i + 1), gasLimit: 100_000n })
const heavyCall = (i: number): TxShape => ({ to: HEAVY, data: word(i + 1), gasLimit: 600_000n })
/** Of every ten transactions of a mixed block: five transfers, three token transfers, two contract calls. */
const MIXED = [transfer, transfer, transfer, transfer, transfer, tokenTransfer, tokenTransfer, tokenTransfer, contractCall, contractCall]

export const WORKLOADS: Workload[] = [
  {
    name: 'transfers',
    description: 'ETH transfers of 1 wei, each to a new account',
    alloc: {},
    gasPerTx: 21_000,
    tx: transfer,
  },
  {
    name: 'tokens',
    description: 'token transfers: two storage reads, an existing slot updated, a new slot created, a LOG3',
    alloc: tokenAlloc(),
    gasPerTx: 50_300,
    tx: tokenTransfer,
  },
  {
    name: 'calls',
    description: `contract calls: ${CALLS_PER_TX} STATICCALLs to a contract reading a cold slot each, one storage write`,
    alloc: callsAlloc(),
    gasPerTx: 66_300,
    tx: contractCall,
  },
  {
    name: 'mixed',
    description: 'blocks of ~15 M gas, of every ten transactions five ETH transfers, three token transfers and two contract calls',
    alloc: { ...tokenAlloc(), ...callsAlloc() },
    gasPerTx: 38_900,
    blockGas: 15_000_000,
    tx: (i) => MIXED[i % MIXED.length]!(i),
  },
  {
    name: 'heavy',
    description: `heavy contract execution: ${HEAVY_TURNS} turns of a loop writing a keccak-256 of memory to memory (~125 KiB), one storage write`,
    alloc: { [HEAVY]: { balance: '0x0', code: HEAVY_CODE } },
    gasPerTx: 500_000,
    tx: heavyCall,
  },
]

/**
 * The token workload over a bigger state, for the cost curve: `n` more funded accounts and `n` more token holders
 * at genesis, so every account and slot the blocks touch sits deeper in its trie.
 */
export function tokensOverState(n: number): Workload {
  const base = WORKLOADS.find((w) => w.name === 'tokens')!
  const alloc = tokenAlloc()
  const storage = alloc[TOKEN]!.storage!
  for (let i = 0; i < n; i++) {
    const holder = `0x${(0x40000000 + i).toString(16).padStart(40, '0')}`
    alloc[holder] = { balance: '0x1' }
    storage[word(holder)] = word(1)
  }
  return { ...base, name: `tokens@${n}`, description: `${base.description}; ${n} more funded accounts and holders in the state`, alloc }
}
