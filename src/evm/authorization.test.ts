import { RLP } from '@ethereumjs/rlp'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { describe, expect, it } from 'vitest'
import { Fork } from '../chain/evmFork.js'
import { keccak256 } from '../crypto/keccak.js'
import type { PlainAccount } from '../state/accountsRoot.js'
import type { BlockEnv } from './env.js'
import { type Authorization, authority } from './authorization.js'
import { Evm } from './interpreter.js'
import { MapStateSource } from './mapState.js'
import { WorldState } from './state.js'
import { applyTransaction, type EvmTransaction } from './transaction.js'
import { addressToBytes, bytesToWord } from './words.js'

// EIP-7702's authorizations as a transaction applies them: the refund for an authority that already exists.

const SENDER = 0xa11cen
const TARGET = 0x7a76e7n
const DELEGATE = 0xde1e6a7en
const KEY = new Uint8Array(32).fill(7)
const AUTHORITY = bytesToWord(keccak256(secp256k1.getPublicKey(KEY, false).subarray(1)).subarray(12))
const block: BlockEnv = {
  coinbase: 0xc0ffeen,
  number: 1n,
  timestamp: 1000n,
  gasLimit: 30_000_000n,
  prevRandao: 0n,
  difficulty: 0n,
  baseFee: 7n,
  blobBaseFee: 1n,
  chainId: 1n,
  blockHash: () => 0n,
}
const account = (balance = 0n, nonce = 0n): PlainAccount => ({ nonce, balance, code: new Uint8Array(), storage: new Map() })

const int = (n: bigint): Uint8Array =>
  n === 0n ? new Uint8Array() : Uint8Array.from(Buffer.from(n.toString(16).padStart(Math.ceil(n.toString(16).length / 2) * 2, '0'), 'hex'))

/** An authorization of DELEGATE signed by KEY. */
function signed(nonce: bigint): Authorization {
  const payload = RLP.encode([int(block.chainId), addressToBytes(DELEGATE), int(nonce)])
  const hash = keccak256(Uint8Array.of(0x05, ...payload))
  const sig = secp256k1.Signature.fromBytes(secp256k1.sign(hash, KEY, { prehash: false, format: 'recovered' }), 'recovered')
  return { chainId: block.chainId, address: DELEGATE, nonce, yParity: BigInt(sig.recovery!), r: sig.r, s: sig.s }
}

function apply(pre: [bigint, PlainAccount][], authorizations: Authorization[]) {
  const state = new WorldState(new MapStateSource([[SENDER, account(10n ** 18n)], ...pre]))
  const tx: EvmTransaction = {
    type: 4,
    sender: SENDER,
    to: TARGET,
    nonce: 0n,
    gasLimit: 100_000n,
    value: 0n,
    data: new Uint8Array(),
    gasPrice: 0n,
    maxFeePerGas: 10n,
    maxPriorityFeePerGas: 1n,
    accessList: [],
    maxFeePerBlobGas: 0n,
    blobHashes: [],
    authorizations,
  }
  const out = applyTransaction(new Evm({ fork: Fork.prague, block, state }), tx, { maxBlobsPerBlock: 9 })
  state.endTransaction()
  return { out, state }
}

describe('EIP-7702 authorizations', () => {
  it('signs as the test expects', () => {
    expect(authority(signed(0n))).toBe(AUTHORITY)
  })

  it('charges 25,000 for an authority that does not exist, 12,500 back for one that does, empty or not', () => {
    // 21,000 + 25,000 intrinsic; the refund (12,500) is capped at a fifth of that: 9,200.
    expect(apply([], [signed(0n)]).out.gasUsed).toBe(46000)
    expect(apply([[AUTHORITY, account(1n)]], [signed(0n)]).out.gasUsed).toBe(36800)
    // Nonce 0, no balance, no code, but in the state: it exists (execution-specs' account_exists, geth's Exist).
    const empty = apply([[AUTHORITY, account()]], [signed(0n)])
    expect(empty.out.gasUsed).toBe(36800)
    expect(empty.state.get(AUTHORITY).nonce).toBe(1n)
  })
})
