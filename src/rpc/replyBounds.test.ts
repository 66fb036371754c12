import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type TestNode, devGenesisWith, startTestNode } from '../testing/testNode.js'

// Replies bounded in bytes (issue 21, item 2): one call's reply by --rpc.max-response-size, a batch's by
// --rpc.batch-response-max-size, answered as geth does (-32003 "response too large"). Before, a batch of 20
// eth_getLogs answered 590 MB and a batch of 100 took 9 GB.

// Returns 4,000 zero bytes (PUSH2 4000, PUSH0, RETURN), its code padded to 3,005 bytes.
const BIG = '0x00000000000000000000000000000000000b1600'
const BIG_CODE = `0x610fa05ff3${'00'.repeat(3000)}`
// Code of 12,000 bytes: its eth_getCode reply (24,000 hex digits) passes the 20,000-byte bound.
const HUGE = '0x00000000000000000000000000000000000b1601'
const HUGE_CODE = `0x${'5b'.repeat(12_000)}`
const TOO_LARGE = { code: -32003, message: 'response too large' }

let n: TestNode
beforeAll(async () => {
  n = await startTestNode({
    genesis: devGenesisWith({ [BIG]: BIG_CODE, [HUGE]: HUGE_CODE }),
    maxReplyBytes: 20_000,
    maxBatchReplyBytes: 20_000,
  })
})
afterAll(async () => {
  await n.close()
})

const returned = `0x${'00'.repeat(4000)}`

describe('reply bounds', () => {
  it("answers one call's reply past --rpc.max-response-size with -32003, and serves the ones within it", async () => {
    expect((await n.http('eth_getCode', [HUGE, 'latest'])).error).toEqual(TOO_LARGE)
    expect((await n.http('eth_getCode', [BIG, 'latest'])).result).toBe(BIG_CODE)
    expect((await n.http('eth_call', [{ to: BIG }, 'latest'])).result).toBe(returned)
  })

  it('answers the calls of a batch left once its reply passed the bound with -32003, from the store', async () => {
    // ~6 KB a reply: the fourth passes 20,000 bytes and is kept (as geth), the fifth is not run.
    const r = await n.batch(Array.from({ length: 5 }, () => ['eth_getCode', [BIG, 'latest']]))
    expect(r.replies.map((x) => x.result ?? x.error)).toEqual([BIG_CODE, BIG_CODE, BIG_CODE, BIG_CODE, TOO_LARGE])
  })

  it('does the same for answers the worker lane gives later', async () => {
    // ~8 KB a reply: the third passes the bound.
    const r = await n.batch(Array.from({ length: 5 }, () => ['eth_call', [{ to: BIG }, 'latest']]))
    expect(r.replies.map((x) => x.result ?? x.error)).toEqual([returned, returned, returned, TOO_LARGE, TOO_LARGE])
  })

  it('bounds a call too large to answer inside a batch by the per-call bound, and counts nothing for it', async () => {
    const r = await n.batch([
      ['eth_getCode', [HUGE, 'latest']],
      ['eth_getCode', [BIG, 'latest']],
    ])
    expect(r.replies.map((x) => x.result ?? x.error)).toEqual([TOO_LARGE, BIG_CODE])
  })
})
