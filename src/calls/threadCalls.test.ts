import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LOOP_FOREVER } from '../testing/asm.js'
import { type TestNode, devGenesisWith, startTestNode } from '../testing/testNode.js'
import { hexToBytes } from '../util/hex.js'
import { EvmConfig } from '../vm/evmConfig.js'
import type { CallInput } from './callInput.js'
import { ThreadCalls } from './threadCalls.js'

// Where a call runs (threadCalls.ts): on the serving thread under a budget, and in the lane once it has passed the
// budget twice or the thread's share of time for calls is spent. Decided by what happened, never by how fast.

const LOOP = '0x00000000000000000000000000000000000c0006'
const OTHER_LOOP = '0x00000000000000000000000000000000000c0007'

let n: TestNode
let config: EvmConfig
beforeAll(async () => {
  n = await startTestNode({ genesis: devGenesisWith({ [LOOP]: LOOP_FOREVER, [OTHER_LOOP]: LOOP_FOREVER }) })
  config = new EvmConfig(n.spec, n.node.store)
})
afterAll(async () => {
  await n.close()
})

const at = (to: string, data = '0x'): CallInput => ({
  blockHash: n.node.store.getLabel('head')!,
  call: { to: hexToBytes(to), data: hexToBytes(data) },
  gasCap: 2n ** 40n,
})

describe('calls on the serving thread', () => {
  it('runs a cheap call here, and sends a target that passed its budget to the lane at once for a while', () => {
    // A budget no cheap call comes near on a loaded machine; the loops never end, so they pass any budget.
    const calls = new ThreadCalls(config, { budgetMs: 200, share: 1, cheapMs: 0.1, burstMs: 10_000, heavyForMs: 60_000, heavyForMaxMs: 60_000 })
    expect(calls.call(at(`0x${'00'.repeat(19)}01`))).toMatchObject({ status: 'success' })
    expect(calls.counts).toEqual({ thread: 1, lane: 0, abandoned: 0 })
    expect(calls.call(at(LOOP))).toBeUndefined()
    expect(calls.counts).toEqual({ thread: 1, lane: 0, abandoned: 1 })
    // Heavy now: not tried here for a minute. Another selector of it is another target.
    expect(calls.call(at(LOOP))).toBeUndefined()
    expect(calls.estimate(at(LOOP))).toBeUndefined()
    expect(calls.counts).toEqual({ thread: 1, lane: 2, abandoned: 1 })
    expect(calls.call(at(LOOP, '0x12345678'))).toBeUndefined()
    expect(calls.counts.abandoned).toBe(2)
  })

  it('leaves every call to the lane once the share of the thread for calls is spent', () => {
    // Abandoned attempts (a millisecond or two each) spend the credit, which comes back at a millionth of the clock.
    const calls = new ThreadCalls(config, { budgetMs: 1, share: 1e-6, cheapMs: 0, burstMs: 2, heavyForMs: 60_000, heavyForMaxMs: 60_000 })
    for (let i = 0; i < 3 && calls.counts.lane === 0; i++) expect(calls.call(at(i % 2 === 0 ? LOOP : OTHER_LOOP, `0x0${i}`))).toBeUndefined()
    expect(calls.counts.abandoned).toBeGreaterThan(0)
    expect(calls.counts.lane).toBe(1)
    expect(calls.call(at(`0x${'00'.repeat(19)}01`))).toBeUndefined()
    expect(calls.counts).toMatchObject({ thread: 0, lane: 2 })
  })

  it("keeps cheap calls here when the thread waits for a core in the middle of them, as on a machine's shared cores", () => {
    // Each look at the clock finds 1.5 ms gone: every call seems to take that long, as one does whose thread waited
    // for a core meanwhile. Before, each such call spent 1.4 ms of the 2 ms of credit, and the third went to the lane;
    // a call's gas now bounds its charge (a balanceOf-sized call, under the 0.1 ms a cheap call may take).
    let clock = performance.now()
    const stalled = () => (clock += 1.5)
    const calls = new ThreadCalls(
      config,
      { budgetMs: 200, share: 1e-6, cheapMs: 0.1, burstMs: 2, heavyForMs: 60_000, heavyForMaxMs: 60_000 },
      stalled,
    )
    for (let i = 0; i < 20; i++) expect(calls.call(at(`0x${'00'.repeat(19)}01`))).toMatchObject({ status: 'success' })
    expect(calls.counts).toEqual({ thread: 20, lane: 0, abandoned: 0 })
    // A target that is really heavy is still charged its wall time: the loop passes the budget, the credit is spent.
    expect(calls.call(at(LOOP))).toBeUndefined()
    expect(calls.call(at(`0x${'00'.repeat(19)}01`))).toBeUndefined()
    expect(calls.counts).toEqual({ thread: 20, lane: 1, abandoned: 1 })
  })

  it('sends a call stopped twice before it did any work to the lane, without holding its target for heavy', () => {
    // A clock a second behind: every deadline has passed when the call enters its first frame, as when the thread
    // waited for a core past its budget twice. Before, the target was then held for heavy (the wait doubling each
    // time, up to 10 s): balanceOf on two serving threads of a loaded 2-core machine went to the lanes for seconds.
    const behind = () => performance.now() - 1_000
    const calls = new ThreadCalls(config, { budgetMs: 2, share: 1, cheapMs: 0.1, burstMs: 20, heavyForMs: 60_000, heavyForMaxMs: 60_000 }, behind)
    for (let i = 0; i < 3; i++) expect(calls.call(at(`0x${'00'.repeat(19)}01`))).toBeUndefined()
    expect(calls.counts).toEqual({ thread: 0, lane: 0, abandoned: 3 })
  })
})
