import { rmSync } from 'node:fs'
import { devGenesis } from './dist/chain/dev.js'
import { ChainSpec } from './dist/chain/spec.js'
import { ChainStore } from './dist/store/chainStore.js'
import { genesisBlock } from './dist/exec/genesis.js'
import { CallRunner } from './dist/exec/call.js'
import { assemble } from './dist/bench/workloads/asm.js'
const word = (v) => `0x${BigInt(v).toString(16).padStart(64, '0')}`
const TOKEN = '0x00000000000000000000000000000000000c0de4'
const CODE = assemble(['CALLDATASIZE', '0x24', 'EQ', { target: 'balanceOf' }, 'JUMPI', '0x00', 'DUP1', 'REVERT', { label: 'balanceOf' }, '0x04', 'CALLDATALOAD', 'SLOAD', '0x00', 'MSTORE', '0x20', '0x00', 'RETURN'])
const holder = (i) => `0x${(0xa0000000 + i).toString(16).padStart(40, '0')}`
const g = devGenesis()
const storage = {}
for (let i = 0; i < 5000; i++) storage[word(holder(i))] = word(BigInt(i + 1))
g.alloc[TOKEN] = { balance: '0x0', code: CODE, storage }
rmSync('/tmp/cb', { recursive: true, force: true })
const spec = new ChainSpec(g)
const store = new ChainStore('/tmp/cb')
const gen = await genesisBlock(spec, store)
const runner = await CallRunner.create(spec, store)
const hex = (s) => Buffer.from(s.slice(2), 'hex')
const input = (i) => ({ blockHash: gen.hash(), gasCap: 50000000n, call: { to: hex(TOKEN), data: hex(`0x70a08231${word(holder(i * 5)).slice(2)}`) } })
async function one(i) { const inp = input(i); const b = await runner.prepare(inp); return runner.run(inp, b, runner.gasLimitOf(inp, b)) }
for (let i = 0; i < 2000; i++) await one(i % 1000)
const N = 5000; const t = performance.now()
for (let i = 0; i < N; i++) await one(i % 1000)
console.log('per call µs', ((performance.now() - t) * 1000 / N).toFixed(1))
