import { describe, expect, it } from 'vitest'
import { Fork } from '../chain/evmFork.js'
import { SYSTEM_CONTRACTS } from '../chain/systemContracts.js'
import { hexToBytes } from '../util/hex.js'
import type { BlockEnv } from './env.js'
import { Evm } from './interpreter.js'
import { MapStateSource } from './mapState.js'
import { WorldState } from './state.js'
import { SYSTEM_ADDRESS, systemCall } from './systemCall.js'
import { wordToBytes } from './words.js'

const beaconRoots = SYSTEM_CONTRACTS.find((c) => c.name === 'BEACON_ROOTS_ADDRESS')!
const BEACON = BigInt(beaconRoots.address)
const TIMESTAMP = 1_700_000_000n
const block: BlockEnv = {
  coinbase: 0n,
  number: 10n,
  timestamp: TIMESTAMP,
  gasLimit: 30_000_000n,
  prevRandao: 0n,
  difficulty: 0n,
  baseFee: 7n,
  blobBaseFee: 1n,
  chainId: 1n,
  blockHash: () => 0n,
}

describe('system calls', () => {
  it("store EIP-4788's beacon root in its ring buffer and leave the system address absent", () => {
    const state = new WorldState(new MapStateSource([[BEACON, { nonce: 1n, balance: 0n, code: hexToBytes(beaconRoots.code), storage: new Map() }]]))
    const evm = new Evm({ fork: Fork.cancun, block, state })
    const root = 0xabcdefn
    const r = systemCall(evm, BEACON, wordToBytes(root))
    state.endTransaction()
    expect(r.status).toBe(0)
    // EIP-4788: timestamp at timestamp % 8191, the root at that + 8191.
    const slot = TIMESTAMP % 8191n
    const contract = state.get(BEACON)
    expect(state.getStorage(contract, slot)).toBe(TIMESTAMP)
    expect(state.getStorage(contract, slot + 8191n)).toBe(root)
    expect(state.get(SYSTEM_ADDRESS).exists).toBe(false)
  })

  it('do nothing where the contract is not deployed', () => {
    const state = new WorldState(new MapStateSource([]))
    const r = systemCall(new Evm({ fork: Fork.cancun, block, state }), BEACON, wordToBytes(1n))
    state.endTransaction()
    expect(r.status).toBe(0)
    expect(state.changes().every((c) => c.account === undefined)).toBe(true)
  })
})
