import { createHash } from 'node:crypto'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { digest as asSha256 } from '@chainsafe/as-sha256'
import { RLP } from '@ethereumjs/rlp'
import { ecrecover as ejsEcrecover } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js'
import { Bench } from 'tinybench'
import { readGenesisFile } from '../chain/genesis.js'
import { ChainSpec } from '../chain/spec.js'
import { receiptJson } from '../codecs/receipt.js'
import { keccak256 } from '../crypto/keccak.js'
import { ecrecover } from '../crypto/secp256k1.js'
import { sha256 } from '../crypto/sha256.js'
import { decodeChainFile } from '../chain/chainFile.js'
import { validateNewPayloadV4 } from '../wire/engineParams.js'
import { ChainStore } from '../store/chainStore.js'
import { FlatStateReader } from '../state/flatStateReader.js'
import { rpcCompatPath, REPO_ROOT, tempDatadir } from '../testing/paths.js'
import { WorkerPool } from '../workers/pool.js'
import { genesisBlock } from '../state/genesis.js'
import { importChain } from '../import/importChain.js'
import { devAccounts, devGenesis } from '../chain/dev.js'
import { startNode } from '../node/node.js'
import { NodeMetrics } from '../node/metrics.js'
import { type EnvelopeOptions, handleBody } from '../rpc/envelope.js'
import { allMethods } from '../rpc/methods/index.js'
import { localNodeOptions } from '../testing/testNode.js'
import { validateAccount, validateByHash } from '../wire/ethParams.js'
import type { AccountParams } from '../wire/ethParams.js'
import { syncRun } from '../util/syncRun.js'
import { HexKeyTable } from '../util/hexKeyTable.js'
import typia from 'typia'

// `npm run bench:micro`: the candidates for each hot primitive side by side in one run, and the costs that decide
// what runs on the serving thread. Prints a table and writes bench/results/micro.json.

const require = createRequire(import.meta.url)
const nativeKeccak = require('keccak') as (alg: string) => { update(b: Buffer): { digest(): Buffer } }

const time = Number(process.env.BENCH_MS ?? 400)
const bench = new Bench({ time, warmup: true })
const inputs = { '32B': 32, '136B': 136, '532B': 532, '1MiB': 1024 * 1024 } as const
for (const [label, size] of Object.entries(inputs)) {
  const data = new Uint8Array(size).fill(7)
  const buf = Buffer.from(data)
  bench.add(`keccak-256 ${label}: hash-wasm (chosen)`, () => keccak256(data))
  bench.add(`keccak-256 ${label}: keccak (native)`, () => nativeKeccak('keccak256').update(buf).digest())
  bench.add(`keccak-256 ${label}: @noble/hashes`, () => keccak_256(data))
}
const shaData = new Uint8Array(64).fill(1)
bench.add('sha-256 64B: @chainsafe/as-sha256 (chosen)', () => sha256(shaData))
bench.add('sha-256 64B: node:crypto', () => createHash('sha256').update(shaData).digest())
bench.add('sha-256 64B: @noble/hashes', () => nobleSha256(shaData))
bench.add('sha-256 64B: as-sha256 direct', () => asSha256(shaData))

// EIP-155 example signature.
const msg = Buffer.from('daf5a779ae972f972197303d7b574746c7ef83eadac0f2791ad23db92e4c8e53', 'hex')
const r = Buffer.from('28ef61340bd939bc2195fe537567866003e1a15d3c71ff63e1590620aa636276', 'hex')
const s = Buffer.from('67cbe9d8997f761aecb703304b3800ccf555c9f3dc64214b297fb1966a3b6d83', 'hex')
bench.add('ecrecover: secp256k1 native (chosen)', () => ecrecover(msg, 37n, r, s, 1n))
bench.add('ecrecover: EthereumJS default (noble)', () => ejsEcrecover(msg, 37n, r, s, 1n))

const spec = new ChainSpec(readGenesisFile(rpcCompatPath('genesis.json')))
const blocks = decodeChainFile(spec, rpcCompatPath('chain.rlp'))
const fullest = blocks.reduce((a, b) => (b.transactions.length > a.transactions.length ? b : a))
const blockRlp = fullest.serialize()
bench.add(`RLP decode block (${fullest.transactions.length} txs, ${blockRlp.length} B)`, () => RLP.decode(blockRlp))
const raw = fullest.raw()
bench.add(`RLP encode block (${fullest.transactions.length} txs)`, () => RLP.encode(raw as never))

const payloadRequest = [
  {
    parentHash: `0x${'11'.repeat(32)}`,
    feeRecipient: `0x${'22'.repeat(20)}`,
    stateRoot: `0x${'33'.repeat(32)}`,
    receiptsRoot: `0x${'44'.repeat(32)}`,
    logsBloom: `0x${'00'.repeat(256)}`,
    prevRandao: `0x${'55'.repeat(32)}`,
    blockNumber: '0x1',
    gasLimit: '0x1c9c380',
    gasUsed: '0x5208',
    timestamp: '0x6553f100',
    extraData: '0x',
    baseFeePerGas: '0x7',
    blockHash: `0x${'66'.repeat(32)}`,
    transactions: Array.from({ length: 100 }, () => `0x02${'ab'.repeat(110)}`),
    withdrawals: Array.from({ length: 16 }, (_, i) => ({
      index: `0x${i.toString(16)}`,
      validatorIndex: '0x1',
      address: `0x${'77'.repeat(20)}`,
      amount: '0x10',
    })),
    blobGasUsed: '0x0',
    excessBlobGas: '0x0',
  },
  [],
  `0x${'88'.repeat(32)}`,
  [],
]
bench.add('typia: validate newPayloadV4 params (100 txs, 16 withdrawals)', () => validateNewPayloadV4(payloadRequest))

const facts = {
  blockHash: new Uint8Array(32),
  blockNumber: 54n,
  blockTimestamp: 540n,
  txHash: new Uint8Array(32).fill(1),
  index: 3,
  type: 2,
  from: new Uint8Array(20).fill(2),
  to: new Uint8Array(20).fill(3),
  contractAddress: undefined,
  cumulativeGasUsed: 100000n,
  gasUsed: 51000n,
  effectiveGasPrice: 1000000007n,
  status: 1,
  root: undefined,
  logsBloom: new Uint8Array(256),
  logs: [[new Uint8Array(20).fill(4), [new Uint8Array(32).fill(5), new Uint8Array(32).fill(6)], new Uint8Array(32).fill(7)]] as never,
  firstLogIndex: 5,
  blobGasUsed: undefined,
  blobGasPrice: undefined,
}
bench.add('JSON: encode a receipt with one log (written once, at execution)', () => receiptJson(facts))

// The serving-thread-or-pool decision: an LMDB receipt read in-thread against a pool round trip.
const datadir = tempDatadir('bench')
const store = new ChainStore(datadir)
await genesisBlock(spec, store)
await importChain(spec, store, blocks)
const txHash = blocks[0]!.transactions[0]!.hash()
const pool = new WorkerPool({ datadir, genesisJson: JSON.stringify(spec.genesis) }, { name: 'bench', threads: 1, maxInFlight: 1000 })
await pool.run({ op: 'ping' })
bench.add("LMDB: receipt read in-thread, as served (views of LMDB's buffer)", () => store.receiptJsonView(txHash))
bench.add('LMDB: receipt read in-thread, copying each value out', () => {
  const loc = store.getTxLocation(txHash)!
  return store.getReceiptJsonBytes(loc.blockHash, loc.index)
})
bench.add('pool: empty round trip (ping)', async () => {
  await pool.run({ op: 'ping' })
})
bench.add('pool: receipt read in a worker', async () => {
  await pool.run({ op: 'receipt', txHash })
})

// The envelope on the serving thread, in-process (no socket): a body of one state read at the head, and a batch of
// 100 (the dev chain's accounts), parsed, validated, answered and written into the reply buffer.
const devDir = tempDatadir('bench-envelope')
const devNode = await startNode(new ChainSpec(devGenesis()), localNodeOptions(devDir, { maxBatch: 1000 }))
const table = allMethods()
const envelope: EnvelopeOptions = { maxBatch: 1000, namespaces: new Set(['eth']) }
const accounts = devAccounts().map((a) => a.address)
const oneRead = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: [accounts[0], 'latest'] }))
const hundredReads = Buffer.from(
  JSON.stringify(
    Array.from({ length: 100 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'eth_getBalance', params: [accounts[i % accounts.length], 'latest'] })),
  ),
)
bench.add('envelope: one eth_getBalance body, answered', () => handleBody(oneRead, table, envelope, devNode.context))
bench.add('envelope: a batch of 100 eth_getBalance, answered', () => handleBody(hundredReads, table, envelope, devNode.context))
// The same with each call counted and timed into the node's metrics, as a node with --metrics does (node/callTally.ts).
const callMetrics = new NodeMetrics({ store: devNode.context.store, lanes: [], thread: true })
const metered: EnvelopeOptions = { ...envelope, observe: (method, code, s) => callMetrics.observeCall(method, 'http', code, s) }
bench.add('envelope: one eth_getBalance body, answered, with --metrics', () => handleBody(oneRead, table, metered, devNode.context))
bench.add('envelope: a batch of 100 eth_getBalance, answered, with --metrics', () => handleBody(hundredReads, table, metered, devNode.context))
const chainIdBody = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }))
bench.add('envelope: one eth_chainId body, answered', () => handleBody(chainIdBody, table, envelope, devNode.context))
// The rpc-compat chain's first transaction: a receipt as served (two LMDB reads, the stored JSON copied into the reply).
const rpcDir = tempDatadir('bench-envelope-rpc')
const rpcNode = await startNode(spec, localNodeOptions(rpcDir, { maxBatch: 1000, importFile: rpcCompatPath('chain.rlp') }))
const receiptBody = Buffer.from(
  JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getTransactionReceipt', params: [`0x${Buffer.from(txHash).toString('hex')}`] }),
)
bench.add('envelope: one eth_getTransactionReceipt body, answered', () => handleBody(receiptBody, table, envelope, rpcNode.context))
const feeBody = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_feeHistory', params: ['0x14', 'latest', [25, 75]] }))
bench.add('envelope: one eth_feeHistory body (a kept reply), answered', () => handleBody(feeBody, table, envelope, rpcNode.context))

// What the envelope's choices were measured by: typia's validator alone against the quick check in front of it
// (wire/quickParams.ts), and a head read's check of the flat table made per read against once per synchronous run
// (util/syncRun.ts), over the 100 reads of the batch above.
const accountParams = [accounts[0], 'latest']
const typiaAccount = typia.createValidate<AccountParams>()
bench.add('params: eth_getBalance [address, "latest"], typia alone', () => typiaAccount(accountParams))
bench.add('params: eth_getBalance [address, "latest"], quick check, typia behind (served)', () => validateAccount(accountParams))
const flat = devNode.context.flatState
const headReads = () => {
  for (let i = 0; i < 100; i++) flat.headAccount('balance', accounts[i % accounts.length]!)
}
bench.add('flat state: 100 head balance reads, head checked per read', headReads)
bench.add('flat state: 100 head balance reads in one syncRun (served in a batch)', () => syncRun(headReads))
// A serving thread's store pins its snapshots (ChainStore.pinSnapshots): single reads check the head once a pass.
const pinnedStore = new ChainStore(devDir)
pinnedStore.pinSnapshots({ keep: () => {}, began: () => {} })
const pinned = new FlatStateReader(pinnedStore)
bench.add('flat state: 100 head balance reads, pinned snapshot (a serving thread)', () => {
  for (let i = 0; i < 100; i++) pinned.headAccount('balance', accounts[i % accounts.length]!)
})

// The serving thread's kept replies (store/txReplies.ts, state/flatStateReader.ts) by the key a request sends: each
// lookup is of a fresh string, as JSON.parse makes one per request (the parse is in both, ~0.07 µs), over 3,500
// receipts of ~700 bytes (bench:load's), with and without the pattern check a hit no longer needs (MethodDef.kept).
const keptHashes = Array.from({ length: 3500 }, (_, i) => `0x${createHash('sha256').update(String(i)).digest('hex')}`)
const keptMap = new Map<string, Uint8Array>()
const keptTable = new HexKeyTable<Uint8Array>()
for (const h of keptHashes) {
  const reply = new Uint8Array(700)
  keptMap.set(h, reply)
  keptTable.set(h, reply)
}
const askedTexts = Array.from({ length: 4096 }, (_, i) => JSON.stringify(keptHashes[(i * 7919) % keptHashes.length]))
let asked = 0
const freshHash = () => JSON.parse(askedTexts[asked++ & 4095]!) as string
bench.add('kept replies: a receipt by a fresh hash string, pattern checked, then a Map (before)', () => {
  const h = freshHash()
  return validateByHash([h]).success ? keptMap.get(h) : undefined
})
bench.add('kept replies: a receipt by a fresh hash string, a Map', () => keptMap.get(freshHash()))
bench.add('kept replies: a receipt by a fresh hash string, HexKeyTable (chosen)', () => keptTable.get(freshHash()))

// BENCH_ONLY=<regexp>: only the tasks whose names match (the setup above still runs).
const onlyTasks = process.env.BENCH_ONLY
if (onlyTasks !== undefined) for (const t of [...bench.tasks]) if (!new RegExp(onlyTasks).test(t.name)) bench.remove(t.name)
await bench.run()
const rows = bench.tasks.map((t) => {
  const res = t.result as { throughput?: { mean: number }; latency?: { mean: number; p50?: number; p99?: number } } | undefined
  return {
    name: t.name,
    opsPerSec: Math.round(res?.throughput?.mean ?? 0),
    meanMicros: Number(((res?.latency?.mean ?? 0) * 1000).toFixed(2)),
    // The median: on a shared machine the mean carries every descheduled sample.
    p50Micros: Number(((res?.latency?.p50 ?? 0) * 1000).toFixed(2)),
  }
})
console.table(rows)
const out = join(REPO_ROOT, 'bench', 'results')
mkdirSync(out, { recursive: true })
writeFileSync(join(out, 'micro.json'), `${JSON.stringify({ node: process.version, date: new Date().toISOString(), rows }, null, 2)}\n`)
console.log(`wrote ${join(out, 'micro.json')}`)
await pool.close()
await rpcNode.close()
rmSync(rpcDir, { recursive: true, force: true })
await pinnedStore.close()
await devNode.close()
rmSync(devDir, { recursive: true, force: true })
await store.close()
rmSync(datadir, { recursive: true, force: true })
process.exit(0)
