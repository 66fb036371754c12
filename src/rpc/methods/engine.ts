import type { NodeContext } from '../../node/context.js'
import type { Reply } from '../reply.js'
import type {
  ClientVersionParams,
  ExchangeCapabilitiesParams,
  ForkchoiceUpdatedParams,
  GetPayloadParams,
  NewPayloadV4Params,
} from '../wire/engineParams.js'

// Engine API handlers (execution-apis src/engine): thin adapters from wire params to the EngineService.

export const newPayloadV4 = ([payload, hashes, beaconRoot, requests]: NewPayloadV4Params, ctx: NodeContext): Promise<Reply> =>
  ctx.engine.newPayloadV4(payload, hashes, beaconRoot, requests)

export const forkchoiceUpdatedV3 = ([state, attrs]: ForkchoiceUpdatedParams, ctx: NodeContext): Promise<Reply> =>
  ctx.engine.forkchoiceUpdated(state, attrs, 3)

export const getPayloadV1 = ([id]: GetPayloadParams, ctx: NodeContext): Promise<Reply> => ctx.engine.getPayload(id, 1)
export const getPayloadV4 = ([id]: GetPayloadParams, ctx: NodeContext): Promise<Reply> => ctx.engine.getPayload(id, 4)
export const getPayloadV5 = ([id]: GetPayloadParams, ctx: NodeContext): Promise<Reply> => ctx.engine.getPayload(id, 5)

/** The engine methods this node serves, as exchanged with the consensus client (common.md). */
export const ENGINE_CAPABILITIES = [
  'engine_newPayloadV4',
  'engine_forkchoiceUpdatedV3',
  'engine_getPayloadV1',
  'engine_getPayloadV4',
  'engine_getPayloadV5',
  'engine_exchangeCapabilities',
  'engine_getClientVersionV1',
]

export const exchangeCapabilities = (_: ExchangeCapabilitiesParams): Reply => ENGINE_CAPABILITIES

export const getClientVersionV1 = (_: ClientVersionParams, ctx: NodeContext): Reply => [
  { code: 'SP', name: 'Sponge', version: ctx.clientVersion.split('/')[1] ?? 'v0.1.0', commit: '0x00000000' },
]
