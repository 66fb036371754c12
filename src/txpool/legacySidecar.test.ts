import { devBlobTx } from '../testing/blobTx.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devAccounts } from '../chain/dev.js'
import { type TestNode, startTestNode } from '../testing/testNode.js'
import { bytesToHex } from '../util/hex.js'

// Issue 10's report: after Osaka, a blob transaction sent with the pre-Osaka sidecar (one blob proof per blob) was
// accepted, then skipped by the builder without a word, pending forever. The pool gives it cell proofs after admission
// (geth converts at admission; here in the background: v0SidecarConversion.test.ts), a dev block takes it meanwhile, so
// it is mined, and engine_getBlobsV2 serves its cells' proofs.

let n: TestNode
beforeAll(async () => {
  n = await startTestNode({ dev: { period: 3600 }, devAccounts: devAccounts() })
})
afterAll(async () => {
  await n.close()
})

describe('a pre-Osaka blob sidecar after Osaka', () => {
  it('is converted to cell proofs and mined, and the sender’s next transaction follows it', async () => {
    // A Prague common makes the version-0 wrapper (blob proofs) an Osaka client would no longer build.
    const prague = n.spec.commonAt(0n, 0n).copy()
    prague.setHardfork('prague')
    const sender = devAccounts()[8]!
    const tx = devBlobTx(prague, 8, 'an old sidecar')
    expect(tx.kzgProofs).toHaveLength(1)
    const sent = await n.http<string>('eth_sendRawTransaction', [bytesToHex(tx.serializeNetworkWrapper())])
    expect(sent.error).toBeUndefined()
    await n.http('evm_mine')
    const receipt = (await n.http<{ status: string; blobGasUsed: string } | null>('eth_getTransactionReceipt', [sent.result])).result
    expect(receipt).toMatchObject({ status: '0x1', blobGasUsed: '0x20000' })
    const next = await n.http<string>('eth_sendTransaction', [{ from: sender.address, to: sender.address }])
    await n.http('evm_mine')
    expect((await n.http('eth_getTransactionReceipt', [next.result])).result).toMatchObject({ status: '0x1' })
  })
})
