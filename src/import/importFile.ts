import type { ChainSpec } from '../chain/spec.js'
import { importChain } from './importChain.js'
import { decodeChainFile } from '../chain/chainFile.js'
import type { ChainStore } from '../store/chainStore.js'
import { bytesToHex } from '../util/hex.js'
import { progressBar } from '../util/progress.js'
import type { Logger } from '../util/logger.js'

/** Imports a chain file with a progress bar and a summary line. Throws ImportError at the first bad block. */
export async function importFile(spec: ChainSpec, store: ChainStore, file: string, showProgress: boolean, log: Logger): Promise<void> {
  const blocks = decodeChainFile(spec, file)
  const bar = progressBar('import', showProgress)
  const started = performance.now()
  const { imported, skipped } = await importChain(spec, store, blocks, (done, total, block, stored) => {
    bar(done, total, `#${block.header.number}`)
    if (stored) {
      log.info('imported block', {
        number: Number(block.header.number),
        hash: bytesToHex(block.hash()),
        txs: block.transactions.length,
        gasUsed: Number(block.header.gasUsed),
      })
    }
  })
  const secs = (performance.now() - started) / 1000
  const head = store.getLabel('head')
  log.info(`imported ${imported} blocks (${skipped} already known) in ${secs.toFixed(2)}s`, {
    imported,
    skipped,
    seconds: Number(secs.toFixed(3)),
    head: head === undefined ? null : bytesToHex(head),
  })
}
