import type { NodeContext } from '../context.js'
import type { Reply } from '../reply.js'
import type { BuildBlockParams } from '../../wire/engineParams.js'

/** testing_buildBlockV1 (execution-apis src/testing): off unless `testing` is in --http.api. */
export const buildBlockV1 = ([parent, attrs, txs, extraData]: BuildBlockParams, ctx: NodeContext): Promise<Reply> =>
  ctx.builds.forTesting(parent, attrs, txs, extraData)
