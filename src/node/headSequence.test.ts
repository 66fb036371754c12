import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ChainStore } from '../store/chainStore.js'
import { tempDatadir } from '../testing/paths.js'
import { HeadSequence } from './headSequence.js'

let store: ChainStore
beforeEach(() => {
  store = new ChainStore(tempDatadir('head-sequence'))
})
afterEach(async () => {
  await store.close()
})

describe('the head sequence', () => {
  it("gives a serving thread's snapshot a stable count only while no forkchoice write is under way", () => {
    const shared = HeadSequence.shared()
    const writer = new HeadSequence(shared)
    const thread = new HeadSequence(shared)
    expect(thread.stableCount()).toBe(0)
    writer.beginWrite()
    // Not seen until the thread keeps its snapshot at the count (before each request).
    expect(thread.stableCount()).toBe(0)
    const epoch = store.snapshotEpoch
    thread.keep(store)
    expect(store.snapshotEpoch).toBe(epoch + 1)
    expect(thread.stableCount()).toBeUndefined()
    writer.advance()
    thread.keep(store)
    expect(store.snapshotEpoch).toBe(epoch + 2)
    expect(thread.stableCount()).toBe(2)
    // Nothing written: the snapshot is kept, the count the same.
    thread.keep(store)
    expect(store.snapshotEpoch).toBe(epoch + 2)
    expect(thread.stableCount()).toBe(2)
  })
})
