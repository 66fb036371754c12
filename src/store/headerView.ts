import { RLP } from '@ethereumjs/rlp'
import { bytesToBigInt, equalBytes } from '../util/hex.js'

// Positions in the RLP list of a header (yellow paper order, then the forks' appended fields).
const PARENT_HASH = 0
const COINBASE = 2
const STATE_ROOT = 3
const DIFFICULTY = 7
const MIX_HASH = 13
const NUMBER = 8
const GAS_LIMIT = 9
const TIMESTAMP = 11
const GAS_USED = 10
const BASE_FEE = 15
const BLOB_GAS_USED = 17
const EXCESS_BLOB_GAS = 18
const PARENT_BEACON_BLOCK_ROOT = 19

const lastRead = new WeakMap<HeaderSource, { hash: Uint8Array; view: HeaderView }>()

/** Where stored headers come from (the chain store; a narrow type, so this file does not import it). */
export interface HeaderSource {
  getHeaderRlp(hash: Uint8Array): Uint8Array | undefined
}

/**
 * The fields the serving thread and the workers read from stored headers, decoded from the RLP without building an
 * EthereumJS header (which needs a Common and validates every field): one place that knows the positions.
 */
export class HeaderView {
  private constructor(private readonly fields: Uint8Array[]) {}

  static of(rlp: Uint8Array): HeaderView {
    return new HeaderView(RLP.decode(rlp) as Uint8Array[])
  }

  /**
   * The stored header of a block, or undefined when the store does not have it. The last one read from each store is
   * kept: a dev send reads its head's five times (the fill, the admission, the pool's base fee, the build, the
   * driver), and a stored header never changes (it is keyed by its hash, never deleted).
   */
  static read(store: HeaderSource, hash: Uint8Array): HeaderView | undefined {
    const last = lastRead.get(store)
    if (last !== undefined && equalBytes(last.hash, hash)) return last.view
    const rlp = store.getHeaderRlp(hash)
    if (rlp === undefined) return undefined
    const view = HeaderView.of(rlp)
    lastRead.set(store, { hash: hash.slice(), view })
    return view
  }

  get parentHash(): Uint8Array {
    return this.fields[PARENT_HASH]!
  }

  get stateRoot(): Uint8Array {
    return this.fields[STATE_ROOT]!
  }

  get coinbase(): Uint8Array {
    return this.fields[COINBASE]!
  }

  get difficulty(): bigint {
    return bytesToBigInt(this.fields[DIFFICULTY]!)
  }

  /** PREVRANDAO from Paris on. */
  get mixHash(): Uint8Array {
    return this.fields[MIX_HASH]!
  }

  get number(): bigint {
    return bytesToBigInt(this.fields[NUMBER]!)
  }

  get gasLimit(): bigint {
    return bytesToBigInt(this.fields[GAS_LIMIT]!)
  }

  get gasUsed(): bigint {
    return bytesToBigInt(this.fields[GAS_USED]!)
  }

  /** Undefined before Cancun. */
  get blobGasUsed(): bigint | undefined {
    const f = this.fields[BLOB_GAS_USED]
    return f === undefined ? undefined : bytesToBigInt(f)
  }

  /** Undefined before Cancun. */
  get excessBlobGas(): bigint | undefined {
    const f = this.fields[EXCESS_BLOB_GAS]
    return f === undefined ? undefined : bytesToBigInt(f)
  }

  get timestamp(): bigint {
    return bytesToBigInt(this.fields[TIMESTAMP]!)
  }

  /** EIP-4788's root, from Cancun on. */
  get parentBeaconBlockRoot(): Uint8Array | undefined {
    return this.fields[PARENT_BEACON_BLOCK_ROOT]
  }

  /** Whether the header has a base fee (London on). */
  get hasBaseFee(): boolean {
    return this.fields[BASE_FEE] !== undefined
  }

  /** Zero before London (no base fee field). */
  get baseFee(): bigint {
    const f = this.fields[BASE_FEE]
    return f === undefined ? 0n : bytesToBigInt(f)
  }
}
