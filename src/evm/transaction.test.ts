import { describe, expect, it } from 'vitest'
import { Fork } from '../chain/evmFork.js'
import type { PlainAccount } from '../state/accountsRoot.js'
import { hexToBytes } from '../util/hex.js'
import type { BlockEnv } from './env.js'
import { Evm } from './interpreter.js'
import { MapStateSource } from './mapState.js'
import { WorldState } from './state.js'
import { applyTransaction, type EvmTransaction } from './transaction.js'

// The state transition's arithmetic: fees and refunds of transactions whose gas passes what a double holds exactly.

const SENDER = 0xa11cen
const CONTRACT = 0xc0den
const COINBASE = 0xc0ffeen
const block: BlockEnv = {
  coinbase: COINBASE,
  number: 1n,
  timestamp: 1000n,
  gasLimit: 1n << 62n,
  prevRandao: 0n,
  difficulty: 0x20000n,
  baseFee: 0n,
  blobBaseFee: 0n,
  chainId: 1n,
  blockHash: () => 0n,
}
const BALANCE = 10n ** 30n
const account = (code: string, balance: bigint): PlainAccount => ({ nonce: 0n, balance, code: hexToBytes(code), storage: new Map() })

describe('applyTransaction', () => {
  it('charges and pays every unit of gas past 2^53 (older forks allow a transaction up to 2^64)', () => {
    // INVALID: the call halts and burns all its gas, 2^60 + 22 of it.
    const gasLimit = (1n << 60n) + 22n
    const state = new WorldState(
      new MapStateSource([
        [SENDER, account('0x', BALANCE)],
        [CONTRACT, account('0xfe', 0n)],
      ]),
    )
    const tx: EvmTransaction = {
      type: 0,
      sender: SENDER,
      to: CONTRACT,
      nonce: 0n,
      gasLimit,
      value: 0n,
      data: new Uint8Array(),
      gasPrice: 1n,
      maxFeePerGas: 1n,
      maxPriorityFeePerGas: 1n,
      accessList: [],
      maxFeePerBlobGas: 0n,
      blobHashes: [],
      authorizations: [],
    }
    const out = applyTransaction(new Evm({ fork: Fork.istanbul, block, state }), tx, { maxBlobsPerBlock: 0 })
    state.endTransaction()
    expect(out.status).toBe(2)
    expect(state.get(SENDER).balance).toBe(BALANCE - gasLimit)
    expect(state.get(COINBASE).balance).toBe(gasLimit)
  })
})
