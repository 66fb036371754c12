// A signed transaction as a block carries it, in the domain's form: its fields as decoded from its bytes (views of
// them, not copies), its bytes and hash. What the block path (exec/blockTx.ts decodes it from a payload's bytes), the
// EVM's transaction (vm/evmTransaction.ts) and the stored replies (codecs/transaction.ts) read, in place of
// EthereumJS's transaction objects.

export interface AccessTuple {
  readonly address: Uint8Array
  readonly storageKeys: readonly Uint8Array[]
}

/** An EIP-7702 authorization tuple. */
export interface Authorization {
  readonly chainId: bigint
  readonly address: Uint8Array
  readonly nonce: bigint
  readonly yParity: bigint
  readonly r: bigint
  readonly s: bigint
}

export interface BlockTx {
  readonly type: number
  /** Its bytes as the block carries them (a typed one with its type byte): the transactions root's and body's items. */
  readonly raw: Uint8Array
  /** keccak256 of `raw`. */
  readonly hash: Uint8Array
  /** The chain id signed for: a typed transaction's, an EIP-155 legacy one's; undefined for an unprotected legacy one. */
  readonly chainId: bigint | undefined
  readonly nonce: bigint
  readonly gasLimit: bigint
  /** Types 0 and 1: the gas price; later types: undefined. */
  readonly gasPrice: bigint | undefined
  /** The gas price for types 0 and 1. */
  readonly maxFeePerGas: bigint
  /** The gas price for types 0 and 1. */
  readonly maxPriorityFeePerGas: bigint
  /** 0 for all but blob transactions. */
  readonly maxFeePerBlobGas: bigint
  /** Undefined for a contract creation. */
  readonly to: Uint8Array | undefined
  readonly value: bigint
  readonly data: Uint8Array
  readonly accessList: readonly AccessTuple[]
  readonly blobVersionedHashes: readonly Uint8Array[]
  readonly authorizationList: readonly Authorization[]
  /** v as encoded: y-parity for a typed transaction, 27/28 or EIP-155's value for a legacy one. */
  readonly v: bigint
  readonly r: bigint
  readonly s: bigint
}
