import type { NodeContext } from '../context.js'
import type { DevDriver } from '../../dev/devDriver.js'
import { toQuantity } from '../../util/hex.js'
import { MethodNotFoundError } from '../errors.js'
import type { MineParams, NoParams, RevertParams, TimestampParams } from '../../wire/ethParams.js'
import type { Quantity } from '../../wire/primitives.js'

// anvil's dev methods on --chain dev (the `evm` namespace is served only there): mine now, snapshot and revert
// through forkchoice, set the next block's timestamp.

type Ctx = Pick<NodeContext, 'dev'>

function driver(ctx: Ctx, method: string): DevDriver {
  if (ctx.dev === undefined) throw new MethodNotFoundError(method)
  return ctx.dev
}

export async function mine(_: MineParams, ctx: Ctx): Promise<Quantity> {
  await driver(ctx, 'evm_mine').mine()
  return '0x0'
}

export const snapshot = (_: NoParams, ctx: Ctx): Quantity => driver(ctx, 'evm_snapshot').snapshot()

export const revert = ([id]: RevertParams, ctx: Ctx): Promise<boolean> => driver(ctx, 'evm_revert').revert(id)

export function setNextBlockTimestamp([t]: TimestampParams, ctx: Ctx): Quantity {
  driver(ctx, 'evm_setNextBlockTimestamp').setNextTimestamp(BigInt(t))
  return toQuantity(BigInt(t))
}
