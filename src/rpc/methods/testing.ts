import { type NodeContext, nodePart } from '../context.js'
import type { BuildBlockParams } from '../../wire/engineParams.js'
import type { GetPayloadV4Result } from '../../wire/results.js'

/**
 * testing_buildBlockV1 (execution-apis src/testing): off unless `testing` is in --http.api. The build's envelope
 * comes as a loose record (payloadBuilds.ts envelopeOf): engine_getPayloadV4's shape.
 */
export const buildBlockV1 = ([parent, attrs, txs, extraData]: BuildBlockParams, ctx: Pick<NodeContext, 'builds'>): Promise<GetPayloadV4Result> =>
  nodePart(ctx.builds).forTesting(parent, attrs, txs, extraData) as Promise<unknown> as Promise<GetPayloadV4Result>
