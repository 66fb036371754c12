import type { NodeContext } from '../context.js'
import type { SubscriberConnection } from '../../subscriptions/hub.js'
import { LimitExceededError, NotificationsUnsupportedError } from '../errors.js'
import type { FilterIdParams, SubscribeParams } from '../../wire/ethParams.js'
import type { Quantity } from '../../wire/primitives.js'
import { criteriaOf } from './logs.js'

// eth_subscribe / eth_unsubscribe: only over WebSocket, where the connection can be written to later.

type Ctx = Pick<NodeContext, 'connection'>

function connectionOf(ctx: Ctx): SubscriberConnection {
  // geth's answer over HTTP.
  if (ctx.connection === undefined) throw new NotificationsUnsupportedError()
  return ctx.connection
}

export function subscribe(params: SubscribeParams, ctx: Ctx): Quantity {
  const c = connectionOf(ctx)
  const id = params[0] === 'logs' ? c.subscribe({ kind: 'logs', criteria: criteriaOf(params[1] ?? {}) }) : c.subscribe({ kind: params[0] })
  if (id === undefined) throw new LimitExceededError('too many subscriptions on this connection')
  return id
}

export const unsubscribe = ([id]: FilterIdParams, ctx: Ctx): boolean => connectionOf(ctx).unsubscribe(id)
