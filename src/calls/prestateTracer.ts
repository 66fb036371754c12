import type { EVMResult, InterpreterStep } from '@ethereumjs/evm'
import type { TypedTransaction } from '@ethereumjs/tx'
import type { StateManagerInterface } from '@ethereumjs/common'
import { Address } from '@ethereumjs/util'
import { bytesToHex, toQuantity } from '../util/hex.js'
import { type TraceOptions, type Tracer, type TxOutcome, word } from './tracer.js'

interface AccountState {
  balance: string
  nonce: number
  code?: string
  storage?: Record<string, string>
}

/** Opcodes that touch the account whose address is on the stack at this depth from the top. */
const TOUCHES: Record<string, number> = {
  BALANCE: 1,
  EXTCODESIZE: 1,
  EXTCODECOPY: 1,
  EXTCODEHASH: 1,
  SELFDESTRUCT: 1,
  CALL: 2,
  CALLCODE: 2,
  DELEGATECALL: 2,
  STATICCALL: 2,
}

/**
 * geth's prestateTracer: every account the transaction touches as it was before (balance, nonce, code, the storage
 * slots it touched); with diffMode, {pre, post} of what changed only.
 */
export class PrestateTracer implements Tracer {
  private readonly pre = new Map<string, AccountState>()
  private readonly created = new Set<string>()

  constructor(private readonly opts: TraceOptions) {}

  private async touch(state: StateManagerInterface, address: Address): Promise<AccountState> {
    const key = address.toString()
    let a = this.pre.get(key)
    if (a === undefined) {
      const account = await state.getAccount(address)
      const code = account === undefined ? new Uint8Array() : await state.getCode(address)
      a = { balance: toQuantity(account?.balance ?? 0n), nonce: Number(account?.nonce ?? 0n), ...(code.length > 0 ? { code: bytesToHex(code) } : {}) }
      this.pre.set(key, a)
    }
    return a
  }

  async start(tx: TypedTransaction, coinbase: Address, state: StateManagerInterface): Promise<void> {
    await this.touch(state, tx.getSenderAddress())
    if (tx.to !== undefined) await this.touch(state, tx.to)
    await this.touch(state, coinbase)
  }

  async step(s: InterpreterStep): Promise<void> {
    const name = s.opcode.name
    const st = s.stack
    const at = TOUCHES[name]
    if (at !== undefined && st.length >= at) {
      const raw = st[st.length - at]!.toString(16).padStart(40, '0').slice(-40)
      await this.touch(s.stateManager, new Address(Buffer.from(raw, 'hex')))
    } else if ((name === 'SLOAD' || name === 'SSTORE') && st.length >= 1) {
      const a = await this.touch(s.stateManager, s.address)
      const slot = `0x${st[st.length - 1]!.toString(16).padStart(64, '0')}`
      a.storage ??= {}
      if (a.storage[slot] === undefined) {
        a.storage[slot] = `0x${word(await s.stateManager.getStorage(s.address, Buffer.from(slot.slice(2), 'hex')))}`
      }
    }
  }

  beforeMessage(): void {}

  afterMessage(r: EVMResult): void {
    // Created during the transaction: it had no prior state.
    if (r.createdAddress !== undefined && !this.pre.has(r.createdAddress.toString())) {
      this.created.add(r.createdAddress.toString())
      this.pre.set(r.createdAddress.toString(), { balance: '0x0', nonce: 0 })
    }
  }

  async result(_tx: TypedTransaction, _after: TxOutcome, state: StateManagerInterface): Promise<unknown> {
    if (this.opts.diffMode !== true) return Object.fromEntries(this.pre)
    const pre: Record<string, AccountState> = {}
    const post: Record<string, Partial<AccountState>> = {}
    for (const [key, before] of this.pre) {
      const address = new Address(Buffer.from(key.slice(2), 'hex'))
      const account = await state.getAccount(address)
      const after: Partial<AccountState> = {}
      let modified = false
      const balance = toQuantity(account?.balance ?? 0n)
      const nonce = Number(account?.nonce ?? 0n)
      const codeBytes = account === undefined ? new Uint8Array() : await state.getCode(address)
      const code = codeBytes.length > 0 ? bytesToHex(codeBytes) : undefined
      if (balance !== before.balance) {
        after.balance = balance
        modified = true
      }
      if (nonce !== before.nonce) {
        after.nonce = nonce
        modified = true
      }
      if (code !== before.code && code !== undefined) {
        after.code = code
        modified = true
      }
      const keptPre: Record<string, string> = {}
      for (const [slot, value] of Object.entries(before.storage ?? {})) {
        const now = `0x${word(await state.getStorage(address, Buffer.from(slot.slice(2), 'hex')))}`
        if (now === value) continue
        modified = true
        if (BigInt(value) !== 0n) keptPre[slot] = value
        if (BigInt(now) !== 0n) (after.storage ??= {})[slot] = now
      }
      if (!modified) continue
      const { storage: _s, ...fields } = before
      if (!this.created.has(key)) pre[key] = { ...fields, ...(Object.keys(keptPre).length > 0 ? { storage: keptPre } : {}) }
      post[key] = after
    }
    return { pre, post }
  }
}
