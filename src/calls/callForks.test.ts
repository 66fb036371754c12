import { beforeAll, describe, expect, it } from 'vitest'
import { readGenesisFile } from '../chain/genesis.js'
import { ChainSpec } from '../chain/spec.js'
import { ChainStore } from '../store/chainStore.js'
import { rpcCompatPath, tempDatadir } from '../testing/paths.js'
import { hexToBytes } from '../util/hex.js'
import { EthereumjsCallRunner } from './ethereumjsCallRunner.js'
import { gasLimitOf, prepareCall, UnsupportedForkError } from './callRunner.js'
import type { CallInput } from './callInput.js'
import type { CallRequest } from './callInput.js'
import { createAccessList as createAccessListLegacy } from './ethereumjsEstimate.js'
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
let runner: EthereumjsCallRunner
let config: EvmConfig
beforeAll(async () => {
  store = new ChainStore(tempDatadir('callforks'))
  await genesisBlock(spec, store)
  await importChain(spec, store, decodeChainFile(spec, rpcCompatPath('chain.rlp')))
  runner = await EthereumjsCallRunner.create(spec, store)
  config = new EvmConfig(spec, store)
})

const FROM = hexToBytes('0x0c2c51a0990aee1d73c1228de158688341557508')
const TO = hexToBytes('0x0100000000000000000000000000000000000000')

/** On Sponge's EVM from Berlin on; before it, the fields are checked the same and the call goes to EthereumJS. */
async function callAt(number: bigint, fields: Partial<CallRequest>) {
  const input: CallInput = { blockHash: store.getCanonicalHash(number)!, call: { from: FROM, to: TO, ...fields }, gasCap: 50_000_000n }
  try {
    return prepareCall(config, input)!.run(gasLimitOf(input))
  } catch (e) {
    if (!(e instanceof UnsupportedForkError)) throw e
    const block = await runner.prepare(input)
    return runner.run(input, block, runner.gasLimitOf(input, block))
  }
}

describe('call fields and forks', () => {
  it('refuses fields of forks not active at the block', async () => {
    const refused = async (number: bigint, fields: Partial<CallRequest>) => {
      await expect(callAt(number, fields)).rejects.toBeInstanceOf(TxRejectedError)
    }
    await refused(0x17n, { accessList: [] })
    await refused(0x1an, { maxFeePerGas: 0n, maxPriorityFeePerGas: 0n })
    await refused(0x1an, { maxPriorityFeePerGas: 1_000_000_000n })
    await refused(0x29n, { blobVersionedHashes: [new Uint8Array(32).fill(1)] })
    await refused(0x29n, { maxFeePerBlobGas: 1n })
    await refused(0x2cn, { authorizationList: [{ chainId: 0n, address: TO, nonce: 0n, yParity: 0n, r: 0n, s: 0n }] })
    // An access list is itself an access-list transaction's: none before Berlin.
    const at = (n: bigint): CallInput => ({ blockHash: store.getCanonicalHash(n)!, call: { from: FROM, to: TO }, gasCap: 50_000_000n })
    await expect(createAccessListLegacy(runner, at(0x17n))).rejects.toBeInstanceOf(TxRejectedError)
    expect(createAccessList(config, at(0x18n))?.gasUsed).toBe(21_000n)
  })

  it('runs the same fields where their forks are active, and a gas price at any fork', async () => {
    expect((await callAt(0x18n, { accessList: [] })).status).toBe('success')
    expect((await callAt(0x1an, { gasPrice: 1_000_000_000n, gas: 21_000n })).status).toBe('success')
    expect((await callAt(0x36n, { maxFeePerBlobGas: 1n })).status).toBe('success')
  })
})
