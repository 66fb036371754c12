import { devGenesis } from '../chain/dev.js'
import { ChainSpec } from '../chain/spec.js'
import { type AnvilWorkload, type BesideAnvilOptions, type BesideAnvilRow, measureBesideAnvil, startBoth } from './anvil.js'
import { MULTICALL3_ADDRESS } from '../chain/multicall3.js'
import { mineOne, recipient, rpcClient, signTxs } from './chainGen.js'
import { assemble, keccakMemoryLoop } from '../testing/asm.js'

// bench:load's EVM-backed reads against anvil in the same run: eth_call (balanceOf over many holders, at latest),
// eth_estimateGas (a token transfer) and debug_traceTransaction (callTracer), on the same genesis, with the replies
// of both compared.

const word = (v: bigint | string) => `0x${BigInt(v).toString(16).padStart(64, '0')}`
const TOKEN = '0x00000000000000000000000000000000000c0de4'
const HOLDERS = 5000
const BALANCE_OF = '0x70a08231'

/** A token: balanceOf(address) (36 bytes of calldata) reads slot = address; otherwise transfer(to, amount) words. */
const TOKEN_CODE = assemble([
  'CALLDATASIZE',
  '0x24',
  'EQ',
  { target: 'balanceOf' },
  'JUMPI',
  '0x20',
  'CALLDATALOAD',
  'CALLER',
  'SLOAD',
  'DUP2',
  'DUP2',
  'LT',
  { target: 'fail' },
  'JUMPI',
  'SUB',
  'CALLER',
  'SSTORE',
  '0x00',
  'CALLDATALOAD',
  'DUP1',
  'SLOAD',
  '0x20',
  'CALLDATALOAD',
  'ADD',
  'SWAP1',
  'SSTORE',
  'STOP',
  { label: 'balanceOf' },
  '0x04',
  'CALLDATALOAD',
  'SLOAD',
  '0x00',
  'MSTORE',
  '0x20',
  '0x00',
  'RETURN',
  { label: 'fail' },
  '0x00',
  'DUP1',
  'REVERT',
])

const holder = (i: number) => `0x${(0xa0000000 + i).toString(16).padStart(40, '0')}`

/**
 * A contract of loops, keccak and memory: 5,000 turns of mem[64 + 32i] = keccak256(mem[0..64]) with mem[0] = i
 * (memory grows to ~160 KiB), then RETURN of a word; about 0.6 M gas a call.
 */
const HEAVY = '0x00000000000000000000000000000000000c0de5'
const HEAVY_CODE = assemble([...keccakMemoryLoop(5000), '0x20', '0x40', 'RETURN'])

/** Multicall3's aggregate3((address target, bool allowFailure, bytes callData)[]) of these calls, ABI-encoded. */
function aggregate3(calls: { target: string; data: string }[]): string {
  const w = (v: bigint | number) => BigInt(v).toString(16).padStart(64, '0')
  const tuples = calls.map(({ target, data }) => {
    const bytes = data.slice(2)
    const padded = bytes.padEnd(Math.ceil(bytes.length / 64) * 64, '0')
    return `${w(BigInt(target))}${w(1)}${w(0x60)}${w(bytes.length / 2)}${padded}`
  })
  let offset = calls.length * 32
  const offsets = tuples.map((t) => {
    const o = offset
    offset += t.length / 2
    return w(o)
  })
  return `0x82ad56cb${w(0x20)}${w(calls.length)}${offsets.join('')}${tuples.join('')}`
}

/**
 * The `eth_call multicall 100 cold balances` workload: Multicall3 (on the dev chain) reading, per request, 50 token
 * balances and 50 ether balances of holders no other request of the set reads: 100 cold slots and accounts a call.
 */
export function multicallBodies(): string[] {
  return Array.from({ length: 50 }, (_, r) => {
    const calls = Array.from({ length: 100 }, (_, i) => {
      const h = holder((r * 100 + i) % HOLDERS)
      return i % 2 === 0
        ? { target: TOKEN, data: `${BALANCE_OF}${word(h).slice(2)}` }
        : { target: MULTICALL3_ADDRESS, data: `0x4d2301cc${word(h).slice(2)}` }
    })
    return body('eth_call', [{ to: MULTICALL3_ADDRESS, input: aggregate3(calls) }, 'latest'])
  })
}

/** The dev chain plus the token, with HOLDERS holders and the dev accounts' balances (also the readers' chain). */
export function tokenGenesis() {
  const g = devGenesis()
  const storage: Record<string, string> = {}
  for (let i = 0; i < HOLDERS; i++) storage[word(holder(i))] = word(BigInt(i + 1) * 10n ** 18n)
  for (const a of Object.keys(g.alloc).slice(-10)) storage[word(a)] = word(10n ** 30n)
  g.alloc[TOKEN] = { balance: '0x0', code: TOKEN_CODE, storage }
  g.alloc[HEAVY] = { balance: '0x0', code: HEAVY_CODE }
  return g
}

const body = (method: string, params: unknown[]) => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params })

/** The `eth_call balanceOf` workload: 1,000 distinct holders' balances at `latest`, on tokenGenesis's chain. */
export function balanceOfBodies(): string[] {
  return Array.from({ length: 1000 }, (_, i) => body('eth_call', [{ to: TOKEN, input: `${BALANCE_OF}${word(holder(i * 5)).slice(2)}` }, 'latest']))
}

export async function runEvmReads(opts: BesideAnvilOptions): Promise<BesideAnvilRow[]> {
  const g = tokenGenesis()
  const { node, engine, anvil, stop } = await startBoth({ ...opts, name: 'evm', genesis: g, apis: 'eth,net,web3,debug' })
  try {
    // One token transfer mined on both (same signed bytes, so the same hash), for the trace workload.
    const spec = new ChainSpec(g)
    const [raw] = signTxs(spec, 1, () => ({ to: TOKEN, data: `${word(recipient(1))}${word(5n).slice(2)}`, gasLimit: 100_000n }))
    const send = (url: string) => rpcClient(url)('eth_sendRawTransaction', [raw]) as Promise<string>
    const hash = await send(node.httpUrl)
    await send(anvil.url)
    await mineOne(engine, rpcClient(node.httpUrl))
    const from = Object.keys(g.alloc).slice(-10)
    const workloads: AnvilWorkload[] = [
      {
        name: 'eth_call balanceOf',
        bodies: balanceOfBodies(),
      },
      {
        name: 'eth_estimateGas token transfer',
        bodies: Array.from({ length: 200 }, (_, i) =>
          body('eth_estimateGas', [{ from: from[i % 10], to: TOKEN, input: `${word(recipient(1000 + i))}${word(1n).slice(2)}` }]),
        ),
      },
      { name: 'debug_traceTransaction callTracer', bodies: [body('debug_traceTransaction', [hash, { tracer: 'callTracer' }])] },
      { name: 'eth_call multicall 100 cold balances', bodies: multicallBodies() },
      { name: 'eth_call heavy contract', bodies: [body('eth_call', [{ to: HEAVY }, 'latest'])] },
    ].filter((w) => opts.only === undefined || opts.only.test(w.name))
    // Each call's gas, for the Mgas/s column: its callTracer's gasUsed on Sponge (the same as anvil's: the replies are compared).
    for (const w of workloads) {
      const first = JSON.parse(w.bodies[0]!) as { method: string; params: [unknown, string] }
      if (first.method !== 'eth_call') continue
      const trace = (await rpcClient(node.httpUrl)('debug_traceCall', [first.params[0], first.params[1], { tracer: 'callTracer' }])) as {
        gasUsed: string
      }
      w.gasPerRequest = Number(BigInt(trace.gasUsed))
    }
    return await measureBesideAnvil({
      ...opts,
      spongeUrl: node.httpUrl,
      anvilUrl: anvil.url,
      spongePid: node.process.pid,
      anvilPid: anvil.proc.pid,
      workloads,
    })
  } finally {
    await stop()
  }
}
