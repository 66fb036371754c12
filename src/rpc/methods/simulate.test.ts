import { createHash } from 'node:crypto'
import { createTx } from '@ethereumjs/tx'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devAccounts } from '../../chain/dev.js'
import { MULTICALL3_ADDRESS, MULTICALL3_RUNTIME } from '../../chain/multicall3.js'
import { checksumAddress } from '../../crypto/checksum.js'
import { keccak256 } from '../../crypto/keccak.js'
import { REVERT_NOPE, assemble } from '../../testing/asm.js'
import { type RpcReply, type TestNode, startTestNode } from '../../testing/testNode.js'
import { uint256 } from '../../testing/words.js'
import { bytesToHex, hexToBytes } from '../../util/hex.js'

// eth_simulateV1 on the dev chain: blocks built on the head's state, chained, with the spec's errors.

let node: TestNode
beforeAll(async () => {
  node = await startTestNode()
})
afterAll(async () => {
  await node.close()
})

const A = '0xc000000000000000000000000000000000000000'
const B = '0xc100000000000000000000000000000000000000'
const D = '0xc300000000000000000000000000000000000000'
/** Runtime: LOG1(topic = 0xff…ff) with no data, then stops. */
const LOGGER = '0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff80600080a1600080f3'
/** Runtime: stores CALLVALUE at slot 0, reverts when called with no value (`revert(0, 0)`). */
const REVERTS_WITHOUT_VALUE = '0x3460095760006000fd5b34600055'

interface SimBlock {
  number: string
  hash: string
  parentHash: string
  timestamp: string
  blobGasUsed: string
  excessBlobGas: string
  transactions: unknown[]
  calls: {
    status: string
    gasUsed: string
    returnData: string
    logs: { address: string; blockHash: string; logIndex: string; topics: string[] }[]
    error?: { code: number }
  }[]
}

const simulate = (payload: object, block: unknown = 'latest') => node.http<SimBlock[]>('eth_simulateV1', [payload, block])

describe('eth_simulateV1', () => {
  it('chains blocks on the head: numbers, 12 s steps, parent hashes, and state carried from block to block', async () => {
    const head = (await node.http<{ number: string; hash: string; timestamp: string }>('eth_getBlockByNumber', ['latest', false])).result!
    const r = await simulate({
      blockStateCalls: [
        { stateOverrides: { [A]: { balance: '0x3e8' } }, calls: [{ from: A, to: B, value: '0x3e8' }] },
        { blockOverrides: { number: `0x${(Number(head.number) + 3).toString(16)}` }, calls: [{ from: B, to: A, value: '0x3e8' }] },
      ],
    })
    expect(r.error).toBeUndefined()
    const blocks = r.result!
    expect(blocks.map((b) => Number(b.number) - Number(head.number))).toEqual([1, 2, 3])
    expect(blocks.map((b) => Number(b.timestamp) - Number(head.timestamp))).toEqual([12, 24, 36])
    expect(blocks[0]!.parentHash).toBe(head.hash)
    expect(blocks[1]!.parentHash).toBe(blocks[0]!.hash)
    expect(blocks[2]!.parentHash).toBe(blocks[1]!.hash)
    expect(blocks[1]!.calls).toEqual([])
    // B received A's value in the first block and sends it back in the third.
    expect(blocks[2]!.calls[0]).toMatchObject({ status: '0x1', gasUsed: '0x5208' })
    // Nothing was stored: the head is unchanged.
    expect((await node.http('eth_blockNumber')).result).toBe(head.number)
  })

  it('reports logs with the simulated block hash, reverts and failures per call, and full transactions on request', async () => {
    const r = await simulate({
      blockStateCalls: [
        {
          stateOverrides: { [B]: { code: LOGGER }, [A]: { code: REVERTS_WITHOUT_VALUE } },
          calls: [
            { from: A, to: B },
            { from: B, to: A },
            { from: D, to: B, gas: '0x5300' },
          ],
        },
      ],
      returnFullTransactions: true,
    })
    expect(r.error).toBeUndefined()
    const [b] = r.result!
    const [logged, reverted, outOfGas] = b!.calls
    expect(logged!.logs).toHaveLength(1)
    expect(logged!.logs[0]).toMatchObject({ address: B, blockHash: b!.hash, logIndex: '0x0', topics: [`0x${'ff'.repeat(32)}`] })
    expect(reverted).toMatchObject({ status: '0x0', error: { code: 3 } })
    expect(outOfGas).toMatchObject({ status: '0x0', error: { code: -32015 } })
    expect(b!.transactions[0]).toMatchObject({ from: A, to: B, blockHash: b!.hash, v: '0x0', r: '0x0', s: '0x0' })
  })

  it('reports ether transfers as logs with traceTransfers', async () => {
    const r = await simulate({
      blockStateCalls: [{ stateOverrides: { [A]: { balance: '0x10' } }, calls: [{ from: A, to: B, value: '0x7' }] }],
      traceTransfers: true,
    })
    const log = r.result![0]!.calls[0]!.logs[0]!
    expect(log.address).toBe(`0x${'ee'.repeat(20)}`)
    expect(log.topics).toEqual([
      '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef',
      `0x${A.slice(2).padStart(64, '0')}`,
      `0x${B.slice(2).padStart(64, '0')}`,
    ])
  })

  it('answers the spec’s error codes', async () => {
    const code = async (payload: object) => (await simulate(payload)).error?.code
    const head = Number((await node.http<string>('eth_blockNumber')).result)
    const at = (n: number) => `0x${n.toString(16)}`
    expect(await code({ blockStateCalls: [{ blockOverrides: { number: at(head) } }] })).toBe(-38020)
    expect(await code({ blockStateCalls: [{}, { blockOverrides: { time: '0x1' } }] })).toBe(-38021)
    expect(await code({ blockStateCalls: [{ blockOverrides: { number: at(head + 257) } }] })).toBe(-38026)
    expect(await code({ blockStateCalls: [{ calls: [{ from: A, to: B, nonce: '0x1' }] }], validation: true })).toBe(-38011)
    expect(
      await code({ blockStateCalls: [{ stateOverrides: { [A]: { nonce: '0x2' } }, calls: [{ from: A, to: B, nonce: '0x1' }] }], validation: true }),
    ).toBe(-38010)
    expect(await code({ blockStateCalls: [{ calls: [{ from: A, to: B, value: '0x1' }] }] })).toBe(-38014)
    expect(await code({ blockStateCalls: [{ calls: [{ from: A, to: B, gas: '0x1' }] }] })).toBe(-38013)
    expect(await code({ blockStateCalls: [{ blockOverrides: { gasLimit: '0x5208' }, calls: [{ from: A, to: B, gas: '0x5209' }] }] })).toBe(-38015)
    expect(
      await code({
        blockStateCalls: [{ blockOverrides: { baseFeePerGas: '0x7' }, calls: [{ from: A, to: B, maxFeePerGas: '0x1' }] }],
        validation: true,
      }),
    ).toBe(-38012)
    expect(await code({ blockStateCalls: [{ stateOverrides: { [B]: { movePrecompileToAddress: A } } }] })).toBe(-32000)
    expect(await code({ blockStateCalls: [{ calls: [{ from: A, input: `0x${'00'.repeat(49_153)}` }] }] })).toBe(-38025)
    expect((await node.http('eth_simulateV1', [{ blockStateCalls: 'x' }])).error?.code).toBe(-32602)
    // Found by the fuzzer: a time beyond uint64 reached EthereumJS's fork selection and came back -32603.
    expect(await code({ blockStateCalls: [{ blockOverrides: { time: `0x${'f'.repeat(20)}` } }] })).toBe(-32602)
    expect((await node.http('eth_call', [{ to: A }, 'latest', null, { time: `0x${'f'.repeat(20)}` }])).error?.code).toBe(-32602)
  })

  it('without validation, a call paying less than an overridden base fee runs free (as geth)', async () => {
    const r = await simulate({ blockStateCalls: [{ blockOverrides: { baseFeePerGas: '0xa' }, calls: [{ from: B, to: B, maxFeePerGas: '0x0' }] }] })
    expect(r.result![0]).toMatchObject({ baseFeePerGas: '0xa', calls: [{ status: '0x1' }] })
  })
})

// What the issue asked of eth_simulateV1, each checked against geth's code (internal/ethapi/simulate.go, logtracer.go,
// override/override.go, core/state_transition.go, core/vm/evm.go).
describe('eth_simulateV1 as geth runs it', () => {
  const E = '0xc400000000000000000000000000000000000000'
  const X = '0xc500000000000000000000000000000000000000'
  const SHA256 = '0x0000000000000000000000000000000000000002'
  const ECRECOVER = '0x0000000000000000000000000000000000000001'
  const MAX_NONCE = '0xffffffffffffffff'
  /** Runtime: returns 42. */
  const RETURNS_42 = assemble(['0x2a', 'PUSH0', 'MSTORE', '0x20', 'PUSH0', 'RETURN'])
  const ONE_ETHER = '0xde0b6b3a7640000'
  const full = <T>(payload: object) =>
    simulate({ ...payload, returnFullTransactions: true }) as Promise<RpcReply<(Omit<SimBlock, 'transactions'> & { transactions: T[] })[]>>

  it('runs blob transactions: BLOBHASH, the header’s blob gas and the next excess, the type-3 transaction geth encodes', async () => {
    // Runtime: returns BLOBHASH(0).
    const code = assemble(['PUSH0', 'BLOBHASH', 'PUSH0', 'MSTORE', '0x20', 'PUSH0', 'RETURN'])
    const hashes = Array.from({ length: 6 }, (_, i) => `0x01${(i + 1).toString(16).padStart(62, '0')}`)
    const call = { from: A, to: D, gas: '0x100000', blobVersionedHashes: hashes }
    const r = await full<{ type: string; hash: string; nonce: string; maxFeePerBlobGas: string; blobVersionedHashes: string[] }>({
      blockStateCalls: [{ stateOverrides: { [A]: { balance: ONE_ETHER }, [D]: { code } }, calls: [call, call] }, {}],
    })
    expect(r.error).toBeUndefined()
    const [first, second] = r.result!
    expect(first!.calls.map((c) => [c.status, c.returnData])).toEqual([
      ['0x1', hashes[0]],
      ['0x1', hashes[0]],
    ])
    // Twelve blobs' gas; the next block's excess is what passes the target of six (geth's CalcExcessBlobGas).
    expect(first!.blobGasUsed).toBe(`0x${(12 * 131072).toString(16)}`)
    expect(second!.excessBlobGas).toBe(`0x${(6 * 131072).toString(16)}`)
    const tx = first!.transactions[0]!
    expect(tx).toMatchObject({ type: '0x3', maxFeePerBlobGas: '0x0', blobVersionedHashes: hashes, nonce: '0x0' })
    // The hash of the unsigned transaction as geth's ToTransaction makes it (v, r, s zero), by EthereumJS's codec.
    const reference = createTx(
      {
        type: 3,
        chainId: node.spec.chainId,
        nonce: 0n,
        maxPriorityFeePerGas: 0n,
        maxFeePerGas: 0n,
        gasLimit: 0x100000n,
        to: D,
        value: 0n,
        data: '0x',
        accessList: [],
        maxFeePerBlobGas: 0n,
        blobVersionedHashes: hashes,
        v: 0n,
        r: 0n,
        s: 0n,
      } as never,
      { common: node.spec.common },
    )
    expect(tx.hash).toBe(bytesToHex(reference.hash()))
  })

  it('runs a contract calling itself: the sender keeps its code (geth skips EIP-3607 for simulated calls)', async () => {
    const r = await simulate({ blockStateCalls: [{ stateOverrides: { [E]: { code: RETURNS_42 } }, calls: [{ from: E, to: E }] }] })
    expect(r.result![0]!.calls[0]).toMatchObject({ status: '0x1', returnData: uint256(42) })
    const validated = await simulate({
      blockStateCalls: [
        {
          stateOverrides: { [E]: { code: RETURNS_42, balance: ONE_ETHER } },
          calls: [{ from: E, to: E, gas: '0x10000', maxFeePerGas: '0x174876e800' }],
        },
      ],
      validation: true,
    })
    expect(validated.result![0]!.calls[0]).toMatchObject({ status: '0x1', returnData: uint256(42) })
  })

  it('answers a reverted call with empty returnData and the revert data in its error (geth’s result.Return())', async () => {
    const r = await simulate({ blockStateCalls: [{ stateOverrides: { [E]: { code: assemble(REVERT_NOPE) } }, calls: [{ from: A, to: E }] }] })
    const c = r.result![0]!.calls[0]!
    expect(c).toMatchObject({ status: '0x0', returnData: '0x', error: { code: 3, message: 'execution reverted: nope' } })
    expect((c.error as { data?: string }).data).toMatch(/^0x08c379a0/)
  })

  it('takes nonces up to 2^64-1, wraps a sender’s at it, and fails a creation there (ErrNonceUintOverflow)', async () => {
    const given = await full<{ nonce: string }>({ blockStateCalls: [{ calls: [{ from: A, to: B, nonce: MAX_NONCE }] }] })
    expect(given.result![0]!.transactions[0]!.nonce).toBe(MAX_NONCE)
    expect((await simulate({ blockStateCalls: [{ calls: [{ from: A, to: B, nonce: '0x10000000000000000' }] }] })).error?.code).toBe(-32602)
    expect((await simulate({ blockStateCalls: [{ stateOverrides: { [A]: { nonce: '0x10000000000000000' } } }] })).error?.code).toBe(-32602)
    // A call from an account at 2^64-1 moves its nonce on to 0 (geth's uint64 SetNonce(n+1)).
    const wrapped = await full<{ nonce: string }>({
      blockStateCalls: [
        {
          stateOverrides: { [A]: { nonce: MAX_NONCE } },
          calls: [
            { from: A, to: B },
            { from: A, to: B },
          ],
        },
      ],
    })
    expect(wrapped.result![0]!.transactions.map((t) => t.nonce)).toEqual([MAX_NONCE, '0x0'])
    // A creation from it fails in its frame, the nonce untouched and only the intrinsic gas used (53,000 + 4 + 2).
    const created = await full<{ nonce: string }>({
      blockStateCalls: [
        {
          stateOverrides: { [A]: { nonce: MAX_NONCE } },
          calls: [
            { from: A, input: '0x00' },
            { from: A, to: B },
          ],
        },
      ],
    })
    const [create, next] = created.result![0]!.calls
    expect(create).toMatchObject({
      status: '0x0',
      gasUsed: '0xcf0e',
      maxUsedGas: '0xcf0e',
      error: { code: -32015, message: 'nonce uint64 overflow' },
    })
    expect(next).toMatchObject({ status: '0x1' })
    expect(created.result![0]!.transactions.map((t) => t.nonce)).toEqual([MAX_NONCE, MAX_NONCE])
    // With validation the state transition refuses it (ErrNonceMax).
    const refused = await simulate({
      blockStateCalls: [
        { stateOverrides: { [A]: { nonce: MAX_NONCE, balance: ONE_ETHER } }, calls: [{ from: A, to: B, maxFeePerGas: '0x174876e800' }] },
      ],
      validation: true,
    })
    expect(refused.error?.message).toBe(
      `err: nonce has max value: address ${checksumAddress(hexToBytes(A))}, nonce: 18446744073709551615 (supplied gas 36000000)`,
    )
  })

  it('moves two precompiles to one address as geth does: the later in address order is there', async () => {
    const r = await simulate({
      blockStateCalls: [
        {
          stateOverrides: { [ECRECOVER]: { movePrecompileToAddress: X }, [SHA256]: { movePrecompileToAddress: X } },
          calls: [{ from: A, to: X, input: '0x1234' }],
        },
      ],
    })
    expect(r.error).toBeUndefined()
    expect(r.result![0]!.calls[0]).toMatchObject({
      status: '0x1',
      returnData: `0x${createHash('sha256').update(Buffer.from('1234', 'hex')).digest('hex')}`,
    })
    // Code put at a precompile's address runs there: the override takes the precompile away.
    const coded = await simulate({ blockStateCalls: [{ stateOverrides: { [SHA256]: { code: RETURNS_42 } }, calls: [{ from: A, to: SHA256 }] }] })
    expect(coded.result![0]!.calls[0]).toMatchObject({ status: '0x1', returnData: uint256(42) })
  })

  it('charges a moved precompile as geth: cold at its new address, the old one warm and empty', async () => {
    /** Runtime: STATICCALL(GAS, target, 0, 0, 0, 0), then stops. */
    const caller = (target: string) => assemble(['PUSH0', 'PUSH0', 'PUSH0', 'PUSH0', target as `0x${string}`, 'GAS', 'STATICCALL', 'STOP'])
    const gasOf = async (stateOverrides: object) => {
      const r = await simulate({ blockStateCalls: [{ stateOverrides, calls: [{ from: A, to: E }] }] })
      expect(r.error).toBeUndefined()
      return Number(r.result![0]!.calls[0]!.gasUsed)
    }
    const warm = await gasOf({ [E]: { code: caller(SHA256) } })
    const moved = await gasOf({ [E]: { code: caller(X) }, [SHA256]: { movePrecompileToAddress: X } })
    const left = await gasOf({ [E]: { code: caller(SHA256) }, [SHA256]: { movePrecompileToAddress: X } })
    // EIP-2929: 2,600 for the cold address against 100 for a precompile's; the address left behind is still warm and
    // runs nothing (sha256 of no input costs 60).
    expect(moved - warm).toBe(2500)
    expect(warm - left).toBe(60)
  })

  it('refuses overrides as geth’s StateOverride.Apply does, with the calls’ error kinds', async () => {
    const refused = await simulate({
      blockStateCalls: [{ stateOverrides: { [ECRECOVER]: { movePrecompileToAddress: B }, [B]: { balance: '0x1' } } }],
    })
    expect(refused.error).toEqual({ code: -32000, message: `account ${checksumAddress(hexToBytes(B))} is already overridden` })
    const notPrecompile = await simulate({ blockStateCalls: [{ stateOverrides: { [B]: { movePrecompileToAddress: A } } }] })
    expect(notPrecompile.error).toEqual({ code: -32000, message: `account ${checksumAddress(hexToBytes(B))} is not a precompile` })
  })

  it('numbers logs as geth’s tracer does: a reverted frame’s logs count, and are left out', async () => {
    // E: LOG0 then REVERT. X: CALL(E), then LOG0.
    const logThenRevert = assemble(['PUSH0', 'PUSH0', 'LOG0', 'PUSH0', 'PUSH0', 'REVERT'])
    const callThenLog = assemble([
      'PUSH0',
      'PUSH0',
      'PUSH0',
      'PUSH0',
      'PUSH0',
      E as `0x${string}`,
      'GAS',
      'CALL',
      'POP',
      'PUSH0',
      'PUSH0',
      'LOG0',
      'STOP',
    ])
    const r = await simulate({
      blockStateCalls: [
        {
          stateOverrides: { [E]: { code: logThenRevert }, [X]: { code: callThenLog } },
          calls: [
            { from: A, to: X },
            { from: A, to: X },
          ],
        },
      ],
    })
    expect(r.result![0]!.calls.map((c) => c.logs.map((l) => [l.address, l.logIndex]))).toEqual([[[X, '0x1']], [[X, '0x3']]])
  })

  it('keeps a stored contract’s code hash while other accounts are read (the flat table’s reads share a buffer)', async () => {
    // Runtime: EXTCODEHASH(Multicall3), BALANCE of a dev account, EXTCODEHASH(Multicall3) again: both words returned.
    const target = MULTICALL3_ADDRESS as `0x${string}`
    const other = devAccounts()[3]!.address as `0x${string}`
    const code = assemble([
      target,
      'EXTCODEHASH',
      'PUSH0',
      'MSTORE',
      other,
      'BALANCE',
      'POP',
      target,
      'EXTCODEHASH',
      '0x20',
      'MSTORE',
      '0x40',
      'PUSH0',
      'RETURN',
    ])
    const r = await simulate({ blockStateCalls: [{ stateOverrides: { [E]: { code } }, calls: [{ from: A, to: E }] }] })
    const hash = bytesToHex(keccak256(hexToBytes(MULTICALL3_RUNTIME)))
    expect(r.result![0]!.calls[0]!.returnData).toBe(`${hash}${hash.slice(2)}`)
  })

  it('answers BLOCKHASH of the simulated blocks before it', async () => {
    const head = (await node.http<{ hash: string }>('eth_getBlockByNumber', ['latest', false])).result!
    // Runtime: returns BLOCKHASH(NUMBER - 1).
    const code = assemble(['0x01', 'NUMBER', 'SUB', 'BLOCKHASH', 'PUSH0', 'MSTORE', '0x20', 'PUSH0', 'RETURN'])
    const r = await simulate({
      blockStateCalls: [{ stateOverrides: { [E]: { code } }, calls: [{ from: A, to: E }] }, { calls: [{ from: A, to: E }] }],
    })
    const [first, second] = r.result!
    expect(first!.calls[0]!.returnData).toBe(head.hash)
    expect(second!.calls[0]!.returnData).toBe(first!.hash)
  })

  it('spends one --rpc.gascap budget across the simulation, and says so when it capped a failing call', async () => {
    const burn = { from: A, to: E, gas: `0x${(18_000_000).toString(16)}` }
    const r = await simulate({
      blockStateCalls: [{ stateOverrides: { [E]: { code: assemble(['INVALID']) } }, calls: [burn, burn] }, { calls: [{ from: A, to: E }] }],
    })
    expect(r.error).toBeUndefined()
    // 36M of the 50M used: the third call gets the 14M left, not the block's 36M.
    const capped = r.result![1]!.calls[0]!
    expect(capped).toMatchObject({
      status: '0x0',
      gasUsed: `0x${(14_000_000).toString(16)}`,
      error: { code: -32015, message: "invalid opcode: INVALID (gas limit was capped by the RPC server's global gas cap)" },
    })
  })

  it('lists an unsigned legacy transaction as geth does (its v of 0 derives chain id 2^63-18)', async () => {
    const r = await full<{ type: string; chainId?: string; v: string; gasPrice: string }>({
      blockStateCalls: [{ calls: [{ from: A, to: B, gasPrice: '0x0' }] }],
    })
    expect(r.result![0]!.transactions[0]).toMatchObject({ type: '0x0', chainId: '0x7fffffffffffffee', v: '0x0', gasPrice: '0x0' })
  })

  it('refuses what geth refuses before simulating: no blocks, too many blocks or calls', async () => {
    expect((await simulate({ blockStateCalls: [] })).error?.code).toBe(-32602)
    expect((await simulate({ blockStateCalls: Array.from({ length: 257 }, () => ({})) })).error?.code).toBe(-38026)
    const calls = Array.from({ length: 5001 }, () => ({ from: A, to: B }))
    expect((await simulate({ blockStateCalls: [{ calls }] })).error?.code).toBe(-38026)
  })
})
