import { type TestNode, ZERO32 } from './testNode.js'

// Blocks made as a consensus client makes them, for tests of nodes started with startTestNode.

/** A withdrawal as payload attributes carry it. */
export interface WithdrawalJson {
  index: string
  validatorIndex: string
  address: string
  amount: string
}

/** Payload attributes of the V3 shape (Cancun on): what engine_forkchoiceUpdatedV3 and testing_buildBlockV1 take. */
export interface PayloadAttributesV3 {
  timestamp: string
  prevRandao: string
  suggestedFeeRecipient: string
  withdrawals: WithdrawalJson[]
  parentBeaconBlockRoot: string
}

/** V3 payload attributes at `timestamp`: zero randao and beacon root; no withdrawals and the zero fee recipient unless given. */
export function payloadAttributes(
  timestamp: number | bigint,
  opts: { feeRecipient?: string; withdrawals?: WithdrawalJson[] } = {},
): PayloadAttributesV3 {
  return {
    timestamp: `0x${timestamp.toString(16)}`,
    prevRandao: ZERO32,
    suggestedFeeRecipient: opts.feeRecipient ?? `0x${'00'.repeat(20)}`,
    withdrawals: opts.withdrawals ?? [],
    parentBeaconBlockRoot: ZERO32,
  }
}

/** The fields of an execution payload tests read. */
export interface BuiltPayload {
  blockHash: string
  blockNumber: string
  parentHash: string
  timestamp: string
  transactions: string[]
  [field: string]: unknown
}

/**
 * A block on `parentHash` through the Engine API: forkchoiceUpdatedV3 with `attrs`, getPayloadV5, newPayloadV4; then,
 * unless `head` is false, forkchoiceUpdatedV3 making it the head (and safe with `safe`). Throws at the first step
 * that does not answer as it should (an error, or a status other than VALID).
 */
export async function engineBlock(
  n: TestNode,
  parentHash: string,
  attrs: PayloadAttributesV3,
  opts: { head?: boolean; safe?: boolean } = {},
): Promise<BuiltPayload> {
  const started = await n.engine<{ payloadId: string | null }>('engine_forkchoiceUpdatedV3', [
    { headBlockHash: parentHash, safeBlockHash: ZERO32, finalizedBlockHash: ZERO32 },
    attrs,
  ])
  if (started.result?.payloadId == null)
    throw new Error(`forkchoiceUpdatedV3 on ${parentHash} started no build: ${JSON.stringify(started.error ?? started.result)}`)
  const got = await n.engine<{ executionPayload: BuiltPayload; executionRequests: string[] }>('engine_getPayloadV5', [started.result.payloadId])
  if (got.result === undefined) throw new Error(`getPayloadV5: ${JSON.stringify(got.error)}`)
  const payload = got.result.executionPayload
  const status = await n.engine<{ status: string; validationError: string | null }>('engine_newPayloadV4', [
    payload,
    [],
    ZERO32,
    got.result.executionRequests,
  ])
  if (status.result?.status !== 'VALID') throw new Error(`newPayloadV4 of ${payload.blockHash}: ${JSON.stringify(status.error ?? status.result)}`)
  if (opts.head !== false) await makeHead(n, payload.blockHash, opts.safe === true)
  return payload
}

/** forkchoiceUpdatedV3 making the stored block `hash` the head (and safe with `safe`); throws unless VALID. */
export async function makeHead(n: TestNode, hash: string, safe = false): Promise<void> {
  const moved = await n.engine<{ payloadStatus: { status: string } }>('engine_forkchoiceUpdatedV3', [
    { headBlockHash: hash, safeBlockHash: safe ? hash : ZERO32, finalizedBlockHash: ZERO32 },
    null,
  ])
  if (moved.result?.payloadStatus.status !== 'VALID')
    throw new Error(`forkchoiceUpdatedV3 to ${hash}: ${JSON.stringify(moved.error ?? moved.result)}`)
}

/** The hash of the node's latest block. */
export async function latestHash(n: TestNode): Promise<string> {
  const r = await n.http<{ hash: string }>('eth_getBlockByNumber', ['latest', false])
  if (r.result === undefined) throw new Error(`eth_getBlockByNumber latest: ${JSON.stringify(r.error)}`)
  return r.result.hash
}
