import { readFileSync, rmSync } from 'node:fs'
import { createBlockFromBytesArray } from '@ethereumjs/block'
import { createCommonFromGethGenesis } from '@ethereumjs/common'
import { RLP } from '@ethereumjs/rlp'
import { MerkleStateManager } from '@ethereumjs/statemanager'
import { createVM, runBlock } from '@ethereumjs/vm'
import { readGenesisFile } from '../chain/genesis.js'
import { ChainSpec } from '../chain/spec.js'
import { ethereumjsKzg } from '../crypto/kzg.js'
import { ethereumjsAlloc, genesisBlock } from '../state/genesis.js'
import { importChain } from '../import/importChain.js'
import { decodeChainFile } from '../chain/chainFile.js'
import { ChainStore } from '../store/chainStore.js'
import { rpcCompatPath, tempDatadir } from '../testing/paths.js'

// `npm run bench:import`: the conformance chain imported by Sponge (full validation, LMDB) against plain EthereumJS
// runBlock with its default crypto (in-memory state; KZG supplied, as EthereumJS cannot decode blob transactions
// without it), alternating three times. Prints seconds per run and the ratio.

const rounds = Number(process.argv[2] ?? 3)
const genesisFile = rpcCompatPath('genesis.json')
const chainFile = rpcCompatPath('chain.rlp')

async function sponge(): Promise<number> {
  const spec = new ChainSpec(readGenesisFile(genesisFile))
  const dir = tempDatadir('import-bench')
  const store = new ChainStore(dir)
  await genesisBlock(spec, store)
  const blocks = decodeChainFile(spec, chainFile)
  const t = performance.now()
  await importChain(spec, store, blocks)
  const s = (performance.now() - t) / 1000
  await store.close()
  rmSync(dir, { recursive: true, force: true })
  return s
}

async function plain(): Promise<number> {
  const g = readGenesisFile(genesisFile)
  const params: Record<string, Record<string, number>> = {}
  for (const [name, p] of Object.entries(g.config.blobSchedule ?? {})) {
    if (name.startsWith('bpo')) params[name] = { target: p.target, max: p.max, blobGasPriceUpdateFraction: p.baseFeeUpdateFraction }
  }
  const common = createCommonFromGethGenesis(g as never, { chain: 'plain', params: params as never, customCrypto: { kzg: ethereumjsKzg() } })
  const stateManager = new MerkleStateManager({ common })
  await stateManager.generateCanonicalGenesis(ethereumjsAlloc(g) as never)
  const vm = await createVM({ common, stateManager, setHardfork: true })
  const data = readFileSync(chainFile)
  const blocks = []
  let rest: Uint8Array = data
  while (rest.length > 0) {
    const { data: item, remainder } = RLP.decode(rest, true) as unknown as { data: never; remainder: Uint8Array }
    blocks.push(createBlockFromBytesArray(item, { common, setHardfork: true }))
    rest = remainder
  }
  const t = performance.now()
  for (const block of blocks) await runBlock(vm, { block, skipHeaderValidation: true, setHardfork: true })
  return (performance.now() - t) / 1000
}

const results: { sponge: number; plain: number }[] = []
for (let r = 0; r < rounds; r++) results.push({ sponge: await sponge(), plain: await plain() })
console.table(
  results.map((x) => ({ 'Sponge import s': x.sponge.toFixed(2), 'plain EthereumJS s': x.plain.toFixed(2), ratio: (x.plain / x.sponge).toFixed(2) })),
)
process.exit(0)
