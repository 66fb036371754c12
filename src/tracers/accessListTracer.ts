import type { Fork } from '../chain/evmFork.js'
import { authority } from '../evm/authorization.js'
import type { Frame } from '../evm/frame.js'
import { createAddress } from '../evm/interpreter.js'
import { Op } from '../evm/opcodeNames.js'
import { precompileAddresses } from '../evm/precompiles/index.js'
import type { AccessListEntry, EvmTransaction } from '../evm/transaction.js'
import { ADDRESS_MASK } from '../evm/words.js'
import type { TxTracer } from './txTracer.js'

// geth's AccessListTracer (eth/tracers/logger/access_list_tracer.go), for eth_createAccessList: the addresses opcodes
// name (BALANCE, EXTCODE*, SELFDESTRUCT, the CALL family) and the slots SLOAD and SSTORE touch, less the addresses an
// access list gains nothing from (`accessListExclusions`). A slot counts with its contract whatever the contract is:
// the recipient's own slots are listed, and so are those of a contract the call creates (whose address no opcode
// names). geth runs the call again with each list it finds until the list stops changing; so does the caller here,
// with `equals`.

const MAX_NONCE = 0xffffffffffffffffn

/**
 * What geth leaves out of the list: the sender, the recipient (a creation's new address, from the transaction's
 * nonce), the fork's precompiles, and the authority of each authorization that may apply (its chain and nonce
 * allow it: geth does not check its nonce against the state).
 */
export function accessListExclusions(tx: EvmTransaction, fork: Fork, chainId: bigint): Set<bigint> {
  const out = new Set<bigint>([tx.sender, tx.to ?? createAddress(tx.sender, tx.nonce), ...precompileAddresses(fork)])
  for (const a of tx.authorizations) {
    if ((a.chainId !== 0n && a.chainId !== chainId) || a.nonce >= MAX_NONCE) continue
    const signer = authority(a)
    if (signer !== undefined) out.add(signer)
  }
  return out
}

export class AccessListTracer implements TxTracer<AccessListEntry[]> {
  private readonly slots = new Map<bigint, Set<bigint>>()

  /** Starts from `initial` (the list the call ran with), less what `exclude` names. */
  constructor(
    initial: readonly AccessListEntry[],
    private readonly exclude: ReadonlySet<bigint>,
  ) {
    for (const e of initial) {
      if (exclude.has(e.address)) continue
      const set = this.addressSlots(e.address)
      for (const k of e.storageKeys) set.add(k)
    }
  }

  start(): void {}

  onStep(f: Frame, op: number): void {
    const st = f.stack
    const sp = f.sp
    switch (op) {
      case Op.SLOAD:
      case Op.SSTORE:
        if (sp >= 1) this.addressSlots(f.msg.to).add(st[sp - 1]!)
        return
      case Op.EXTCODECOPY:
      case Op.EXTCODEHASH:
      case Op.EXTCODESIZE:
      case Op.BALANCE:
      case Op.SELFDESTRUCT:
        if (sp >= 1) this.addAddress(st[sp - 1]! & ADDRESS_MASK)
        return
      case Op.CALL:
      case Op.CALLCODE:
      case Op.DELEGATECALL:
      case Op.STATICCALL:
        if (sp >= 5) this.addAddress(st[sp - 2]! & ADDRESS_MASK)
        return
    }
  }

  /** The list: addresses in order, each with its slots in order (geth sorts both). */
  result(): AccessListEntry[] {
    return [...this.slots].sort(([a], [b]) => compare(a, b)).map(([address, keys]) => ({ address, storageKeys: [...keys].sort(compare) }))
  }

  /** Whether two tracers found the same list: geth's test for the list having settled. */
  equals(other: AccessListTracer): boolean {
    if (this.slots.size !== other.slots.size) return false
    for (const [address, keys] of this.slots) {
      const theirs = other.slots.get(address)
      if (theirs === undefined || theirs.size !== keys.size) return false
      for (const k of keys) if (!theirs.has(k)) return false
    }
    return true
  }

  private addAddress(address: bigint): void {
    if (!this.exclude.has(address)) this.addressSlots(address)
  }

  private addressSlots(address: bigint): Set<bigint> {
    let set = this.slots.get(address)
    if (set === undefined) {
      set = new Set()
      this.slots.set(address, set)
    }
    return set
  }
}

const compare = (a: bigint, b: bigint): number => (a < b ? -1 : a > b ? 1 : 0)
