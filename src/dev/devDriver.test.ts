import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { keccak256 } from '../crypto/keccak.js'
import { type TestNode, receiptNow, signedTransfer, startTestNode } from '../testing/testNode.js'
import { bytesToHex, hexToBytes } from '../util/hex.js'

let n: TestNode
/** Waits for a nonce gap to be filled for as long as a test may take: what it checks must not hang on the machine's speed. */
let patient: TestNode
beforeAll(async () => {
  ;[n, patient] = await Promise.all([startTestNode({ dev: {} }), startTestNode({ dev: { gapWaitMs: 600_000 } })])
})
afterAll(async () => {
  await Promise.all([n.close(), patient.close()])
})

const hashOf = (raw: string) => bytesToHex(keccak256(hexToBytes(raw)))

describe('dev mode', () => {
  it('mines a sent transaction through the engine path before the send answers: its receipt is there at once', async () => {
    const sent = await n.http<string>('eth_sendRawTransaction', [signedTransfer(n.spec, 5, 0)])
    expect(sent.error).toBeUndefined()
    // One read, no waiting: the send answers once the block holding it is made.
    const receipt = await receiptNow(n, sent.result!)
    expect(receipt.status).toBe('0x1')
    expect(receipt.blockNumber).toBe('0x1')
    expect((await n.http<string>('eth_blockNumber')).result).toBe('0x1')
    // The dev driver marks its blocks safe and finalized.
    expect((await n.http<{ number: string }>('eth_getBlockByNumber', ['safe', false])).result?.number).toBe('0x1')
    expect((await n.http<{ number: string }>('eth_getBlockByNumber', ['finalized', false])).result?.number).toBe('0x1')
  })

  it('stores each block with its head, safe and finalized labels and transaction index in one write transaction', async () => {
    const store = n.node.store
    const blocks = vi.spyOn(store, 'putBlockSync')
    const heads = vi.spyOn(store, 'putCanonicalHeadSync')
    const forkchoices = vi.spyOn(store, 'setCanonicalSync')
    try {
      const sent = await n.http<string>('eth_sendRawTransaction', [signedTransfer(n.spec, 8, 0)])
      expect(sent.error).toBeUndefined()
      const receipt = await receiptNow(n, sent.result!)
      // One commit: the forkchoice's, holding the block (a crash after it loses nothing the send's answer reported).
      expect(blocks).not.toHaveBeenCalled()
      expect(heads).not.toHaveBeenCalled()
      expect(forkchoices).toHaveBeenCalledOnce()
      const [, branch, , labels, newBlock] = forkchoices.mock.calls[0]!
      expect(bytesToHex(newBlock!.hash)).toBe(receipt.blockHash)
      expect(branch.map((b) => bytesToHex(b.hash))).toEqual([receipt.blockHash])
      expect(Object.values(labels).map((h) => bytesToHex(h))).toEqual([receipt.blockHash, receipt.blockHash, receipt.blockHash])
    } finally {
      vi.restoreAllMocks()
    }
  })

  it('answers concurrent sends each once the block that holds it is made', async () => {
    // Sent together, some arrive while the block of another is being made (a block that read the pool before them).
    // Each receipt is read right after its own send answers.
    const receipts = await Promise.all(
      [1, 2, 3, 4].map(async (from) => {
        const sent = await n.http<string>('eth_sendRawTransaction', [signedTransfer(n.spec, from, 0)])
        expect(sent.error).toBeUndefined()
        return receiptNow(n, sent.result!)
      }),
    )
    expect(receipts.map((r) => r.status)).toEqual(['0x1', '0x1', '0x1', '0x1'])
  })

  it('answers a send queued behind a nonce gap once the send that fills the gap got it mined', async () => {
    // As a client that hands out nonces itself (viem's nonce manager) fires sends together: nonce 1 reaches the
    // pool before nonce 0. Answered at once, unmined, its receipt was missing and the client looked again only
    // seconds later (viem polls every 4 s).
    const later = signedTransfer(patient.spec, 6, 1)
    const laterAnswered = patient.http<string>('eth_sendRawTransaction', [later]).then(async (sent) => {
      expect(sent.error).toBeUndefined()
      return receiptNow(patient, sent.result!)
    })
    // Pooled (queued) before its gap is filled: bounded, each look a round trip.
    for (let i = 0; i < 10_000; i++) {
      if ((await patient.http<unknown>('eth_getTransactionByHash', [hashOf(later)])).result !== null) break
    }
    const first = await patient.http<string>('eth_sendRawTransaction', [signedTransfer(patient.spec, 6, 0)])
    expect(first.error).toBeUndefined()
    expect((await receiptNow(patient, first.result!)).status).toBe('0x1')
    const receipt = await laterAnswered
    expect(receipt.transactionHash).toBe(hashOf(later))
    expect(receipt.status).toBe('0x1')
  })

  it('mines a send that became pending while evm_mine made its block in the next block, and answers it then', async () => {
    const engine = n.node.engine
    const makeHead = engine.makeHead.bind(engine)
    let release!: () => void
    const gate = new Promise<void>((resolve) => {
      release = resolve
    })
    let minedBlockMade!: () => void
    const made = new Promise<void>((resolve) => {
      minedBlockMade = resolve
    })
    // evm_mine's block is made and stored before the send arrives; its driver learns so only once the gate opens.
    vi.spyOn(engine, 'makeHead').mockImplementationOnce(async (...args) => {
      const block = await makeHead(...args)
      minedBlockMade()
      await gate
      return block
    })
    try {
      const mined = n.http<string>('evm_mine')
      await made
      const pending = new Promise<void>((resolve) => n.node.context.txPool!.onPending(resolve))
      const sending = n.http<string>('eth_sendRawTransaction', [signedTransfer(n.spec, 9, 0)])
      await pending
      release()
      expect((await mined).error).toBeUndefined()
      const sent = await sending
      expect(sent.error).toBeUndefined()
      expect((await receiptNow(n, sent.result!)).status).toBe('0x1')
    } finally {
      vi.restoreAllMocks()
    }
  })

  it('answers a send left behind a nonce gap with its hash once it stopped waiting, unmined and still pooled', async () => {
    const gapped = signedTransfer(n.spec, 7, 3)
    const sent = await n.http<string>('eth_sendRawTransaction', [gapped])
    expect(sent.result).toBe(hashOf(gapped))
    expect((await n.http<unknown>('eth_getTransactionReceipt', [sent.result])).result).toBeNull()
    expect((await n.http<{ blockNumber: string | null }>('eth_getTransactionByHash', [sent.result])).result?.blockNumber).toBeNull()
  })
})
