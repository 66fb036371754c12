// What eth_call, eth_estimateGas, eth_createAccessList and debug_traceCall are asked (decoded from the wire by the
// handler) and what one run answers. Plain data: it crosses to the worker.

export interface CallRequest {
  from?: Uint8Array
  /** undefined: contract creation. */
  to?: Uint8Array
  gas?: bigint
  gasPrice?: bigint
  maxFeePerGas?: bigint
  maxPriorityFeePerGas?: bigint
  maxFeePerBlobGas?: bigint
  blobVersionedHashes?: Uint8Array[]
  value?: bigint
  data?: Uint8Array
  accessList?: { address: Uint8Array; storageKeys: Uint8Array[] }[]
  authorizationList?: { chainId: bigint; address: Uint8Array; nonce: bigint; yParity: bigint; r: bigint; s: bigint }[]
}

export interface AccountOverride {
  balance?: bigint
  nonce?: bigint
  code?: Uint8Array
  /** Replaces all storage. */
  state?: { slot: Uint8Array; value: Uint8Array }[]
  /** Changes these slots only. */
  stateDiff?: { slot: Uint8Array; value: Uint8Array }[]
  /** This account is a precompile: it moves there for the call (and this address may then get code). */
  movePrecompileTo?: Uint8Array
}

export interface BlockOverrides {
  number?: bigint
  time?: bigint
  gasLimit?: bigint
  feeRecipient?: Uint8Array
  prevRandao?: Uint8Array
  baseFeePerGas?: bigint
}

export interface CallInput {
  blockHash: Uint8Array
  call: CallRequest
  stateOverrides?: { address: Uint8Array; override: AccountOverride }[]
  blockOverrides?: BlockOverrides
  /** --rpc.gascap: the most gas a call may use (and an estimate may find). */
  gasCap: bigint
}

/** What one run did: a result, a revert (with its data), or another exceptional halt (out of gas, …). */
export type CallOutcome = (
  | { status: 'success'; returnData: Uint8Array }
  | { status: 'revert'; returnData: Uint8Array }
  | { status: 'halt'; error: string }
) & { gasUsed: bigint; gasRefund: bigint; accessList?: AccessListEntry[] }

export interface AccessListEntry {
  address: string
  storageKeys: string[]
}
