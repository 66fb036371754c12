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

function legacy(over: Partial<EvmTransaction>): EvmTransaction {
  return {
    type: 0,
    sender: SENDER,
    to: CONTRACT,
    nonce: 0n,
    gasLimit: 100_000n,
    value: 0n,
    data: new Uint8Array(),
    gasPrice: 1n,
    maxFeePerGas: 1n,
    maxPriorityFeePerGas: 1n,
    accessList: [],
    maxFeePerBlobGas: 0n,
    blobHashes: [],
    authorizations: [],
    ...over,
  }
}

describe('applyTransaction', () => {
  it('leaves an empty account that an access list names with storage keys (warming touches nothing)', () => {
    const EMPTY = 0xe3e3n
    const state = new WorldState(
      new MapStateSource([
        [SENDER, account('0x', BALANCE)],
        [CONTRACT, account('0x00', 0n)],
        [EMPTY, account('0x', 0n)],
      ]),
    )
    const tx = legacy({ type: 1, accessList: [{ address: EMPTY, storageKeys: [1n] }] })
    applyTransaction(new Evm({ fork: Fork.berlin, block, state }), tx, { maxBlobsPerBlock: 0 })
    state.endTransaction()
    expect(state.get(EMPTY).exists).toBe(true)
  })

  it('charges and pays every unit of gas past 2^53 (older forks allow a transaction up to 2^64)', () => {
    // INVALID: the call halts and burns all its gas, 2^60 + 22 of it.
    const gasLimit = (1n << 60n) + 22n
    const state = new WorldState(
      new MapStateSource([
        [SENDER, account('0x', BALANCE)],
        [CONTRACT, account('0xfe', 0n)],
      ]),
    )
    const tx = legacy({ gasLimit })
    const out = applyTransaction(new Evm({ fork: Fork.istanbul, block, state }), tx, { maxBlobsPerBlock: 0 })
    state.endTransaction()
    expect(out.status).toBe(2)
    expect(state.get(SENDER).balance).toBe(BALANCE - gasLimit)
    expect(state.get(COINBASE).balance).toBe(gasLimit)
  })
})
