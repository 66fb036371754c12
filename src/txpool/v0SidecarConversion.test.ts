import { RLP } from '@ethereumjs/rlp'
import { devBlobTx } from '../testing/blobTx.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { nativeKzg } from '../crypto/kzg.js'
import { type TestNode, ZERO32, startTestNode } from '../testing/testNode.js'
import type { TxPool } from './txPool.js'
import type { TxSubmission } from './txSubmission.js'
import { bytesToHex, concatBytes, hexToBytes } from '../util/hex.js'

// Issue 31 item 7: a blob transaction sent after Osaka with a version-0 sidecar (one blob proof per blob, what most
// tools still send) was given its cell proofs on its send's path, ~0.35 s a blob before the send was answered (anvil
// answers in ~15 ms). Its blob proofs are checked on the send (a wrong one is still refused there); its cell proofs
// are made after, in the background, and whatever serves them waits for them: engine_getBlobsV2,
// debug_getRawTransaction, and a consensus client's build (getPayloadV5's bundle), which leaves it out until then.
// A node without dev mode: a consensus client's node, where the conversion starts as soon as the send is pooled.

let n: TestNode
let txs: TxSubmission
let pool: TxPool
beforeAll(async () => {
  n = await startTestNode({ apis: ['eth', 'net', 'web3', 'debug'] })
  txs = n.node.context.txs!
  pool = n.node.context.txPool!
})
afterAll(async () => {
  await n.close()
})

/** A version-0 wrapper (a Prague common makes it) of a one-blob transaction from dev account `from`. */
function v0BlobTx(from: number, text: string): { raw: Uint8Array; blob: Uint8Array; versioned: string } {
  const prague = n.spec.commonAt(0n, 0n).copy()
  prague.setHardfork('prague')
  const tx = devBlobTx(prague, from, text)
  expect(tx.kzgProofs).toHaveLength(1)
  return { raw: tx.serializeNetworkWrapper(), blob: hexToBytes(tx.blobs![0]!), versioned: tx.blobVersionedHashes[0]!.toLowerCase() }
}

/** The blob's 128 cell proofs as c-kzg makes them, hex. */
const cellProofsOf = (blob: Uint8Array): string[] =>
  nativeKzg()
    .computeCellsAndKzgProofs(blob)[1]
    .map((p) => bytesToHex(p))

describe('a version-0 sidecar after Osaka', () => {
  it('is pooled with its blob proofs when its send is answered, and given its cell proofs after', async () => {
    const { raw, blob } = v0BlobTx(7, 'converted after the answer')
    const hash = await txs.submit(raw)
    // The answer came before any message from the conversion thread could be read: nothing made the cell proofs on
    // the send's path.
    const pooled = pool.get(hash)!
    expect(pooled.blobs![0]!.cellProofs).toBe(false)
    expect(pooled.raw).toEqual(raw)
    await pool.cellProofsMade(hash)
    expect(pooled.blobs![0]!.cellProofs).toBe(true)
    expect(pooled.blobs![0]!.proofs.map((p) => bytesToHex(p))).toEqual(cellProofsOf(blob))
    // The pool now holds the version-1 wrapper: the transaction, then version 1, blobs, commitments, cell proofs.
    const wrapper = RLP.decode(pooled.raw.subarray(1)) as Uint8Array[][]
    expect(bytesToHex(wrapper[1] as unknown as Uint8Array)).toBe('0x01')
    expect(wrapper[4]).toHaveLength(128)
  })

  it('is refused on its send when its blob proof does not hold', async () => {
    const { raw } = v0BlobTx(5, 'a wrong proof')
    const other = RLP.decode(v0BlobTx(5, 'another blob').raw.subarray(1)) as Uint8Array[][]
    const wrapper = RLP.decode(raw.subarray(1)) as Uint8Array[][]
    // The other blob's proof: a valid point, not this blob's proof.
    wrapper[3] = other[3]!
    const sent = await n.http('eth_sendRawTransaction', [bytesToHex(concatBytes(Uint8Array.of(3), RLP.encode(wrapper)))])
    expect(sent.error?.message).toBe('KZG verification error: invalid blob proof')
  })

  it('is served with its cell proofs by engine_getBlobsV2, debug_getRawTransaction and getPayloadV5’s bundle', async () => {
    const { raw, blob, versioned } = v0BlobTx(8, 'served with cell proofs')
    const sent = await n.http<string>('eth_sendRawTransaction', [bytesToHex(raw)])
    expect(sent.error).toBeUndefined()
    const proofs = cellProofsOf(blob)
    // Asked at once, whether or not the conversion is done: answered with the cell proofs, never null or blob proofs.
    const blobs = (await n.engine<{ blob: string; proofs: string[] }[] | null>('engine_getBlobsV2', [[versioned]])).result
    expect(blobs).toEqual([{ blob: bytesToHex(blob), proofs }])
    const rawNow = (await n.http<string>('debug_getRawTransaction', [sent.result])).result!
    const wrapper = RLP.decode(hexToBytes(rawNow).subarray(1)) as Uint8Array[][]
    expect((wrapper[4] as Uint8Array[]).map((p) => bytesToHex(p))).toEqual(proofs)

    // A consensus client's block takes both (each converted by now), their cell proofs in the bundle.
    const head = (await n.engine<{ hash: string; timestamp: string }>('eth_getBlockByNumber', ['latest', false])).result!
    const started = await n.engine<{ payloadId: string }>('engine_forkchoiceUpdatedV3', [
      { headBlockHash: head.hash, safeBlockHash: ZERO32, finalizedBlockHash: ZERO32 },
      {
        timestamp: `0x${(BigInt(head.timestamp) + 12n).toString(16)}`,
        prevRandao: ZERO32,
        suggestedFeeRecipient: `0x${'00'.repeat(20)}`,
        withdrawals: [],
        parentBeaconBlockRoot: ZERO32,
      },
    ])
    const env = (
      await n.engine<{ executionPayload: { transactions: string[] }; blobsBundle: { blobs: string[]; proofs: string[] } }>('engine_getPayloadV5', [
        started.result!.payloadId,
      ])
    ).result!
    expect(env.executionPayload.transactions).toHaveLength(2)
    const at = env.blobsBundle.blobs.indexOf(bytesToHex(blob))
    expect(env.blobsBundle.blobs).toHaveLength(2)
    expect(env.blobsBundle.proofs).toHaveLength(256)
    expect(env.blobsBundle.proofs.slice(at * 128, (at + 1) * 128)).toEqual(proofs)
  })
})
