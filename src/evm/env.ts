// What the interpreter reads of the block and the transaction it runs in.

export interface BlockEnv {
  coinbase: bigint
  number: bigint
  timestamp: bigint
  gasLimit: bigint
  /** PREVRANDAO from Paris, DIFFICULTY before. */
  prevRandao: bigint
  difficulty: bigint
  baseFee: bigint
  blobBaseFee: bigint
  chainId: bigint
  /** The hash of an earlier block, for BLOCKHASH (asked only for the 256 before `number`). */
  blockHash(number: bigint): bigint
}

export interface TxEnv {
  origin: bigint
  gasPrice: bigint
  blobHashes: readonly bigint[]
}
