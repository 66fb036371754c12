import type { NodeContext } from '../../node/context.js'
import { hexToBytes } from '../../util/hex.js'
import type { Reply } from '../reply.js'
import type { RawTxParams } from '../wire/ethParams.js'

export const sendRawTransaction = ([raw]: RawTxParams, ctx: NodeContext): Promise<Reply> =>
  ctx.txs.submit(hexToBytes(raw))
