import { payloadBodiesByHash, payloadBodiesByRange } from '../../engine/payloadBodies.js'
import type { NodeContext } from '../context.js'
import type { Reply } from '../reply.js'
import type {
  ClientVersionParams,
  ExchangeCapabilitiesParams,
  ForkchoiceUpdatedParams,
  GetPayloadParams,
  HashListParams,
  NewPayloadV1Params,
  NewPayloadV3Params,
  NewPayloadV4Params,
  PayloadBodiesByRangeParams,
} from '../../wire/engineParams.js'

// Engine API handlers (execution-apis src/engine): thin adapters from wire params to the EngineService. Which
// members and forks each version accepts is decided in engine/payloadVersions.ts.

export const newPayloadV1 = ([payload]: NewPayloadV1Params, ctx: NodeContext): Promise<Reply> => ctx.engine.newPayload(1, payload)
export const newPayloadV2 = ([payload]: NewPayloadV1Params, ctx: NodeContext): Promise<Reply> => ctx.engine.newPayload(2, payload)
export const newPayloadV3 = ([payload, versionedHashes, parentBeaconBlockRoot]: NewPayloadV3Params, ctx: NodeContext): Promise<Reply> =>
  ctx.engine.newPayload(3, payload, { versionedHashes, parentBeaconBlockRoot })
export const newPayloadV4 = ([payload, versionedHashes, parentBeaconBlockRoot, executionRequests]: NewPayloadV4Params, ctx: NodeContext): Promise<Reply> =>
  ctx.engine.newPayload(4, payload, { versionedHashes, parentBeaconBlockRoot, executionRequests })

export const forkchoiceUpdatedV1 = ([state, attrs]: ForkchoiceUpdatedParams, ctx: NodeContext): Promise<Reply> =>
  ctx.engine.forkchoiceUpdated(state, attrs, 1)
export const forkchoiceUpdatedV2 = ([state, attrs]: ForkchoiceUpdatedParams, ctx: NodeContext): Promise<Reply> =>
  ctx.engine.forkchoiceUpdated(state, attrs, 2)
export const forkchoiceUpdatedV3 = ([state, attrs]: ForkchoiceUpdatedParams, ctx: NodeContext): Promise<Reply> =>
  ctx.engine.forkchoiceUpdated(state, attrs, 3)

export const getPayloadV1 = ([id]: GetPayloadParams, ctx: NodeContext): Promise<Reply> => ctx.engine.getPayload(id, 1)
export const getPayloadV2 = ([id]: GetPayloadParams, ctx: NodeContext): Promise<Reply> => ctx.engine.getPayload(id, 2)
export const getPayloadV3 = ([id]: GetPayloadParams, ctx: NodeContext): Promise<Reply> => ctx.engine.getPayload(id, 3)
export const getPayloadV4 = ([id]: GetPayloadParams, ctx: NodeContext): Promise<Reply> => ctx.engine.getPayload(id, 4)
export const getPayloadV5 = ([id]: GetPayloadParams, ctx: NodeContext): Promise<Reply> => ctx.engine.getPayload(id, 5)

export const getBlobsV1 = ([hashes]: HashListParams, ctx: NodeContext): Reply => ctx.engine.getBlobs(hashes, 1)
export const getBlobsV2 = ([hashes]: HashListParams, ctx: NodeContext): Reply => ctx.engine.getBlobs(hashes, 2)

// Store reads of a few microseconds a body: served on the serving thread (at most MAX_PAYLOAD_BODIES a call).
export const payloadBodiesByHashV1 = ([hashes]: HashListParams, ctx: NodeContext): Reply =>
  payloadBodiesByHash(ctx.spec, ctx.store, hashes)
export const payloadBodiesByRangeV1 = ([start, count]: PayloadBodiesByRangeParams, ctx: NodeContext): Reply =>
  payloadBodiesByRange(ctx.spec, ctx.store, BigInt(start), BigInt(count), ctx.chain.headNumber())


/** engine_exchangeCapabilities (common.md): every engine method this node serves, from the method table. */
export const exchangeCapabilities = (_: ExchangeCapabilitiesParams, ctx: NodeContext): Reply => ctx.engineMethods

export const getClientVersionV1 = (_: ClientVersionParams, ctx: NodeContext): Reply => [
  { code: 'SP', name: 'Sponge', version: ctx.clientVersion.split('/')[1] ?? 'v0.1.0', commit: '0x00000000' },
]
