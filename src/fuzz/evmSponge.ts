import { RLP } from '@ethereumjs/rlp'
import { bigIntToUnpaddedBytes } from '@ethereumjs/util'
import { keccak256 } from '../crypto/keccak.js'
import type { Authorization } from '../evm/authorization.js'
import type { BlockEnv } from '../evm/env.js'
import { TxRejectedError } from '../evm/errors.js'
import { CallKind, Status } from '../evm/frame.js'
import type { EvmTracer } from '../evm/tracer.js'
import { Fork } from '../chain/evmFork.js'
import { Evm } from '../evm/interpreter.js'
import { MapStateSource } from '../evm/mapState.js'
import { EMPTY_CODE, WorldState } from '../evm/state.js'
import { applyTransaction, type EvmTransaction } from '../evm/transaction.js'
import { addressToBytes, bytesToWord, wordToBytes } from '../evm/words.js'
import { type PlainAccount, accountsRoot, storageRoot } from '../state/accountsRoot.js'
import { bytesToHex, type Hex } from '../util/hex.js'
import { ADDRESSES, codeOf, type FuzzAuthorization, type FuzzCase, type FuzzTx, KEYS } from './evmCases.js'
import type { Mark, TxOutcome } from './evmOutcome.js'
import { sign } from './evmSign.js'

// A fuzz case through Sponge's EVM: a WorldState over the pre-state, each transaction applied as the block processor
// will (applyTransaction, then the transaction's end), the post-state's root computed from the plain accounts.

/** An authorization signed as the case says; both EVMs are given the same signature. */
export function signAuthorization(a: FuzzAuthorization): Authorization {
  const payload = RLP.encode([bigIntToUnpaddedBytes(a.chainId), addressToBytes(a.address), bigIntToUnpaddedBytes(a.nonce)])
  const hash = keccak256(Uint8Array.of(0x05, ...payload))
  const sig = sign(hash, KEYS[a.key]!)
  return { chainId: a.chainId, address: a.address, nonce: a.nonce, yParity: BigInt(sig.recovery), r: bytesToWord(sig.r), s: bytesToWord(sig.s) }
}

export function blockEnv(c: FuzzCase): BlockEnv {
  const b = c.block
  return {
    coinbase: b.coinbase,
    number: b.number,
    timestamp: b.timestamp,
    gasLimit: b.gasLimit,
    prevRandao: b.prevRandao,
    difficulty: b.difficulty,
    baseFee: b.baseFee,
    blobBaseFee: 1n, // EthereumJS's for an excess blob gas of zero
    chainId: 1n,
    blockHash: () => 0n, // as EthereumJS's default blockchain answers
  }
}

function evmTransaction(t: FuzzTx): EvmTransaction {
  return {
    type: t.type,
    sender: ADDRESSES[0]!,
    to: t.to,
    nonce: t.nonce,
    gasLimit: t.gasLimit,
    value: t.value,
    data: t.data,
    gasPrice: t.maxFee,
    maxFeePerGas: t.maxFee,
    maxPriorityFeePerGas: t.type >= 2 ? t.tip : t.maxFee,
    accessList: t.accessList,
    maxFeePerBlobGas: 0n,
    blobHashes: [],
    authorizations: t.authorizations.map(signAuthorization),
  }
}

const hexAddress = (a: bigint): Hex => bytesToHex(addressToBytes(a))

/** How an account of interest is shown: the same text from both EVMs when they agree. */
export function accountSummary(a: { nonce: bigint; balance: bigint; codeHash: Uint8Array; storageRoot: Uint8Array } | undefined): string {
  if (a === undefined) return 'absent'
  return `nonce ${a.nonce} balance ${a.balance} code ${bytesToHex(a.codeHash).slice(0, 10)} storage ${bytesToHex(a.storageRoot).slice(0, 10)}`
}

const summary = (a: PlainAccount | undefined): string =>
  accountSummary(
    a === undefined ? undefined : { nonce: a.nonce, balance: a.balance, codeHash: keccak256(a.code), storageRoot: storageRoot(a.storage) },
  )

/** The addresses a case's accounts of interest are: its own, the coinbase, and every account Sponge changed. */
export function runSponge(c: FuzzCase): { outcomes: TxOutcome[]; addresses: bigint[] } {
  const pre = new Map<bigint, PlainAccount>(
    c.accounts.map((a) => [a.address, { nonce: a.nonce, balance: a.balance, code: codeOf(c, a), storage: a.storage }]),
  )
  const state = new WorldState(new MapStateSource(pre))
  let marks = new Set<Mark>()
  const tracer: EvmTracer = {
    onExit(msg, r) {
      const create = msg.kind === CallKind.create || msg.kind === CallKind.create2
      if (create && r.status === Status.revert && r.output[0] === 0xef && c.fork >= Fork.london) marks.add('revertedInitCodeWithEf')
    },
  }
  const evm = new Evm({ fork: c.fork, block: blockEnv(c), state, tracer })
  const outcomes: TxOutcome[] = []
  const addresses = new Set<bigint>([...pre.keys(), c.block.coinbase])
  for (const t of c.txs) {
    marks = new Set()
    let out: ReturnType<typeof applyTransaction>
    try {
      out = applyTransaction(evm, evmTransaction(t), { maxBlobsPerBlock: 9 })
    } catch (e) {
      if (e instanceof TxRejectedError) {
        outcomes.push({ kind: 'rejected', reason: e.message })
        continue
      }
      throw e
    }
    const logs = out.logs.map((l) => `${hexAddress(l.address)} ${l.topics.map((t) => bytesToHex(wordToBytes(t))).join(' ')} ${bytesToHex(l.data)}`)
    const output = bytesToHex(out.output)
    state.endTransaction()
    for (const ch of state.changes()) addresses.add(ch.address)
    const post = postState(pre, state)
    const accounts = new Map<string, string>()
    for (const a of addresses) accounts.set(hexAddress(a), summary(post.get(hexAddress(a))))
    outcomes.push({
      kind: 'executed',
      status: out.status === Status.success ? 'success' : out.status === Status.revert ? 'revert' : 'error',
      gasUsed: BigInt(out.gasUsed),
      output: output === '0x' ? '' : output,
      error: out.error,
      marks,
      logs,
      root: bytesToHex(accountsRoot(post)),
      accounts,
    })
  }
  return { outcomes, addresses: [...addresses] }
}

/** The pre-state with every change since the state was made. */
function postState(pre: ReadonlyMap<bigint, PlainAccount>, state: WorldState): Map<Hex, PlainAccount> {
  const accounts = new Map<Hex, PlainAccount>([...pre].map(([a, acc]) => [hexAddress(a), acc]))
  for (const ch of state.changes()) {
    const key = hexAddress(ch.address)
    if (ch.account === undefined) {
      accounts.delete(key)
      continue
    }
    const before = accounts.get(key)
    const storage = new Map(ch.storageWiped || before === undefined ? [] : before.storage)
    for (const [k, v] of ch.storage) storage.set(k, v)
    accounts.set(key, { nonce: ch.account.nonce, balance: ch.account.balance, code: ch.account.code ?? before?.code ?? EMPTY_CODE, storage })
  }
  return accounts
}
