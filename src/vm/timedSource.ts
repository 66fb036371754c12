import type { AccountData } from '../evm/state.js'
import { type BlockPhases, Phase } from '../util/blockPhases.js'
import type { StoredStateSource } from './stateSources.js'

// A store's state source whose every read is timed as a state read (util/blockPhases.ts): put behind the warm state
// only while phases are kept, so that the reads the caches answer are not timed and, off, nothing is.

export class TimedStateSource implements StoredStateSource {
  constructor(
    private readonly base: StoredStateSource,
    private readonly phases: BlockPhases,
  ) {}

  account(address: bigint): AccountData | undefined {
    const t = performance.now()
    const a = this.base.account(address)
    this.phases.add(Phase.stateReads, performance.now() - t)
    return a
  }

  code(codeHash: Uint8Array, address: bigint): Uint8Array {
    const t = performance.now()
    const c = this.base.code(codeHash, address)
    this.phases.add(Phase.stateReads, performance.now() - t)
    return c
  }

  storage(address: bigint, slot: bigint): bigint {
    const t = performance.now()
    const v = this.base.storage(address, slot)
    this.phases.add(Phase.stateReads, performance.now() - t)
    return v
  }

  hasStorage(address: bigint): boolean {
    const t = performance.now()
    const has = this.base.hasStorage(address)
    this.phases.add(Phase.stateReads, performance.now() - t)
    return has
  }

  storageRoot(address: bigint): Uint8Array {
    const t = performance.now()
    const root = this.base.storageRoot(address)
    this.phases.add(Phase.stateReads, performance.now() - t)
    return root
  }
}
