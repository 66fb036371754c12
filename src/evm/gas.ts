import { Fork } from '../chain/evmFork.js'
import type { Account, WorldState } from './state.js'
import { byteLength } from './words.js'

// The gas schedule: its constants by name, and each dynamic rule — what an opcode costs beyond its static gas, from
// its operands, the fork and the accounts and slots it touches — as one small function (revm's gas/calc.rs is the
// model). The static gas of every opcode is in opcodes.ts' tables, written with the tiers below. The interpreter asks
// these for a cost and charges it; a rule that depends on an account reads the state itself, only when the fork and
// operands make the answer depend on it.

// --- static tiers (the yellow paper's W_zero … W_high)

export const ZERO = 0
export const JUMPDEST = 1
export const BASE = 2
export const VERYLOW = 3
export const LOW = 5
export const MID = 8
export const HIGH = 10
export const BLOCKHASH = 20
export const KECCAK256 = 30
export const CREATE = 32000
/** From EIP-150 (Tangerine Whistle); free before. */
export const SELFDESTRUCT = 5000

// --- state access (EIP-2929, Berlin)

export const WARM_STORAGE_READ = 100
export const COLD_ACCOUNT_ACCESS = 2600
export const COLD_SLOAD = 2100

// --- storage writes (EIP-2200 net metering, EIP-3529 refunds)

export const SSTORE_SET = 20000
export const SSTORE_RESET = 5000
/** EIP-3529 (London): the refund for clearing a slot, down from 15,000. */
export const SSTORE_CLEARS_REFUND = 4800
export const SSTORE_CLEARS_REFUND_BEFORE_LONDON = 15000
/** EIP-2200's sentry: an SSTORE with this much gas or less left halts (no writes on the call stipend). */
export const SSTORE_SENTRY = 2300

// --- calls, creates, selfdestruct

export const CALL_VALUE = 9000
/** Given to the callee of a call that moves value, on top of what the caller passes. */
export const CALL_STIPEND = 2300
export const NEW_ACCOUNT = 25000
export const CODE_DEPOSIT_BYTE = 200
/** EIP-3860 (Shanghai): a word of init code. */
export const INITCODE_WORD = 2
/** Refunded for a contract's first selfdestruct in a transaction, before London (EIP-3529 took it away). */
export const SELFDESTRUCT_REFUND = 24000

// --- per word and per byte

export const COPY_WORD = 3
export const KECCAK256_WORD = 6
export const LOG_DATA_BYTE = 8
export const LOG_TOPIC = 375
export const LOG = 375
/** EIP-160 (Spurious Dragon): a byte of EXP's exponent, up from 10. */
export const EXP_BYTE = 50
export const EXP_BYTE_FRONTIER = 10
export const MEMORY_WORD = 3
export const MEMORY_QUAD_DIVISOR = 512

/** Offsets and sizes past this cannot be paid for with any gas a transaction holds: a cost of Infinity. */
const MAX_SIZE = 0xffffffff
const MAX_SIZE_BIG = BigInt(MAX_SIZE)

// --- memory

/** The gas of a memory of `words` words: 3 a word plus words² / 512, exact for any size a gas limit can buy. */
export function memoryCost(words: number): number {
  const q = Math.floor(words / MEMORY_QUAD_DIVISOR)
  const r = words - q * MEMORY_QUAD_DIVISOR
  return MEMORY_WORD * words + q * words + Math.floor((r * words) / MEMORY_QUAD_DIVISOR)
}

/** Growing a memory of `size` bytes (a multiple of 32) to cover `end` bytes, which is past it. */
export function memoryExpansionCost(size: number, end: number): number {
  return memoryCost(Math.ceil(end / 32)) - memoryCost(size / 32)
}

// --- per-word and per-byte costs

/** The words of `size` bytes at `price` each (Infinity for a size no gas pays for). */
function perWord(price: number, size: bigint): number {
  return size > MAX_SIZE_BIG ? Number.POSITIVE_INFINITY : price * Math.ceil(Number(size) / 32)
}

/** CALLDATACOPY, CODECOPY, RETURNDATACOPY, EXTCODECOPY, MCOPY: 3 a word copied. */
export function copyCost(size: bigint): number {
  return perWord(COPY_WORD, size)
}

/** KECCAK256: 6 a word hashed. */
export function keccakCost(size: bigint): number {
  return perWord(KECCAK256_WORD, size)
}

/** LOG0–LOG4: 8 a byte of data (the topics are static gas). */
export function logCost(size: bigint): number {
  return size > MAX_SIZE_BIG ? Number.POSITIVE_INFINITY : LOG_DATA_BYTE * Number(size)
}

/** EXP: a price a byte of the exponent (EIP-160 raised it). */
export function expCost(fork: Fork, exponent: bigint): number {
  return (fork >= Fork.spuriousDragon ? EXP_BYTE : EXP_BYTE_FRONTIER) * byteLength(exponent)
}

/** CREATE and CREATE2 beyond their static gas: EIP-3860's init code words, and CREATE2's hashing of the init code. */
export function createCost(fork: Fork, initSize: bigint, create2: boolean): number {
  const words = Math.ceil(Number(initSize > MAX_SIZE_BIG ? MAX_SIZE_BIG : initSize) / 32)
  return (fork >= Fork.shanghai ? INITCODE_WORD * words : 0) + (create2 ? KECCAK256_WORD * words : 0)
}

/** A create's returned code, stored. */
export function codeDepositCost(length: number): number {
  return CODE_DEPOSIT_BYTE * length
}

// --- state access

/** BALANCE, EXTCODE*, CALL*, a delegation's target, from Berlin: an account read, warm or cold. */
export function accountAccessCost(warm: boolean): number {
  return warm ? WARM_STORAGE_READ : COLD_ACCOUNT_ACCESS
}

/** SLOAD from Berlin: a slot read, warm or cold. */
export function sloadCost(warm: boolean): number {
  return warm ? WARM_STORAGE_READ : COLD_SLOAD
}

// --- SSTORE

/** SSTORE's prices in a fork, fixed per fork: made once for an EVM (sstoreSchedule), so a write asks no fork. */
export interface SstoreSchedule {
  /** Net metering (EIP-1283 in Constantinople, EIP-2200 from Istanbul): the price depends on the committed value. */
  readonly netMetered: boolean
  /** Net metering's price of a write that changes nothing it pays for: a no-op, or a slot already written. */
  readonly dirty: number
  /** Net metering's price of changing a clean slot that is not zero: from Berlin, less the cold read charged apart. */
  readonly clean: number
  /** The refund for clearing a slot (EIP-3529 cut it in London). */
  readonly clears: number
}

export function sstoreSchedule(fork: Fork): SstoreSchedule {
  const berlin = fork >= Fork.berlin
  return {
    netMetered: fork >= Fork.istanbul || fork === Fork.constantinople,
    dirty: berlin ? WARM_STORAGE_READ : fork >= Fork.istanbul ? 800 : 200,
    clean: berlin ? SSTORE_RESET - COLD_SLOAD : SSTORE_RESET,
    clears: fork >= Fork.london ? SSTORE_CLEARS_REFUND : SSTORE_CLEARS_REFUND_BEFORE_LONDON,
  }
}

/**
 * SSTORE's gas for writing `value` over `current` (EIP-2200 net metering with EIP-2929's cold slot, or the first
 * metering before Constantinople and in Petersburg). `original` is the slot's value at the transaction's start; only
 * net metering of a write that changes the slot reads it (pass `current` otherwise).
 */
export function sstoreCost(s: SstoreSchedule, original: bigint, current: bigint, value: bigint, cold: boolean): number {
  // The first metering, by the current value alone (Petersburg took Constantinople's EIP-1283 back out).
  if (!s.netMetered) return current === 0n && value !== 0n ? SSTORE_SET : SSTORE_RESET
  const coldCost = cold ? COLD_SLOAD : 0
  if (current === value || original !== current) return coldCost + s.dirty
  return coldCost + (original === 0n ? SSTORE_SET : s.clean)
}

/** The change SSTORE makes to the refund counter (negative when it takes back an earlier write's refund). */
export function sstoreRefund(s: SstoreSchedule, original: bigint, current: bigint, value: bigint): number {
  if (!s.netMetered) return current !== 0n && value === 0n ? SSTORE_CLEARS_REFUND_BEFORE_LONDON : 0
  if (current === value) return 0
  if (original === current) return original !== 0n && value === 0n ? s.clears : 0
  let refund = 0
  if (original !== 0n) {
    if (current === 0n) refund -= s.clears
    else if (value === 0n) refund += s.clears
  }
  if (original === value) refund += (original === 0n ? SSTORE_SET : s.clean) - s.dirty
  return refund
}

// --- calls

/**
 * The account a CALL may make, paid for: from EIP-161 (Spurious Dragon) a call moving value to an empty account,
 * before it a call to any account that does not exist (which the call then creates).
 */
export function callNewAccountCost(fork: Fork, state: WorldState, to: bigint, value: bigint): number {
  if (fork >= Fork.spuriousDragon) {
    if (value === 0n) return 0
    const target = state.get(to)
    return !target.exists || target.isEmpty() ? NEW_ACCOUNT : 0
  }
  return state.get(to).exists ? 0 : NEW_ACCOUNT
}

/** What a call or create may pass on of `gas`: EIP-150's all but a 64th, before it all of it. */
export function callGasCap(fork: Fork, gas: number): number {
  return fork >= Fork.tangerineWhistle ? gas - Math.floor(gas / 64) : gas
}

/** The same for gas held whole (wideGas.ts). */
export function callGasCapWide(fork: Fork, gas: bigint): bigint {
  return fork >= Fork.tangerineWhistle ? gas - gas / 64n : gas
}

// --- SELFDESTRUCT

/**
 * SELFDESTRUCT beyond its static gas: a cold beneficiary (Berlin), and the account its balance makes — from EIP-161 an
 * empty beneficiary given a balance, from EIP-150 to it one that does not exist, before EIP-150 nothing.
 */
export function selfdestructCost(fork: Fork, cold: boolean, beneficiary: Account, givesBalance: boolean): number {
  const access = cold ? COLD_ACCOUNT_ACCESS : 0
  const makes =
    fork >= Fork.spuriousDragon
      ? (!beneficiary.exists || beneficiary.isEmpty()) && givesBalance
      : fork >= Fork.tangerineWhistle && !beneficiary.exists
  return access + (makes ? NEW_ACCOUNT : 0)
}
