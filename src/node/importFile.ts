import type { ChainSpec } from '../chain/spec.js'
import { decodeChainFile, importChain } from '../exec/importChain.js'
import type { ChainStore } from '../store/chainStore.js'
import { bytesToHex } from '../util/hex.js'
import { progressBar } from '../util/progress.js'

/** Imports a chain file with a progress bar and a summary line. Throws ImportError at the first bad block. */
export async function importFile(
  spec: ChainSpec,
  store: ChainStore,
  file: string,
  showProgress: boolean,
  log: (line: string) => void,
): Promise<void> {
  const blocks = decodeChainFile(spec, file)
  const bar = progressBar('import', showProgress)
  const started = performance.now()
  const { imported, skipped } = await importChain(spec, store, blocks, (done, total, block) =>
    bar(done, total, `#${block.header.number}`),
  )
  const secs = (performance.now() - started) / 1000
  const head = store.getLabel('head')
  log(
    `imported ${imported} blocks (${skipped} already known) in ${secs.toFixed(2)}s; head ${head === undefined ? '?' : bytesToHex(head)}`,
  )
}
