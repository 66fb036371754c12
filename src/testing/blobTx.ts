import type { Common } from '@ethereumjs/common'
import { type Blob4844Tx, createBlob4844Tx } from '@ethereumjs/tx'
import { devAccounts } from '../chain/dev.js'
import { hexToBytes } from '../util/hex.js'

/**
 * A signed one-blob transaction of dev account `from` to dev account 1, its sidecar the one `common`'s fork builds:
 * blob proofs before Osaka (a version-0 wrapper, what most tools still send), cell proofs from Osaka on.
 */
export function devBlobTx(common: Common, from: number, text: string, nonce = 0n): Blob4844Tx {
  return createBlob4844Tx(
    {
      chainId: common.chainId(),
      nonce,
      maxFeePerGas: 10n ** 11n,
      maxPriorityFeePerGas: 10n ** 9n,
      maxFeePerBlobGas: 10n ** 10n,
      gasLimit: 21_000n,
      to: devAccounts()[1]!.address as `0x${string}`,
      blobsData: [text],
    },
    { common },
  ).sign(hexToBytes(devAccounts()[from]!.privateKey))
}
