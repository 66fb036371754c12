import { RLP } from '@ethereumjs/rlp'
import { keccak256 } from '../../crypto/keccak.js'
import { type PlainAccount, type PlainState, accountsRoot } from '../../state/accountsRoot.js'
import { bytesToHex, equalBytes, hexToBytes } from '../../util/hex.js'
import type { Expectation } from './fixture.js'
import type { StateTestOutcome, TxLog } from './types.js'

/** keccak-256 of the RLP list of logs, each [address, [topics…], data]: a state test's `logs` field. */
export function logsHash(logs: readonly TxLog[]): Uint8Array {
  return keccak256(RLP.encode(logs.map((l) => [hexToBytes(l.address), [...l.topics], l.data])))
}

const short = (bytes: Uint8Array): string => bytesToHex(bytes)

/** At most `max` differences between two plain states, one phrase each (`0xab…: balance 1, want 2`). */
export function stateDiff(got: PlainState, want: PlainState, max = 3): string[] {
  const out: string[] = []
  const addresses = [...new Set([...got.keys(), ...want.keys()])].sort()
  for (const address of addresses) {
    if (out.length >= max) break
    const g = got.get(address)
    const w = want.get(address)
    if (g === undefined || w === undefined) {
      out.push(`${address} ${g === undefined ? 'missing' : 'should not exist'}`)
      continue
    }
    out.push(...accountDiff(g, w).map((d) => `${address} ${d}`))
  }
  return out.slice(0, max)
}

function accountDiff(g: PlainAccount, w: PlainAccount): string[] {
  const out: string[] = []
  if (g.nonce !== w.nonce) out.push(`nonce ${g.nonce}, want ${w.nonce}`)
  if (g.balance !== w.balance) out.push(`balance ${g.balance}, want ${w.balance}`)
  if (!equalBytes(g.code, w.code)) out.push(`code of ${g.code.length} bytes ${short(keccak256(g.code)).slice(0, 10)}…, want ${w.code.length} bytes`)
  const slots = [...new Set([...g.storage.keys(), ...w.storage.keys()])].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  for (const slot of slots) {
    const gv = g.storage.get(slot) ?? 0n
    const wv = w.storage.get(slot) ?? 0n
    if (gv !== wv) out.push(`storage[0x${slot.toString(16)}] 0x${gv.toString(16)}, want 0x${wv.toString(16)}`)
  }
  return out
}

/** Undefined when the outcome is what the fixture expects, else what differed, in one line. */
export function judge(expect: Expectation, outcome: StateTestOutcome): string | undefined {
  if (expect.exception !== undefined) {
    return outcome.kind === 'rejected' ? undefined : `executed, want rejected (${expect.exception})`
  }
  if (outcome.kind === 'rejected') {
    // A fixture that marks no exceptions expects a refused transaction to leave the pre-state (and no logs).
    const pre = expect.preIfUnmarked
    if (pre !== undefined && equalBytes(accountsRoot(pre), expect.stateRoot) && equalBytes(logsHash([]), expect.logsHash)) return undefined
    return `rejected (${outcome.reason}), want executed`
  }
  const problems: string[] = []
  const root = outcome.kind === 'accounts' ? accountsRoot(outcome.accounts) : outcome.stateRoot
  if (!equalBytes(root, expect.stateRoot)) {
    const diff = outcome.kind === 'accounts' && expect.state !== undefined ? stateDiff(outcome.accounts, expect.state) : []
    problems.push(`state root ${short(root)}, want ${short(expect.stateRoot)}${diff.length > 0 ? ` (${diff.join('; ')})` : ''}`)
  }
  const logs = logsHash(outcome.logs)
  if (!equalBytes(logs, expect.logsHash)) problems.push(`logs hash ${short(logs)} of ${outcome.logs.length} logs, want ${short(expect.logsHash)}`)
  return problems.length === 0 ? undefined : problems.join('; ')
}
