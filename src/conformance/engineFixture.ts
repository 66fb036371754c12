import type { GenesisAccount, GethGenesisFile } from '../chain/genesis.js'

// The execution-spec-tests `blockchain_test_engine` fixture format (a file maps test names to tests, each a genesis
// and the Engine API payloads to send), read into what a runner needs: a geth-style genesis to start the node with
// and the calls to make. The converted cases of test/fixtures/conformance/eest came from the same format.

interface FixtureHeader {
  hash: string
  gasLimit: string
  timestamp: string
  extraData: string
  mixHash: string
  nonce: string
  coinbase: string
  difficulty: string
  baseFeePerGas?: string
  excessBlobGas?: string
  blobGasUsed?: string
}

interface FixturePayload {
  params: unknown[]
  newPayloadVersion: string
  forkchoiceUpdatedVersion: string
  validationError?: string
}

interface FixtureTest {
  network: string
  config?: { chainid?: string; blobSchedule?: Record<string, { target: string; max: string; baseFeeUpdateFraction: string }> }
  genesisBlockHeader: FixtureHeader
  pre: Record<string, GenesisAccount>
  engineNewPayloads: FixturePayload[]
  lastblockhash: string
}

/** One Engine API call of a case, with the status its answer must carry. */
export interface EngineCall {
  method: string
  params: unknown[]
  expect: 'VALID' | 'INVALID'
}

/**
 * A benchmark fixture's test as the Engine API calls that run it (not the shipped cases' steps format, engineCase.ts).
 */
export interface FixtureRun {
  name: string
  network: string
  genesis: GethGenesisFile
  genesisHash: string
  chainId: bigint
  /** Per block: engine_newPayloadVx, then (a valid block) engine_forkchoiceUpdatedVy making it the head. */
  blocks: { newPayload: EngineCall; forkchoiceUpdated?: EngineCall; gasUsed: bigint; txs: number }[]
  lastBlockHash: string
}

/** The block-numbered forks of a geth genesis config, in order: a fixture's networks (Cancun on) have them all at 0. */
export const BLOCK_FORKS = [
  'homesteadBlock',
  'eip150Block',
  'eip155Block',
  'eip158Block',
  'byzantiumBlock',
  'constantinopleBlock',
  'petersburgBlock',
  'istanbulBlock',
  'muirGlacierBlock',
  'berlinBlock',
  'londonBlock',
  'arrowGlacierBlock',
  'grayGlacierBlock',
  'mergeNetsplitBlock',
]
const TIME_FORKS: Record<string, string[]> = {
  Paris: [],
  Shanghai: ['shanghaiTime'],
  Cancun: ['shanghaiTime', 'cancunTime'],
  Prague: ['shanghaiTime', 'cancunTime', 'pragueTime'],
  Osaka: ['shanghaiTime', 'cancunTime', 'pragueTime', 'osakaTime'],
}
const MAINNET_DEPOSIT_CONTRACT = '0x00000000219ab540356cbb839cbe05303d7705fa'

/** The geth-style genesis of a test: its network's forks all at genesis, its blob schedule, header fields and `pre`. */
export function fixtureGenesis(t: FixtureTest): GethGenesisFile {
  const timeForks = TIME_FORKS[t.network]
  if (timeForks === undefined) throw new Error(`network ${t.network} is not supported (Paris to Osaka, from genesis)`)
  const blobSchedule =
    t.config?.blobSchedule === undefined
      ? undefined
      : Object.fromEntries(
          Object.entries(t.config.blobSchedule).map(([fork, s]) => [
            fork.toLowerCase(),
            { target: Number(s.target), max: Number(s.max), baseFeeUpdateFraction: Number(s.baseFeeUpdateFraction) },
          ]),
        )
  const h = t.genesisBlockHeader
  return {
    config: {
      chainId: Number(BigInt(t.config?.chainid ?? '0x1')),
      ...Object.fromEntries(BLOCK_FORKS.map((f) => [f, 0])),
      terminalTotalDifficulty: 0,
      ...Object.fromEntries(timeForks.map((f) => [f, 0])),
      depositContractAddress: MAINNET_DEPOSIT_CONTRACT,
      ...(blobSchedule === undefined ? {} : { blobSchedule }),
    },
    nonce: h.nonce,
    timestamp: h.timestamp,
    gasLimit: h.gasLimit,
    difficulty: h.difficulty,
    extraData: h.extraData,
    mixHash: h.mixHash,
    coinbase: h.coinbase,
    ...(h.baseFeePerGas === undefined ? {} : { baseFeePerGas: h.baseFeePerGas }),
    ...(h.excessBlobGas === undefined ? {} : { excessBlobGas: h.excessBlobGas }),
    ...(h.blobGasUsed === undefined ? {} : { blobGasUsed: h.blobGasUsed }),
    alloc: t.pre,
  }
}

/** A test of the file as the calls a runner makes: each valid block sent, then made the head (safe = finalized = genesis). */
export function fixtureRun(name: string, t: FixtureTest): FixtureRun {
  const genesisHash = t.genesisBlockHeader.hash
  const blocks = t.engineNewPayloads.map((p) => {
    const payload = p.params[0] as { blockHash: string; gasUsed: string; transactions: unknown[] }
    const valid = p.validationError === undefined
    const newPayload: EngineCall = { method: `engine_newPayloadV${p.newPayloadVersion}`, params: p.params, expect: valid ? 'VALID' : 'INVALID' }
    const forkchoiceUpdated: EngineCall | undefined = valid
      ? {
          method: `engine_forkchoiceUpdatedV${p.forkchoiceUpdatedVersion}`,
          params: [{ headBlockHash: payload.blockHash, safeBlockHash: genesisHash, finalizedBlockHash: genesisHash }, null],
          expect: 'VALID',
        }
      : undefined
    return {
      newPayload,
      ...(forkchoiceUpdated === undefined ? {} : { forkchoiceUpdated }),
      gasUsed: BigInt(payload.gasUsed),
      txs: payload.transactions.length,
    }
  })
  return {
    name,
    network: t.network,
    genesis: fixtureGenesis(t),
    genesisHash,
    chainId: BigInt(t.config?.chainid ?? '0x1'),
    blocks,
    lastBlockHash: t.lastblockhash,
  }
}

/** Every test of a fixture file's JSON text whose name `only` accepts, as engine cases. */
export function readEngineFixture(json: string, only: (name: string) => boolean = () => true): FixtureRun[] {
  const tests = JSON.parse(json) as Record<string, FixtureTest>
  return Object.entries(tests)
    .filter(([name]) => only(name))
    .map(([name, t]) => fixtureRun(name, t))
}
