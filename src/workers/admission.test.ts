import { rmSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { devGenesis } from '../chain/dev.js'
import { ChainSpec } from '../chain/spec.js'
import { genesisBlock } from '../state/genesis.js'
import { ChainStore } from '../store/chainStore.js'
import { tempDatadir } from '../testing/paths.js'
import { SharedAdmission } from './admission.js'
import { WorkerPool } from './pool.js'

// Serving threads each have a public lane (node/servingThread.ts). Admitted against counts of their own, a client
// whose connections land on n threads would get n shares and --rpc.maxqueue would bound each lane, not the node.

describe('lanes sharing one admission', () => {
  it('admit a client one share across them, and bound their calls together by maxInFlight', async () => {
    const spec = new ChainSpec(devGenesis())
    const datadir = tempDatadir('admission')
    const store = new ChainStore(datadir)
    await genesisBlock(spec, store)
    const init = { datadir, genesisJson: JSON.stringify(spec.genesis) }
    const shared = SharedAdmission.shared()
    const lane = (admission?: SharedArrayBuffer) =>
      new WorkerPool(init, { name: 'public', threads: 1, maxInFlight: 4, idleMs: 60_000, ...(admission === undefined ? {} : { admission }) })
    const [one, other, apart] = [lane(shared), lane(shared), lane()]
    try {
      // Client a holds a call on one lane.
      const held = one.forClient('a').run({ op: 'ping' })
      // Its share (4 places among a and one more: 2) less the call it holds, on either lane sharing the count.
      expect(one.forClient('a').admits(10)).toBe(1)
      expect(other.forClient('a').admits(10)).toBe(1)
      // Another client's share: 4 among a, b and one more.
      expect(other.forClient('b').admits(10)).toBe(1)
      // A lane with its own count sees nothing held: idle, it admits any number.
      expect(apart.forClient('a').admits(10)).toBe(10)
      const more = [other.forClient('a').run({ op: 'ping' }), other.forClient('b').run({ op: 'ping' }), one.forClient('c').run({ op: 'ping' })]
      // Four held between the two lanes: no room on either.
      expect(one.forClient('d').admits(1)).toBe(0)
      expect(other.forClient('d').admits(1)).toBe(0)
      expect(await Promise.all([held, ...more])).toEqual([null, null, null, null])
      // All answered: both lanes idle again.
      expect(other.forClient('d').admits(10)).toBe(10)
    } finally {
      await Promise.all([one.close(), other.close(), apart.close()])
      await store.close()
      rmSync(datadir, { recursive: true, force: true })
    }
  })
})
