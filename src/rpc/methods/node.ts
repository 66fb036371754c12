import { headerJson } from '../../codecs/block.js'
import { keccak256 } from '../../crypto/keccak.js'
import type { NodeContext } from '../context.js'
import type { BlockRef } from '../../store/chainReader.js'
import { bytesToHex, hexToBytes, toQuantity } from '../../util/hex.js'
import type { Reply } from '../reply.js'
import type { BlockNumberParams, ByHashParams, TxByHashAndIndexParams, TxByNumberAndIndexParams } from '../../wire/ethParams.js'
import { blockIdOf } from '../blockId.js'

// The small methods libraries and wallets probe (execution-apis and geth's answers): a node without peers or mining,
// never syncing, with no uncles after the merge.

export const syncing = (): Reply => false

/**
 * eth_capabilities (capabilities.yaml): what history this node can serve. Sponge keeps everything it has executed
 * (an archive: no state, block, receipt or log is pruned), so every resource starts at genesis with no deletion.
 */
export function capabilities(_: [], ctx: NodeContext): Reply {
  const head = ctx.chain.head()
  const kept = { disabled: false, oldestBlock: '0x0' }
  return {
    head: { number: toQuantity(head.number), hash: bytesToHex(head.hash) },
    state: kept,
    tx: kept,
    logs: kept,
    receipts: kept,
    blocks: kept,
    stateproofs: kept,
  }
}
export const mining = (): Reply => false
export const hashrate = (): Reply => '0x0'
export const listening = (): Reply => true
export const peerCount = (): Reply => '0x0'
/** eth/68, the protocol version geth speaks. */
export const protocolVersion = (): Reply => '0x44'
/** The fee recipient of the blocks dev mode makes; a node driven by a consensus client has none of its own. */
export const coinbase = (): Reply => `0x${'00'.repeat(20)}`
export const sha3 = ([data]: [string]): Reply => bytesToHex(keccak256(hexToBytes(data)))

/** The dev chain's funded accounts (their keys are public); none elsewhere. */
export const accounts = (_: [], ctx: NodeContext): Reply => ctx.devAccounts

const uncleCount = (ref: BlockRef | undefined): Reply => (ref === undefined ? null : '0x0')
export const uncleCountByNumber = ([block]: BlockNumberParams, ctx: NodeContext): Reply => uncleCount(ctx.chain.resolve(blockIdOf(block)))
export const uncleCountByHash = ([hash]: ByHashParams, ctx: NodeContext): Reply => uncleCount(ctx.chain.byHash(hexToBytes(hash)))
export const uncleByNumberAndIndex = (_: TxByNumberAndIndexParams): Reply => null
export const uncleByHashAndIndex = (_: TxByHashAndIndexParams): Reply => null

/** A block's header fields as geth's eth_getHeaderBy* gives them: the block object less its body and size. */
function headerOf(ctx: NodeContext, ref: BlockRef | undefined): Reply {
  if (ref === undefined) return null
  const prefix = ctx.store.getBlockJson(ref.hash)
  if (prefix === undefined) return null
  return headerJson(prefix)
}
export const headerByNumber = ([block]: BlockNumberParams, ctx: NodeContext): Reply => headerOf(ctx, ctx.chain.resolve(blockIdOf(block)))
export const headerByHash = ([hash]: ByHashParams, ctx: NodeContext): Reply => headerOf(ctx, ctx.chain.byHash(hexToBytes(hash)))

