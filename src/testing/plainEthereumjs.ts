import { createBlockFromExecutionPayload } from '@ethereumjs/block'
import { createCommonFromGethGenesis } from '@ethereumjs/common'
import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { MerkleStateManager } from '@ethereumjs/statemanager'
import { MapDB, ValueEncoding } from '@ethereumjs/util'
import { createVM, runBlock } from '@ethereumjs/vm'
import type { GethGenesisFile } from '../chain/genesis.js'
import { writeGenesisState } from '../state/genesisState.js'
import { ethereumjsKzg } from '../crypto/kzg.js'

const EMPTY_REQUESTS_HASH = '0xe3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'

/**
 * The baseline: the same payloads through plain EthereumJS — its default (pure-JS) crypto but KZG, in-memory state, runBlock
 * with full validation of roots. Returns the milliseconds each block's runBlock took; `cpuMs`, when given, receives
 * the process's CPU milliseconds (user + system) of each, which a busy machine's neighbours do not inflate.
 */
export async function runPlainEthereumjs(
  genesis: GethGenesisFile,
  payloads: { payload: Record<string, unknown> }[],
  cpuMs?: number[],
): Promise<number[]> {
  const geth = {
    nonce: '0x0',
    timestamp: '0x0',
    extraData: '0x',
    difficulty: '0x0',
    mixHash: `0x${'00'.repeat(32)}`,
    coinbase: `0x${'00'.repeat(20)}`,
    ...genesis,
  }
  // EthereumJS has no KZG of its own: without one it cannot decode a blob transaction nor run the point-evaluation
  // precompile (c-kzg, as Sponge's, through EthereumJS's interface).
  const common = createCommonFromGethGenesis(geth as never, { chain: 'plain', customCrypto: { kzg: ethereumjsKzg() } })
  // The genesis state (not timed) is written by our one-pass writer: EthereumJS's own inserts every account into its
  // trie and keeps every intermediate node, which does not fit in memory for a million accounts.
  const db = new MapDB<string, Uint8Array>()
  const root = writeGenesisState(genesis.alloc, (key, value) => void db.put(key, value))
  const trie = new MerklePatriciaTrie({ db, useKeyHashing: true, valueEncoding: ValueEncoding.Bytes, common })
  const stateManager = new MerkleStateManager({ common, trie })
  await stateManager.setStateRoot(root)
  const vm = await createVM({ common, stateManager, setHardfork: true })
  const times: number[] = []
  for (const { payload } of payloads) {
    const c = common.copy()
    c.setHardforkBy({ blockNumber: BigInt(payload.blockNumber as string), timestamp: BigInt(payload.timestamp as string) })
    const block = await createBlockFromExecutionPayload(
      { ...payload, parentBeaconBlockRoot: `0x${'00'.repeat(32)}`, requestsHash: EMPTY_REQUESTS_HASH } as never,
      { common: c },
    )
    const c0 = process.cpuUsage()
    const t0 = performance.now()
    await runBlock(vm, { block, skipHeaderValidation: true, setHardfork: true })
    times.push(performance.now() - t0)
    const used = process.cpuUsage(c0)
    cpuMs?.push((used.user + used.system) / 1000)
  }
  return times
}
