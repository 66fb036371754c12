import { payloadBodiesByHash, payloadBodiesByRange } from '../../engine/payloadBodies.js'
import { type NodeContext, nodePart } from '../context.js'
import type {
  ClientVersionParams,
  ExchangeCapabilitiesParams,
  ExecutionPayload,
  ForkchoiceUpdatedParams,
  GetPayloadParams,
  HashListParams,
  NewPayloadV1Params,
  NewPayloadV3Params,
  NewPayloadV4Params,
  PayloadBodiesByRangeParams,
} from '../../wire/engineParams.js'
import type {
  BlobAndProofV1Result,
  BlobAndProofV2Result,
  ClientVersionResult,
  ForkchoiceUpdatedResult,
  GetPayloadV2Result,
  GetPayloadV3Result,
  GetPayloadV4Result,
  PayloadBodyResult,
  PayloadStatusResult,
} from '../../wire/results.js'

// Engine API handlers (execution-apis src/engine): thin adapters from wire params to the EngineService. Which
// members and forks each version accepts is decided in engine/payloadVersions.ts. EngineService answers the built
// payloads and the blobs as loose records (shaped per version there): they are asserted as the version's result here.

type Ctx = Pick<NodeContext, 'engine'>

export const newPayloadV1 = ([payload]: NewPayloadV1Params, ctx: Ctx): Promise<PayloadStatusResult> => nodePart(ctx.engine).newPayload(1, payload)
export const newPayloadV2 = ([payload]: NewPayloadV1Params, ctx: Ctx): Promise<PayloadStatusResult> => nodePart(ctx.engine).newPayload(2, payload)
export const newPayloadV3 = ([payload, versionedHashes, parentBeaconBlockRoot]: NewPayloadV3Params, ctx: Ctx): Promise<PayloadStatusResult> =>
  nodePart(ctx.engine).newPayload(3, payload, { versionedHashes, parentBeaconBlockRoot })
export const newPayloadV4 = (
  [payload, versionedHashes, parentBeaconBlockRoot, executionRequests]: NewPayloadV4Params,
  ctx: Ctx,
): Promise<PayloadStatusResult> => nodePart(ctx.engine).newPayload(4, payload, { versionedHashes, parentBeaconBlockRoot, executionRequests })

export const forkchoiceUpdatedV1 = ([state, attrs]: ForkchoiceUpdatedParams, ctx: Ctx): Promise<ForkchoiceUpdatedResult> =>
  nodePart(ctx.engine).forkchoiceUpdated(state, attrs, 1)
export const forkchoiceUpdatedV2 = ([state, attrs]: ForkchoiceUpdatedParams, ctx: Ctx): Promise<ForkchoiceUpdatedResult> =>
  nodePart(ctx.engine).forkchoiceUpdated(state, attrs, 2)
export const forkchoiceUpdatedV3 = ([state, attrs]: ForkchoiceUpdatedParams, ctx: Ctx): Promise<ForkchoiceUpdatedResult> =>
  nodePart(ctx.engine).forkchoiceUpdated(state, attrs, 3)

export const getPayloadV1 = ([id]: GetPayloadParams, ctx: Ctx): Promise<ExecutionPayload> =>
  nodePart(ctx.engine).getPayload(id, 1) as Promise<unknown> as Promise<ExecutionPayload>
export const getPayloadV2 = ([id]: GetPayloadParams, ctx: Ctx): Promise<GetPayloadV2Result> =>
  nodePart(ctx.engine).getPayload(id, 2) as Promise<unknown> as Promise<GetPayloadV2Result>
export const getPayloadV3 = ([id]: GetPayloadParams, ctx: Ctx): Promise<GetPayloadV3Result> =>
  nodePart(ctx.engine).getPayload(id, 3) as Promise<unknown> as Promise<GetPayloadV3Result>
export const getPayloadV4 = ([id]: GetPayloadParams, ctx: Ctx): Promise<GetPayloadV4Result> =>
  nodePart(ctx.engine).getPayload(id, 4) as Promise<unknown> as Promise<GetPayloadV4Result>
export const getPayloadV5 = ([id]: GetPayloadParams, ctx: Ctx): Promise<GetPayloadV4Result> =>
  nodePart(ctx.engine).getPayload(id, 5) as Promise<unknown> as Promise<GetPayloadV4Result>

export const getBlobsV1 = ([hashes]: HashListParams, ctx: Ctx): (BlobAndProofV1Result | null)[] =>
  nodePart(ctx.engine).getBlobsV1(hashes) as (BlobAndProofV1Result | null)[]
export const getBlobsV2 = ([hashes]: HashListParams, ctx: Ctx): Promise<BlobAndProofV2Result[] | null> =>
  nodePart(ctx.engine).getBlobsV2(hashes) as Promise<BlobAndProofV2Result[] | null>

// Store reads of a few microseconds a body: served on the serving thread (at most MAX_PAYLOAD_BODIES a call).
export const payloadBodiesByHashV1 = ([hashes]: HashListParams, ctx: Pick<NodeContext, 'spec' | 'store'>): (PayloadBodyResult | null)[] =>
  payloadBodiesByHash(ctx.spec, ctx.store, hashes)
export const payloadBodiesByRangeV1 = (
  [start, count]: PayloadBodiesByRangeParams,
  ctx: Pick<NodeContext, 'spec' | 'store' | 'chain'>,
): (PayloadBodyResult | null)[] => payloadBodiesByRange(ctx.spec, ctx.store, BigInt(start), BigInt(count), ctx.chain.headNumber())

/** engine_exchangeCapabilities (common.md): every engine method this node serves but this one, from the method table. */
export const exchangeCapabilities = (_: ExchangeCapabilitiesParams, ctx: Pick<NodeContext, 'engineMethods'>): readonly string[] => ctx.engineMethods

export const getClientVersionV1 = (_: ClientVersionParams, ctx: Pick<NodeContext, 'clientVersion'>): ClientVersionResult[] => [
  { code: 'SP', name: 'Sponge', version: ctx.clientVersion.split('/')[1] ?? 'v0.1.0', commit: '0x00000000' },
]
