import { rmSync } from 'node:fs'
import { ChainStore } from './dist/store/chainStore.js'
import { blockIndexKeys, encodeBlockLogs } from './dist/logs/blockLogs.js'
import { queryLogs } from './dist/logs/logQuery.js'
import { numberKey } from './dist/store/layout.js'
rmSync('/tmp/qb', { recursive: true, force: true })
const store = new ChainStore('/tmp/qb')
const rare = Buffer.alloc(20, 0xe4), noisy = Buffer.alloc(20, 0xa0), topic = Buffer.alloc(32, 0x5e)
const json = (n) => `{"address":"0x${rare.toString('hex')}","topics":["0x${topic.toString('hex')}"],"data":"0x${'00'.repeat(31)}01","blockNumber":"0x${n.toString(16)}","transactionHash":"0x${'11'.repeat(32)}","transactionIndex":"0x0","blockHash":"0x${'22'.repeat(32)}","blockTimestamp":"0x1","logIndex":"0x0","removed":false}`
store.db('canonical') // warm
for (let n = 1; n <= 2000; n++) {
  const hash = Buffer.alloc(32); hash.writeUInt32BE(n, 28)
  const logs = [{ address: n % 10 === 0 ? rare : noisy, topics: [topic], json: json(n) }]
  store.db('blockLogs').putSync(hash, encodeBlockLogs(logs))
  for (const k of blockIndexKeys(logs, BigInt(n), hash)) store.db('logIndex').putSync(k, new Uint8Array([1]))
  store.db('canonical').putSync(numberKey(n), hash)
}
const crit = { addresses: [rare], topics: [] }
let r
for (let i = 0; i < 200; i++) r = queryLogs(store, { from: 1n, to: 2000n }, crit, 10000)
const t = performance.now(); const N = 2000
for (let i = 0; i < N; i++) r = queryLogs(store, { from: 1n, to: 2000n - BigInt(i % 100) }, crit, 10000)
console.log('per query µs', ((performance.now() - t) * 1000 / N).toFixed(1), 'logs', r.count, 'bytes', r.json.length)
