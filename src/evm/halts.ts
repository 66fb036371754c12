import { OPCODE_NAMES } from './opcodeNames.js'

// Why a call frame stopped exceptionally (all its gas gone, its changes reverted), and geth's words for each
// (core/vm/errors.go): what eth_call answers, what traces print. The interpreter records the kind; the words are made
// once, when a frame ends with one. An enum: the build inlines its members as numbers (scripts/inline-enums.cjs).

export enum Halt {
  outOfGas = 1,
  invalidOpcode = 2,
  stackUnderflow = 3,
  stackOverflow = 4,
  invalidJump = 5,
  writeProtection = 6,
  returnDataOutOfBounds = 7,
  maxCodeSize = 8,
  /** EIP-3541: new code starting with 0xef. */
  invalidCode = 9,
  codeStoreOutOfGas = 10,
  addressCollision = 11,
  maxInitCodeSize = 12,
  /** A precompile refused its input (the precompile says why). */
  precompile = 13,
  /** A call or create past 1,024 frames: refused, its gas returned (not an exceptional halt of the caller). */
  depth = 14,
  /** A call or create moving more value than the caller has: refused the same way. */
  insufficientBalance = 15,
  /** A create by an account whose nonce is at 2^64-1. */
  nonceOverflow = 16,
}

const WORDS: Record<Halt, string> = {
  [Halt.outOfGas]: 'out of gas',
  [Halt.invalidOpcode]: 'invalid opcode',
  [Halt.stackUnderflow]: 'stack underflow',
  [Halt.stackOverflow]: 'stack limit reached',
  [Halt.invalidJump]: 'invalid jump destination',
  [Halt.writeProtection]: 'write protection',
  [Halt.returnDataOutOfBounds]: 'return data out of bounds',
  [Halt.maxCodeSize]: 'max code size exceeded',
  [Halt.invalidCode]: 'invalid code: must not begin with 0xef',
  [Halt.codeStoreOutOfGas]: 'contract creation code storage out of gas',
  [Halt.addressCollision]: 'contract address collision',
  [Halt.maxInitCodeSize]: 'max initcode size exceeded',
  [Halt.precompile]: 'precompile failed',
  [Halt.depth]: 'max call depth exceeded',
  [Halt.insufficientBalance]: 'insufficient balance for transfer',
  [Halt.nonceOverflow]: 'nonce uint64 overflow',
}

/** What the halting opcode saw, for the messages that quote it (geth's stack and opcode errors). */
export interface HaltContext {
  op: number
  /** Items on the stack before the opcode. */
  stackLength: number
  /** Items the opcode needs. */
  pops: number
  /** Items the opcode adds (may be negative). */
  growth: number
}

/** geth's message for a halt. */
export function haltMessage(halt: Halt, at?: HaltContext): string {
  if (at !== undefined) {
    if (halt === Halt.invalidOpcode) return `invalid opcode: ${OPCODE_NAMES[at.op]}`
    if (halt === Halt.stackUnderflow) return `stack underflow (${at.stackLength} <=> ${at.pops})`
    if (halt === Halt.stackOverflow) return `stack limit reached ${at.stackLength} (${1024 - Math.max(at.growth, 0)})`
  }
  return WORDS[halt]
}
