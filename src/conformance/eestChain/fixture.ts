// The execution-spec-tests `blockchain_test` fixture format, the parts the conversion reads (ethereum/execution-spec-
// tests, docs/running_tests/test_formats/blockchain_test.md): a file maps test names to cases.

export interface FixtureAccount {
  balance: string
  nonce: string
  code: string
  storage: Record<string, string>
}

export interface FixtureHeader {
  hash: string
  number: string
  timestamp: string
  gasLimit: string
  difficulty: string
  extraData: string
  mixHash: string
  nonce: string
  coinbase: string
  baseFeePerGas?: string
  blobGasUsed?: string
  excessBlobGas?: string
  parentBeaconBlockRoot?: string
  requestsHash?: string
}

/** A block: its RLP, and for a block the client must reject, the exception the filler expects. */
export interface FixtureBlock {
  rlp: string
  expectException?: string
}

export interface FixtureCase {
  network: string
  genesisBlockHeader: FixtureHeader
  pre: Record<string, FixtureAccount>
  postState?: Record<string, FixtureAccount>
  lastblockhash: string
  config: {
    network: string
    chainid: string
    blobSchedule?: Record<string, { target: string; max: string; baseFeeUpdateFraction: string }>
  }
  blocks: FixtureBlock[]
  sealEngine?: string
  _info?: { 'fixture-format'?: string }
}
