import { createTx } from '@ethereumjs/tx'
import { describe, expect, it } from 'vitest'
import { devAccounts } from '../chain/dev.js'
import { devGenesis } from '../chain/dev.js'
import { ChainSpec } from '../chain/spec.js'
import { hexToBytes } from '../util/hex.js'
import { evmTransactionOf } from './evmTransaction.js'
import { decodeTransaction } from './storedTransactions.js'

// A stored transaction's bytes decoded for the EVM without EthereumJS's transaction classes: the same message as
// EthereumJS's decoding of the same bytes gives, for every type.

const spec = new ChainSpec(devGenesis())
const key = hexToBytes(devAccounts()[0]!.privateKey)
const to = '0x00000000000000000000000000000000000c0de4' as const
const base = { nonce: 7n, gasLimit: 90_000n, to, value: 5n, data: '0xdeadbeef' as const }
const list = [{ address: to, storageKeys: [`0x${'00'.repeat(31)}01` as const, `0x${'ab'.repeat(32)}` as const] }]

describe('decodeTransaction', () => {
  it("gives the message EthereumJS's decoding gives, for every type", () => {
    const common = spec.commonAt(1n, 10n ** 10n)
    const txs = [
      createTx({ type: 0, ...base, gasPrice: 9n }, { common }),
      createTx({ type: 1, ...base, gasPrice: 9n, accessList: list }, { common }),
      createTx({ type: 2, ...base, maxFeePerGas: 9n, maxPriorityFeePerGas: 2n, accessList: list }, { common }),
      createTx(
        { type: 3, ...base, maxFeePerGas: 9n, maxPriorityFeePerGas: 2n, maxFeePerBlobGas: 3n, blobVersionedHashes: [`0x01${'22'.repeat(31)}`] },
        { common },
      ),
      createTx(
        {
          type: 4,
          ...base,
          maxFeePerGas: 9n,
          maxPriorityFeePerGas: 2n,
          authorizationList: [{ chainId: '0x539', address: to, nonce: '0x1', yParity: '0x1', r: '0x05', s: '0x06' }],
        },
        { common },
      ),
    ]
    for (const unsigned of txs) {
      const tx = unsigned.sign(key)
      const sender = tx.getSenderAddress().bytes
      expect(decodeTransaction(tx.serialize(), BigInt(`0x${Buffer.from(sender).toString('hex')}`)), `type ${tx.type}`).toEqual(
        evmTransactionOf(tx, sender),
      )
    }
  })
})
