import { workerData } from 'node:worker_threads'
import { ChainSpec } from '../chain/spec.js'
import type { GethGenesisFile } from '../chain/genesis.js'
import { ChainStore } from '../store/chainStore.js'
import { StateReader } from './stateReader.js'
import type { Task, TaskResult, WorkerInit } from './tasks.js'

// Each worker opens the LMDB environment once; every read is a consistent LMDB snapshot.
const init = workerData as WorkerInit
const spec = new ChainSpec(JSON.parse(init.genesisJson) as GethGenesisFile)
const store = new ChainStore(init.datadir)
const state = new StateReader(spec, store)
const decoder = new TextDecoder()

export default async function run(task: Task): Promise<TaskResult> {
  switch (task.op) {
    case 'ping':
      return null
    case 'state':
      return state.query(task.query)
    case 'receipt': {
      const loc = store.getTxLocation(task.txHash)
      if (loc === undefined) return null
      const bytes = store.getReceiptJsonBytes(loc.blockHash, loc.index)
      return bytes === undefined ? null : decoder.decode(bytes)
    }
  }
}
