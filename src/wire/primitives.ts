import type { tags } from 'typia'

// The interface's primitive formats (spec/interface.md §2.1), as typia types with their full patterns.
export type Quantity = string & tags.Pattern<'^0x(0|[1-9a-f][0-9a-f]*)$'>
export type Quantity64 = string & tags.Pattern<'^0x(0|[1-9a-f][0-9a-f]{0,15})$'>
export type Quantity256 = string & tags.Pattern<'^0x(0|[1-9a-f][0-9a-f]{0,63})$'>
export type Hash32 = string & tags.Pattern<'^0x[0-9a-f]{64}$'>
export type Address = string & tags.Pattern<'^0x[0-9a-fA-F]{40}$'>
/** Whole bytes only: odd-length hex has no byte value (geth: "hex string of odd length", -32602). */
export type Bytes = string & tags.Pattern<'^0x(?:[0-9a-f]{2})*$'>
/** A raw transaction: at least one byte. */
export type RawTxBytes = string & tags.Pattern<'^0x(?:[0-9a-f]{2})+$'>
export type Bytes8 = string & tags.Pattern<'^0x[0-9a-f]{16}$'>
export type Bytes48 = string & tags.Pattern<'^0x[0-9a-f]{96}$'>
export type Bloom = string & tags.Pattern<'^0x[0-9a-f]{512}$'>
export type ExtraData = string & tags.Pattern<'^0x(?:[0-9a-f]{2}){0,32}$'>
/**
 * geth's math.HexOrDecimal64 (eth_feeHistory's block count): "0x…" hex in either case or a decimal string, leading
 * zeros allowed and "" meaning zero, or a JSON number. The uint64 bound of the strings is the handler's to check.
 */
export type HexOrDecimal64 = (string & tags.Pattern<'^(0[xX][0-9a-fA-F]+|[0-9]*)$'>) | (number & tags.Type<'uint64'>)
/** 32-byte storage slot: geth accepts any quantity-like hex up to 32 bytes. */
export type StorageSlot = string & tags.Pattern<'^0x[0-9a-fA-F]{1,64}$'>

export type BlockTag = 'earliest' | 'latest' | 'pending' | 'safe' | 'finalized'
export type BlockNumberOrTag = Quantity64 | BlockTag
/** EIP-1898: a block number or tag, a hash, or an object naming either. */
export type BlockNumberOrTagOrHash = BlockNumberOrTag | Hash32 | { blockHash: Hash32; requireCanonical?: boolean } | { blockNumber: BlockNumberOrTag }
