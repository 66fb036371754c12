import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { tempDatadir } from '../testing/paths.js'
import { syncRun } from '../util/syncRun.js'
import { ChainStore } from './chainStore.js'
import { SnapshotStamp } from './snapshotStamp.js'

const KEY = Buffer.from('k')

let store: ChainStore
beforeEach(() => {
  store = new ChainStore(tempDatadir('snapshot-stamp'))
  store.db('meta').putSync(KEY, Buffer.from('v1'))
})
afterEach(async () => {
  await store.close()
})

const read = () => store.db('meta').getBinaryFast(KEY)

describe('the snapshot epoch', () => {
  it('moves when a snapshot ends and again when the next read begins one', () => {
    read()
    const e0 = store.snapshotEpoch
    read()
    expect(store.snapshotEpoch).toBe(e0)
    store.refreshSnapshot()
    expect(store.snapshotEpoch).toBe(e0 + 1)
    // lmdb-js's 'begin-transaction': what its own zero timer ended is seen at the next read too.
    read()
    expect(store.snapshotEpoch).toBe(e0 + 2)
    read()
    expect(store.snapshotEpoch).toBe(e0 + 2)
  })
})

describe('a pinned snapshot', () => {
  it('tells its thread when one begins, once, so that the thread ends it after its pass (a pass that reads nothing has none)', () => {
    let began = 0
    store.pinSnapshots({ keep: () => {}, began: () => began++ })
    read()
    read()
    expect(began).toBe(1)
    store.refreshSnapshot()
    expect(began).toBe(1)
    read()
    expect(began).toBe(2)
  })
})

describe('a check against the snapshot', () => {
  it('holds within the synchronous run it was made in, on a thread that does not pin its snapshots', () => {
    const stamp = new SnapshotStamp(store)
    read()
    stamp.stamp()
    expect(stamp.holds()).toBe(false)
    syncRun(() => {
      read()
      stamp.stamp()
      expect(stamp.holds()).toBe(true)
      store.refreshSnapshot()
      expect(stamp.holds()).toBe(false)
    })
    expect(stamp.holds()).toBe(false)
  })

  it('holds across runs on a thread that pins its snapshots, until the snapshot ends, and asks to keep the head first', () => {
    let headMoved = false
    let asked = 0
    store.pinSnapshots({
      keep: () => {
        asked++
        if (headMoved) {
          headMoved = false
          store.refreshSnapshot()
        }
      },
      began: () => {},
    })
    const stamp = new SnapshotStamp(store)
    read()
    stamp.stamp()
    expect(stamp.holds()).toBe(true)
    expect(stamp.holds()).toBe(true)
    expect(asked).toBe(2)
    headMoved = true
    expect(stamp.holds()).toBe(false)
    read()
    stamp.stamp()
    expect(stamp.holds()).toBe(true)
    store.refreshSnapshot()
    expect(stamp.holds()).toBe(false)
    // Within one synchronous run (a batch) a check made in it holds without asking: one snapshot for the batch.
    syncRun(() => {
      read()
      stamp.stamp()
      asked = 0
      headMoved = true
      expect(stamp.holds()).toBe(true)
      expect(asked).toBe(0)
    })
    expect(stamp.holds()).toBe(false)
  })

  it("holds across snapshots on a node's serving thread while the forkchoice writes it has seen stay the same", () => {
    // node/headSequence.ts's stableCount: the writes the snapshot holds, undefined while one is under way.
    let generation: number | undefined = 4
    store.pinSnapshots({ keep: () => {}, generation: () => generation, began: () => {} })
    const stamp = new SnapshotStamp(store)
    // A check made in a pass, and the pass over: its snapshot ended.
    const checkedThenPassEnds = () => {
      read()
      stamp.stamp()
      store.refreshSnapshot()
    }
    // Nothing was written since the check, so it holds in the next pass's snapshot.
    checkedThenPassEnds()
    read()
    expect(stamp.holds()).toBe(true)
    // A write under way: nothing checked now or before holds across a snapshot.
    generation = undefined
    expect(stamp.holds()).toBe(false)
    checkedThenPassEnds()
    expect(stamp.holds()).toBe(false)
    // Written: checked again, then it holds across the next pass's snapshot until the next write.
    generation = 6
    expect(stamp.holds()).toBe(false)
    checkedThenPassEnds()
    expect(stamp.holds()).toBe(true)
    generation = 8
    expect(stamp.holds()).toBe(false)
  })
})
