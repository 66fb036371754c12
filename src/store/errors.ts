import { DomainError } from '../util/errors.js'

/**
 * A block named by hash or label that the store does not have (or not on the canonical chain when that was asked);
 * `headerNotFound`: the block a state read or a call names, in geth's words for it.
 */
export class BlockNotFoundError extends DomainError<'blockNotFound' | 'headerNotFound', undefined> {
  override readonly name = 'BlockNotFoundError'
  constructor(message: string, kind: 'blockNotFound' | 'headerNotFound' = 'blockNotFound') {
    super(message, kind, undefined)
  }
}

/** geth's answer (-32000) to a state read or call at a block it does not have. */
export function headerNotFound(): BlockNotFoundError {
  return new BlockNotFoundError('header not found', 'headerNotFound')
}

/**
 * Why the store could not write: the filesystem is full (ENOSPC, EDQUOT, or LMDB's short write on a full disk), or
 * the LMDB map is (MDB_MAP_FULL). The write's transaction was aborted whole, so what was stored before stands: the
 * node can go on serving reads and write again once there is room.
 */
export type StoreWriteKind = 'diskFull' | 'mapFull'

// A type, not an interface: domain error data must be indexable as WireData.
export type StoreWriteFailure = {
  datadir: string
  /** Why, in the node's words: "no space left on device (ENOSPC)", … */
  reason: string
  /** LMDB's message. */
  cause: string
}

export class StoreWriteError extends DomainError<StoreWriteKind, StoreWriteFailure> {
  override readonly name = 'StoreWriteError'
  constructor(message: string, kind: StoreWriteKind, data: StoreWriteFailure) {
    super(message, kind, data)
  }
}
