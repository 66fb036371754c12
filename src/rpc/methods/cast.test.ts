import { execFile } from 'node:child_process'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MULTICALL3_ADDRESS } from '../../chain/multicall3.js'
import { devAccounts } from '../../chain/dev.js'
import { type TestNode, startTestNode } from '../../testing/testNode.js'

// Foundry's cast (npm @foundry-rs/cast, the release beside anvil 1.7.1) against the dev chain with its defaults:
// send (fees, gas and nonce left to cast), call, estimate, logs.

const run = promisify(execFile)
const bin = join(createRequire(import.meta.url).resolve('@foundry-rs/cast-linux-amd64/package.json'), '..', 'bin', 'cast')
/** Runtime: LOG1(topic = calldata[0:32]). */
const EMITTER_INIT = '0x600980600b6000396000f360003560006000a100'
const TOPIC = `0x${'cd'.repeat(32)}`

let n: TestNode
let url: string
const key = devAccounts()[4]!.privateKey
beforeAll(async () => {
  n = await startTestNode({ dev: {}, devAccounts: devAccounts() })
  url = `http://127.0.0.1:${n.node.httpPort}`
})
afterAll(async () => {
  await n.close()
})

// Options go before the arguments: `send --create` takes everything after its code as constructor arguments.
const cast = async (command: string, ...args: string[]) => (await run(bin, [command, '--rpc-url', url, ...args])).stdout.trim()

describe('cast', () => {
  it('sends with its defaults, and the receipt is the node’s', async () => {
    const to = devAccounts()[2]!.address
    const out = JSON.parse(await cast('send', '--private-key', key, '--json', to, '--value', '1ether')) as {
      status: string
      transactionHash: string
      from: string
    }
    expect(out.status).toBe('0x1')
    expect(out.from).toBe(devAccounts()[4]!.address.toLowerCase())
    expect((await n.http<{ status: string }>('eth_getTransactionReceipt', [out.transactionHash])).result?.status).toBe('0x1')
  })

  it('calls, estimates, and reads logs', async () => {
    expect(await cast('call', MULTICALL3_ADDRESS, 'getChainId()(uint256)')).toBe('1337')
    expect(await cast('estimate', devAccounts()[2]!.address, '--value', '1', '--from', devAccounts()[4]!.address)).toBe('21000')
    const created = JSON.parse(await cast('send', '--private-key', key, '--json', '--create', EMITTER_INIT)) as { contractAddress: string }
    const emitted = JSON.parse(await cast('send', '--private-key', key, '--json', created.contractAddress, TOPIC)) as { transactionHash: string }
    const logs = JSON.parse(await cast('logs', '--json', '--from-block', '0', '--address', created.contractAddress)) as {
      topics: string[]
      transactionHash: string
    }[]
    expect(logs).toHaveLength(1)
    expect(logs[0]).toMatchObject({ topics: [TOPIC], transactionHash: emitted.transactionHash })
  })
})
