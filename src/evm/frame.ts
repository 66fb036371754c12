import type { AnalyzedCode } from './code.js'
import type { Halt } from './halts.js'
import type { Memory } from './memory.js'
import type { Account } from './state.js'

// A call frame and the message that starts one.

export const CallKind = {
  call: 0,
  callcode: 1,
  delegatecall: 2,
  staticcall: 3,
  create: 4,
  create2: 5,
} as const
export type CallKind = (typeof CallKind)[keyof typeof CallKind]

export interface Message {
  kind: CallKind
  caller: bigint
  /** The account whose storage and balance the code acts on (the new contract for a create). */
  to: bigint
  /** Whose code runs (differs from `to` for CALLCODE, DELEGATECALL). */
  codeAddress: bigint
  /** Moved from caller to `to` (CALL, CALLCODE, creates). */
  value: bigint
  /** CALLVALUE as the code sees it (DELEGATECALL keeps its parent's). */
  apparentValue: bigint
  /** Call data, or the init code of a create. */
  input: Uint8Array
  gas: number
  /** Gas above `gas` (wideGas.ts): 0n unless the transaction's gas limit passes 2^53. */
  gasBase: bigint
  isStatic: boolean
  depth: number
}

export const Status = {
  success: 0,
  revert: 1,
  /** An exceptional halt: all gas consumed, state reverted. */
  error: 2,
} as const
export type Status = (typeof Status)[keyof typeof Status]

export interface CallResult {
  status: Status
  gasLeft: number
  gasBase: bigint
  output: Uint8Array
  /**
   * Why the call halted exceptionally or was refused (depth, balance); undefined when it returned or reverted. Also
   * set on Frontier's create whose code deposit could not be paid, which succeeds all the same (`codeStoreOutOfGas`).
   */
  halt: Halt | undefined
  /** geth's words for `halt` (a precompile's own reason for its refusal). */
  error: string | undefined
  /** A create's new contract, when it succeeded. */
  created: bigint | undefined
}

export class Frame {
  pc = 0
  sp = 0
  gas: number
  gasBase: bigint
  returnData: Uint8Array = EMPTY
  output: Uint8Array = EMPTY
  halt: Halt | undefined = undefined
  /** The message this frame has asked to run (a CALL or CREATE it executes), while it waits for the result. */
  pending: Message | undefined = undefined
  /** Where the pending call's output goes in memory. */
  retOffset = 0
  retSize = 0

  constructor(
    readonly msg: Message,
    readonly code: AnalyzedCode,
    readonly account: Account,
    readonly stack: bigint[],
    readonly memory: Memory,
    readonly checkpoint: number,
  ) {
    this.gas = msg.gas
    this.gasBase = msg.gasBase
  }
}

export const EMPTY = new Uint8Array(0)
