import { bytesToHex } from '../util/hex.js'
import type { ChainSpec } from '../chain/spec.js'
import { decodeChainFile, importChain } from '../exec/importChain.js'
import type { ChainStore } from '../store/chainStore.js'
import { progressBar } from './progress.js'

/** Imports a chain file with a progress bar; returns false (after saying why) when a bad block stopped it. */
export async function runImport(spec: ChainSpec, store: ChainStore, file: string, showProgress: boolean): Promise<void> {
  const blocks = decodeChainFile(spec, file)
  const bar = progressBar('import', showProgress)
  const started = performance.now()
  const { imported, skipped } = await importChain(spec, store, blocks, (done, total, block) =>
    bar(done, total, `#${block.header.number}`),
  )
  const secs = (performance.now() - started) / 1000
  const head = store.getLabel('head')
  process.stderr.write(
    `imported ${imported} blocks (${skipped} already known) in ${secs.toFixed(2)}s; head ${head === undefined ? '?' : bytesToHex(head)}\n`,
  )
}
