import { beforeAll, describe, expect, it } from 'vitest'
import { readGenesisFile } from '../chain/genesis.js'
import { ChainSpec } from '../chain/spec.js'
import { ChainStore } from '../store/chainStore.js'
import { rpcCompatPath, tempDatadir } from '../testing/paths.js'
import { hexToBytes } from '../util/hex.js'
import { gasLimitOf, prepareCall } from './callRunner.js'
import type { CallInput } from './callInput.js'
import type { CallRequest } from './callInput.js'
import { createAccessList } from './accessList.js'
import { EvmConfig } from '../vm/evmConfig.js'
import { TxRejectedError } from '../exec/errors.js'
import { genesisBlock } from '../state/genesis.js'
import { importChain } from '../import/importChain.js'
import { decodeChainFile } from '../chain/chainFile.js'

// eth_call's fields against the forks of the block it runs at (the conformance chain: Berlin at 24, London at 27,
// Cancun at block 42, Prague at 45): a field whose fork is not active there is refused as geth refuses it, -32000.

const spec = new ChainSpec(readGenesisFile(rpcCompatPath('genesis.json')))
let store: ChainStore
let config: EvmConfig
beforeAll(async () => {
  store = new ChainStore(tempDatadir('callforks'))
  await genesisBlock(spec, store)
  await importChain(spec, store, decodeChainFile(spec, rpcCompatPath('chain.rlp')))
  config = new EvmConfig(spec, store)
})

const FROM = hexToBytes('0x0c2c51a0990aee1d73c1228de158688341557508')
const TO = hexToBytes('0x0100000000000000000000000000000000000000')

function callAt(number: bigint, fields: Partial<CallRequest>) {
  const input: CallInput = { blockHash: store.getCanonicalHash(number)!, call: { from: FROM, to: TO, ...fields }, gasCap: 50_000_000n }
  return prepareCall(config, input)!.run(gasLimitOf(input))
}

describe('call fields and forks', () => {
  it('refuses fields of forks not active at the block', () => {
    const refused = (number: bigint, fields: Partial<CallRequest>) => {
      expect(() => callAt(number, fields)).toThrow(TxRejectedError)
    }
    refused(0x17n, { accessList: [] })
    refused(0x1an, { maxFeePerGas: 0n, maxPriorityFeePerGas: 0n })
    refused(0x1an, { maxPriorityFeePerGas: 1_000_000_000n })
    refused(0x29n, { blobVersionedHashes: [new Uint8Array(32).fill(1)] })
    refused(0x29n, { maxFeePerBlobGas: 1n })
    refused(0x2cn, { authorizationList: [{ chainId: 0n, address: TO, nonce: 0n, yParity: 0n, r: 0n, s: 0n }] })
    // An access list is itself an access-list transaction's: none before Berlin.
    const at = (n: bigint): CallInput => ({ blockHash: store.getCanonicalHash(n)!, call: { from: FROM, to: TO }, gasCap: 50_000_000n })
    expect(() => createAccessList(config, at(0x17n))).toThrow(TxRejectedError)
    expect(createAccessList(config, at(0x18n))?.gasUsed).toBe(21_000n)
  })

  it('runs the same fields where their forks are active, and a gas price at any fork', () => {
    expect(callAt(0x18n, { accessList: [] }).status).toBe('success')
    expect(callAt(0x1an, { gasPrice: 1_000_000_000n, gas: 21_000n }).status).toBe('success')
    expect(callAt(0x36n, { maxFeePerBlobGas: 1n }).status).toBe('success')
    // Before Berlin too, on Sponge's EVM: the chain's first blocks are Frontier's to Istanbul's.
    expect(callAt(0x1n, { gasPrice: 1_000_000_000n, gas: 21_000n })).toMatchObject({ status: 'success', gasUsed: 21_000n })
  })
})
