import { type NodeContext, nodePart } from '../context.js'
import { hexToBytes } from '../../util/hex.js'
import type { Hash32 } from '../../wire/primitives.js'
import type { RawTxParams } from '../../wire/ethParams.js'
import type { KnownSigner } from '../../txrules/txValidation.js'

export const sendRawTransaction = ([raw]: RawTxParams, ctx: NodeContext): Promise<Hash32> => submitted(ctx, hexToBytes(raw))

/**
 * Pools a transaction; on a dev chain that mines on demand, answers once the block it started is made, as anvil
 * does. Libraries wait for a receipt by watching for new blocks, and an auto-mining chain makes no block after the
 * one that included the transaction: ethers' wait() never returned when the block landed between its first check
 * and its first poll.
 */
export async function submitted(ctx: NodeContext, raw: Uint8Array): Promise<string> {
  return minedOnDemand(ctx, await pooled(ctx, raw))
}

/**
 * Pools a transaction (validated against the head, admitted) and answers its hash, without waiting for a block.
 * `signer`: the dev wallet's account that signed it.
 */
export const pooled = (ctx: NodeContext, raw: Uint8Array, signer?: KnownSigner): Promise<string> => nodePart(ctx.txs).submit(raw, ctx.pool, signer)

/** A pooled transaction's hash, answered once its block is made on a dev chain that mines on demand (see submitted). */
export async function minedOnDemand(ctx: NodeContext, hash: string): Promise<string> {
  if (ctx.dev?.minesOnDemand === true) await ctx.dev.afterNextBlock(hash)
  return hash
}
