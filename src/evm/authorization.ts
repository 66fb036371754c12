import { RLP } from '@ethereumjs/rlp'
import { bigIntToUnpaddedBytes } from '@ethereumjs/util'
import { keccak256 } from '../crypto/keccak.js'
import { ecrecover } from '../crypto/secp256k1.js'
import { delegationTarget } from './code.js'
import type { Evm } from './interpreter.js'
import { EMPTY_CODE, EMPTY_CODE_HASH } from './state.js'
import { addressToBytes, bytesToWord, wordToBytes } from './words.js'

// EIP-7702's authorization list: each valid tuple points its signer's code at an address (0xef0100 ++ address), or
// clears it for the zero address. An invalid tuple is skipped, never fails the transaction.

export interface Authorization {
  chainId: bigint
  address: bigint
  nonce: bigint
  yParity: bigint
  r: bigint
  s: bigint
}

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
const MAX_NONCE = 0xffffffffffffffffn
const REFUND_EXISTING = 25000 - 12500

/** The signer of an authorization, or undefined when the signature is not valid. */
export function authority(a: Authorization): bigint | undefined {
  if (a.yParity > 1n || a.r === 0n || a.s === 0n || a.r >= SECP256K1_N || a.s > SECP256K1_N / 2n) return undefined
  const payload = RLP.encode([bigIntToUnpaddedBytes(a.chainId), addressToBytes(a.address), bigIntToUnpaddedBytes(a.nonce)])
  const msg = new Uint8Array(payload.length + 1)
  msg[0] = 0x05
  msg.set(payload, 1)
  try {
    const pub = ecrecover(keccak256(msg), a.yParity, wordToBytes(a.r), wordToBytes(a.s))
    return bytesToWord(keccak256(pub).subarray(12))
  } catch {
    return undefined
  }
}

export function applyAuthorizations(evm: Evm, list: readonly Authorization[]): void {
  const state = evm.state
  for (const a of list) {
    if (a.chainId !== 0n && a.chainId !== evm.block.chainId) continue
    if (a.nonce >= MAX_NONCE) continue
    const signer = authority(a)
    if (signer === undefined) continue
    state.warmAddress(signer)
    const acc = state.get(signer)
    if (acc.codeHash !== EMPTY_CODE_HASH && delegationTarget(state.codeOf(acc)) === undefined) continue
    if (acc.nonce !== a.nonce) continue
    // An authority already in the state gets back the new-account part of what the intrinsic gas charged, empty or not
    // (execution-specs' account_exists, geth's StateDB.Exist).
    if (acc.exists) state.addRefund(REFUND_EXISTING)
    if (a.address === 0n) state.setCode(acc, EMPTY_CODE, EMPTY_CODE_HASH)
    else {
      const code = new Uint8Array(23)
      code[0] = 0xef
      code[1] = 0x01
      code.set(addressToBytes(a.address), 3)
      state.setCode(acc, code)
    }
    state.setNonce(acc, acc.nonce + 1n)
  }
}
