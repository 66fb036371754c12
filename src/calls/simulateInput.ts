import type { BlockOverrides, CallInput, CallRequest } from './callInput.js'

// What eth_simulateV1 is asked (decoded from the wire by the handler) and what it answers: plain data, it crosses to
// the worker and back.

export interface SimCall extends CallRequest {
  /** Up to 2^64-1 (the handler refuses more). */
  nonce?: bigint
}

export interface SimWithdrawal {
  index: bigint
  validatorIndex: bigint
  address: Uint8Array
  /** In gwei. */
  amount: bigint
}

export interface SimBlockOverrides extends BlockOverrides {
  /** BLOBBASEFEE and what a blob pays (the header has no such field: it keeps the excess it computes). */
  blobBaseFee?: bigint
  withdrawals?: SimWithdrawal[]
}

export interface SimBlock {
  blockOverrides?: SimBlockOverrides
  stateOverrides?: CallInput['stateOverrides']
  calls: SimCall[]
}

export interface SimulateInput {
  blockHash: Uint8Array
  blocks: SimBlock[]
  validation: boolean
  /** Ether transfers reported as logs (transferLogs.ts). */
  traceTransfers: boolean
  fullTransactions: boolean
  /** --rpc.gascap: the gas every call of the simulation may use together (0: no bound). */
  gasCap: bigint
}

export interface SimCallResult {
  /** Empty unless the call succeeded (geth's result.Return()). */
  returnData: Uint8Array
  /** Each log's reply JSON. */
  logs: string[]
  gasUsed: bigint
  maxUsedGas: bigint
  status: 0 | 1
  /** Set when the call reverted: its data. */
  revert?: Uint8Array
  /** Another failure, in geth's words. */
  error?: string
}

export interface SimBlockResult {
  /** The block's JSON up to its closing brace, without `transactions`. */
  blockJson: string
  /** Transaction hashes as JSON strings, or full transaction objects. */
  transactions: string[]
  calls: SimCallResult[]
}

/**
 * The simulated blocks; null when the base block is not stored. Why a simulation stops is thrown as a SimulationError
 * (calls/errors.ts), whose kind src/rpc/errorMap.ts gives the spec's code.
 */
export type SimulateOutcome = { blocks: SimBlockResult[] } | null
