import { rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { devAccounts, devGenesis } from '../chain/dev.js'
import { ChainSpec } from '../chain/spec.js'
import { startNode } from '../node/node.js'
import type { EnvelopeOptions } from '../rpc/envelope.js'
import type { MethodTable } from '../rpc/methodTable.js'
import { tempDatadir } from '../testing/paths.js'
import { localNodeOptions } from '../testing/testNode.js'

// `node dist/bench/envelopeCompare.js <other build's dist/> [rounds 50]`: this build's JSON-RPC envelope and method
// table against another build's, in one process, on one dev node of this build, run in alternating chunks (the
// order swapped every round) so that both see the same machine; the replies are compared byte for byte first. Prints
// min, p25 and median ns per body of each, and this/other at p25. Only the envelope and the methods' own code differ:
// what they call on the node (the store, the flat state) is this build's on both sides.

type Envelope = typeof import('../rpc/envelope.js')
type Methods = typeof import('../rpc/methods/index.js')

const [otherDist, roundsArg = '50'] = process.argv.slice(2)
if (otherDist === undefined) {
  process.stderr.write('usage: node dist/bench/envelopeCompare.js <other build dist directory> [rounds]\n')
  process.exit(2)
}
const load = async (dist: string) => {
  const at = (f: string) => pathToFileURL(join(dist, f)).href
  const envelope = (await import(at('rpc/envelope.js'))) as Envelope
  const methods = (await import(at('rpc/methods/index.js'))) as Methods
  return { handleBody: envelope.handleBody, table: methods.allMethods() as MethodTable }
}
const sides = { other: await load(resolve(otherDist)), this: await load(resolve(import.meta.dirname, '..')) }
const dir = tempDatadir('bench-envelope-compare')
const node = await startNode(new ChainSpec(devGenesis()), localNodeOptions(dir, { maxBatch: 1000 }))
const env: EnvelopeOptions = { maxBatch: 1000, namespaces: new Set(['eth']) }
const accounts = devAccounts().map((a) => a.address)
const call = (method: string, params: unknown[], id = 1) => ({ jsonrpc: '2.0', id, method, params })
const bodies: Record<string, unknown> = {
  eth_chainId: call('eth_chainId', []),
  eth_getBalance: call('eth_getBalance', [accounts[0], 'latest']),
  'eth_getTransactionReceipt (none)': call('eth_getTransactionReceipt', [`0x${'ab'.repeat(32)}`]),
  eth_feeHistory: call('eth_feeHistory', ['0x14', 'latest', [25, 75]]),
  'batch of 100 eth_getBalance': Array.from({ length: 100 }, (_, i) => call('eth_getBalance', [accounts[i % accounts.length], 'latest'], i)),
}
const rounds = Number(roundsArg)
const answer = (side: keyof typeof sides, body: Buffer) => {
  const out = sides[side].handleBody(body, sides[side].table, env, node.context)
  if (out instanceof Promise) throw new Error('a body answered later: not an in-thread read')
  return out === undefined ? '' : Buffer.from(out).toString()
}
for (const [name, body] of Object.entries(bodies)) {
  const buf = Buffer.from(JSON.stringify(body))
  if (answer('other', buf) !== answer('this', buf)) throw new Error(`${name}: the two builds answer differently`)
  const n = Array.isArray(body) ? 200 : 20_000
  const times: Record<keyof typeof sides, number[]> = { other: [], this: [] }
  for (let r = 0; r < rounds; r++) {
    for (const side of r % 2 === 0 ? (['this', 'other'] as const) : (['other', 'this'] as const)) {
      const { handleBody, table } = sides[side]
      const started = process.hrtime.bigint()
      for (let i = 0; i < n; i++) handleBody(buf, table, env, node.context)
      times[side].push(Number(process.hrtime.bigint() - started) / n)
    }
  }
  const q = (xs: number[], f: number) => xs.sort((a, b) => a - b)[Math.floor((xs.length - 1) * f)]!
  const line = (xs: number[]) => `min ${q(xs, 0).toFixed(0)} p25 ${q(xs, 0.25).toFixed(0)} med ${q(xs, 0.5).toFixed(0)}`
  process.stdout.write(
    `${name.padEnd(34)} other ${line(times.other)} | this ${line(times.this)} ns | this/other p25 ${(q(times.this, 0.25) / q(times.other, 0.25)).toFixed(3)}\n`,
  )
}
await node.close()
rmSync(dir, { recursive: true, force: true })
process.exit(0)
