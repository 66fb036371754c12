import { rmSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { devAccounts, devGenesis } from '../chain/dev.js'
import { ChainSpec } from '../chain/spec.js'
import { genesisBlock } from '../state/genesis.js'
import { ChainStore } from '../store/chainStore.js'
import { tempDatadir } from '../testing/paths.js'
import { signedTransfer } from '../testing/testNode.js'
import { bytesToHex, hexToBytes } from '../util/hex.js'
import { EvmConfig } from '../vm/evmConfig.js'
import { knownSigner, validateRawTx } from './txValidation.js'

describe("the dev wallet's known signer", () => {
  it('pools what a recovery of the signature gives: the same sender, public key and JSON', async () => {
    const spec = new ChainSpec(devGenesis())
    const dir = tempDatadir('known-signer')
    const store = new ChainStore(dir)
    try {
      const head = (await genesisBlock(spec, store)).hash()
      const evm = new EvmConfig(spec, store)
      const raw = hexToBytes(signedTransfer(spec, 1, 0, { to: devAccounts()[7]!.address, value: 1n }))
      const signer = knownSigner(hexToBytes(devAccounts()[1]!.privateKey))
      expect(bytesToHex(signer.address)).toBe(devAccounts()[1]!.address)
      const recovered = await validateRawTx(spec, store, evm, raw, head)
      expect(await validateRawTx(spec, store, evm, raw, head, signer)).toEqual(recovered)
    } finally {
      await store.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
