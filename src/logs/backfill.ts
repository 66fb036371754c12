import type { ChainStore } from '../store/chainStore.js'
import { hexToBytes } from '../util/hex.js'
import { type LogEntry, blockIndexKeys, encodeBlockLogs } from '../store/blockLogs.js'

/** Blocks indexed per write transaction. */
const BATCH = 500

/**
 * Indexes the logs of the blocks a store holds from before the log index existed, from their stored receipts (whose
 * logs are the very JSON a log record keeps). Runs once per store: a store made by this build is marked indexed at
 * genesis. Resumable: an interrupted run leaves the mark unset, and blocks already indexed are skipped.
 * Returns the number of blocks indexed.
 */
export function indexStoredLogs(store: ChainStore): number {
  if (store.logsIndexed()) return 0
  const decoder = new TextDecoder()
  const encoder = new TextEncoder()
  let batch: { hash: Uint8Array; logs: Uint8Array | undefined; keys: Uint8Array[] }[] = []
  let count = 0
  for (const hash of store.blockHashes()) {
    if (store.blockLogsView(hash) !== undefined) continue
    const number = store.getNumber(hash)
    if (number === undefined) continue
    const logs: LogEntry[] = []
    const txs = store.getTxCount(hash) ?? 0
    for (let i = 0; i < txs; i++) {
      const receipt = store.getReceiptJsonBytes(hash, i)
      if (receipt === undefined) continue
      const parsed = JSON.parse(decoder.decode(receipt)) as { logs: { address: string; topics: string[] }[] }
      for (const l of parsed.logs)
        logs.push({ address: hexToBytes(l.address), topics: l.topics.map(hexToBytes), json: encoder.encode(JSON.stringify(l)) })
    }
    batch.push({ hash, logs: logs.length === 0 ? undefined : encodeBlockLogs(logs), keys: blockIndexKeys(logs, number, hash) })
    count++
    if (batch.length === BATCH) {
      store.putBlockLogsSync(batch, false)
      batch = []
    }
  }
  store.putBlockLogsSync(batch, true)
  return count
}
