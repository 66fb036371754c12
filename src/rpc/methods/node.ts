import { headerJson } from '../../codecs/block.js'
import { keccak256 } from '../../crypto/keccak.js'
import type { NodeContext } from '../context.js'
import type { BlockRef } from '../../store/chainReader.js'
import { bytesToHex, hexToBytes, toQuantity } from '../../util/hex.js'
import type { BlockNumberParams, ByHashParams, NoParams, Sha3Params, TxByHashAndIndexParams, TxByNumberAndIndexParams } from '../../wire/ethParams.js'
import type { Address, Hash32, Quantity } from '../../wire/primitives.js'
import type { BlockResult, CapabilitiesResult, HeaderResult, SyncingResult } from '../../wire/results.js'
import { blockIdOf } from '../blockId.js'

// The small methods libraries and wallets probe (execution-apis and geth's answers): a node without peers or mining,
// never syncing, with no uncles after the merge.

export const syncing = (): SyncingResult => false

/**
 * eth_capabilities (capabilities.yaml): what history this node can serve. Sponge keeps everything it has executed
 * (an archive: no state, block, receipt or log is pruned), so every resource starts at genesis with no deletion.
 */
export function capabilities(_: NoParams, ctx: Pick<NodeContext, 'chain'>): CapabilitiesResult {
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
export const mining = (): boolean => false
export const hashrate = (): Quantity => '0x0'
export const listening = (): boolean => true
export const peerCount = (): Quantity => '0x0'
/** eth/68, the protocol version geth speaks. */
export const protocolVersion = (): Quantity => '0x44'
/** The fee recipient of the blocks dev mode makes; a node driven by a consensus client has none of its own. */
export const coinbase = (): Address => `0x${'00'.repeat(20)}`
export const sha3 = ([data]: Sha3Params): Hash32 => bytesToHex(keccak256(hexToBytes(data)))

/** The dev chain's funded accounts (their keys are public); none elsewhere. */
export const accounts = (_: NoParams, ctx: Pick<NodeContext, 'devAccounts'>): readonly Address[] => ctx.devAccounts

const uncleCount = (ref: BlockRef | undefined): Quantity | null => (ref === undefined ? null : '0x0')
export const uncleCountByNumber = ([block]: BlockNumberParams, ctx: Pick<NodeContext, 'chain'>): Quantity | null =>
  uncleCount(ctx.chain.resolve(blockIdOf(block)))
export const uncleCountByHash = ([hash]: ByHashParams, ctx: Pick<NodeContext, 'chain'>): Quantity | null =>
  uncleCount(ctx.chain.byHash(hexToBytes(hash)))
export const uncleByNumberAndIndex = (_: TxByNumberAndIndexParams): BlockResult | null => null
export const uncleByHashAndIndex = (_: TxByHashAndIndexParams): BlockResult | null => null

/** A block's header fields as geth's eth_getHeaderBy* gives them: the block object less its body and size. */
function headerOf(ctx: Pick<NodeContext, 'store'>, ref: BlockRef | undefined): HeaderResult | null {
  if (ref === undefined) return null
  const prefix = ctx.store.getBlockJson(ref.hash)
  if (prefix === undefined) return null
  // The stored block's JSON less its body: a header's members (codecs/block.ts parses it as a plain record).
  return headerJson(prefix) as unknown as HeaderResult
}
export const headerByNumber = ([block]: BlockNumberParams, ctx: Pick<NodeContext, 'chain' | 'store'>): HeaderResult | null =>
  headerOf(ctx, ctx.chain.resolve(blockIdOf(block)))
export const headerByHash = ([hash]: ByHashParams, ctx: Pick<NodeContext, 'chain' | 'store'>): HeaderResult | null =>
  headerOf(ctx, ctx.chain.byHash(hexToBytes(hash)))
