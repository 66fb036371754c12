import type { NodeContext } from '../context.js'
import type { DevDriver } from '../../dev/devDriver.js'
import { toQuantity } from '../../util/hex.js'
import { MethodNotFoundError } from '../errors.js'
import type { Reply } from '../reply.js'

// anvil's dev methods on --chain dev (the `evm` namespace is served only there): mine now, snapshot and revert
// through forkchoice, set the next block's timestamp.

function driver(ctx: NodeContext, method: string): DevDriver {
  if (ctx.dev === undefined) throw new MethodNotFoundError(method)
  return ctx.dev
}

export async function mine(_: unknown[], ctx: NodeContext): Promise<Reply> {
  await driver(ctx, 'evm_mine').mine()
  return '0x0'
}

export const snapshot = (_: [], ctx: NodeContext): Reply => driver(ctx, 'evm_snapshot').snapshot()

export const revert = ([id]: [string], ctx: NodeContext): Promise<Reply> => driver(ctx, 'evm_revert').revert(id)

export function setNextBlockTimestamp([t]: [string | number], ctx: NodeContext): Reply {
  driver(ctx, 'evm_setNextBlockTimestamp').setNextTimestamp(BigInt(t))
  return toQuantity(BigInt(t))
}
