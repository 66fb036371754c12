import { createFeeMarket1559Tx, createTxFromRLP } from '@ethereumjs/tx'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devAccounts } from '../chain/dev.js'
import { keccak256 } from '../crypto/keccak.js'
import { decodeBlockTx, recoverSenderKey, signingRulesOf } from '../exec/blockTx.js'
import { payloadAttributes } from '../testing/engineBlocks.js'
import { type TestNode, ZERO32, signedTransfer, startTestNode } from '../testing/testNode.js'
import { bytesToHex, hexToBytes } from '../util/hex.js'
import { payloadToBlock } from './worker/payloadBlock.js'

// A payload's senders as the engine worker gets them (exec/senderRecovery.ts). Transactions the node already
// pooled: their keys come from the pool, by hash, into the slots the engine worker reads; a key put at the wrong
// index would make the wrong account the sender, and the block INVALID. A payload large enough for a public worker to
// recover its senders alongside the engine worker, which asks for each sender in its transaction's turn: every
// sender right, and a signature that recovers no key failing in its own turn, with geth's message, however the two
// threads split the work.

const SENDERS = 8
const ROUNDS = 10

let builder: TestNode
let follower: TestNode
beforeAll(async () => {
  ;[builder, follower] = await Promise.all([startTestNode({ apis: ['eth', 'testing'] }), startTestNode()])
})
afterAll(async () => {
  await Promise.all([builder.close(), follower.close()])
})

type Payload = { blockHash: string; transactions: string[] }

/** The payload with its block hash recomputed after a change (the builder makes only valid blocks). */
async function rehash(n: TestNode, p: Payload): Promise<Payload> {
  const input = { version: 4 as const, payload: p as never, versionedHashes: [], parentBeaconBlockRoot: ZERO32, executionRequests: [] }
  const received = await payloadToBlock(n.spec, input).then(
    () => p.blockHash,
    (e: unknown) => /received: (0x[0-9a-f]{64})/.exec((e as Error).message)?.[1],
  )
  return { ...p, blockHash: received! }
}

/** `raw` signed with an r from which no public key recovers: it decodes, and fails only at recovery. */
function unrecoverable(n: TestNode, raw: string): string {
  const tx = createTxFromRLP(hexToBytes(raw), { common: n.spec.commonAt(1n, 1n) })
  const rules = signingRulesOf(tx.common)
  for (let r = 1n; r < 256n; r++) {
    const bad = createFeeMarket1559Tx({ ...tx.toJSON(), r } as never, { common: tx.common }).serialize()
    if (recoverSenderKey(decodeBlockTx(bad, rules)) === undefined) return bytesToHex(bad)
  }
  throw new Error('no unrecoverable r below 256')
}

describe('newPayload of transactions the pool holds', () => {
  it('executes with the senders the pool recovered at admission', async () => {
    const raws = [3, 1, 4, 0, 2].map((from) => signedTransfer(follower.spec, from, 0, { value: BigInt(from + 1) }))
    // Pooled on the follower, in another order than the block's, one left out.
    for (const raw of [raws[2]!, raws[0]!, raws[4]!, raws[3]!]) expect((await follower.http('eth_sendRawTransaction', [raw])).error).toBeUndefined()
    const genesis = (await builder.http<{ hash: string }>('eth_getBlockByNumber', ['0x0', false])).result!
    const built = await builder.http<{ executionPayload: { blockHash: string } }>('testing_buildBlockV1', [
      genesis.hash,
      payloadAttributes(0x1000),
      raws,
      null,
    ])
    const status = await follower.engine<{ status: string }>('engine_newPayloadV4', [built.result!.executionPayload, [], ZERO32, []])
    expect(status.result?.status).toBe('VALID')
    const block = built.result!.executionPayload.blockHash
    const froms: string[] = []
    for (let i = 0; i < raws.length; i++) {
      const tx = await follower.http<{ from: string }>('eth_getTransactionByBlockHashAndIndex', [block, `0x${i.toString(16)}`])
      froms.push(tx.result!.from)
    }
    expect(froms).toEqual([3, 1, 4, 0, 2].map((i) => devAccounts()[i]!.address.toLowerCase()))
  })
})

describe("a large payload's senders, each in its transaction's turn", () => {
  it('executes with every sender right, and fails a signature that recovers no key in its turn', async () => {
    const raws: string[] = []
    for (let nonce = 0; nonce < ROUNDS; nonce++) for (let from = 0; from < SENDERS; from++) raws.push(signedTransfer(follower.spec, from, nonce))
    const genesis = (await builder.http<{ hash: string }>('eth_getBlockByNumber', ['0x0', false])).result!
    const built = await builder.http<{ executionPayload: Payload }>('testing_buildBlockV1', [genesis.hash, payloadAttributes(0x1000), raws, null])
    const payload = built.result!.executionPayload
    expect(payload.transactions).toHaveLength(raws.length)

    const at = raws.length - 5
    const transactions = payload.transactions.map((raw, i) => (i === at ? unrecoverable(follower, raw) : raw))
    const bad = await rehash(follower, { ...payload, transactions })
    const refused = await follower.engine<{ status: string; latestValidHash: string; validationError: string }>('engine_newPayloadV4', [
      bad,
      [],
      ZERO32,
      [],
    ])
    const hash = bytesToHex(keccak256(hexToBytes(transactions[at]!)))
    expect(refused.result).toEqual({
      status: 'INVALID',
      latestValidHash: genesis.hash,
      validationError: `could not apply tx ${at} [${hash}]: invalid sender: invalid transaction v, r, s values`,
    })

    const status = await follower.engine<{ status: string }>('engine_newPayloadV4', [payload, [], ZERO32, []])
    expect(status.result?.status).toBe('VALID')
    const froms: string[] = []
    for (let i = 0; i < raws.length; i++) {
      const tx = await follower.http<{ from: string }>('eth_getTransactionByBlockHashAndIndex', [payload.blockHash, `0x${i.toString(16)}`])
      froms.push(tx.result!.from)
    }
    expect(froms).toEqual(raws.map((_, i) => devAccounts()[i % SENDERS]!.address.toLowerCase()))
  })
})
