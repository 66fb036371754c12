import { statSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { CHAIN_FILE } from './chainStore.js'

// What stands at a datadir's path, as a reader (`sponge rpc`) sees it from outside the node: whether it can be a
// datadir at all, and which data file it holds now.

/** A datadir path that can never hold a chain (a file, a path below one, a data file that is a folder). */
export class DatadirPathError extends Error {
  override readonly name = 'DatadirPathError'
}

/**
 * Whether `datadir` holds a data file yet ('none': no such path, or a folder without one, which a node may still
 * make). Throws DatadirPathError for a path no node could ever make a datadir of.
 */
export function datadirContents(datadir: string): 'none' | 'dataFile' {
  const dir = statOrThrow(datadir, datadir)
  if (dir === undefined) return 'none'
  if (!dir.isDirectory()) {
    // The data file itself, given for its folder: name the folder.
    const hint = basename(datadir) === CHAIN_FILE ? ` (the datadir is the folder that holds it: ${dirname(datadir)})` : ''
    throw new DatadirPathError(`datadir ${datadir} is not a directory${hint}`)
  }
  const file = statOrThrow(join(datadir, CHAIN_FILE), datadir)
  if (file === undefined) return 'none'
  if (!file.isFile()) throw new DatadirPathError(`datadir ${datadir}: ${CHAIN_FILE} is not a file`)
  return 'dataFile'
}

/**
 * Which data file the datadir holds now: its device and inode, undefined when it holds none. A datadir removed and
 * made again by a new node has a data file with another inode — never the old one's number, which the kernel does
 * not give out again while a reader still has that file open (as a reader does: mapped, deleted or not).
 */
export function dataFileId(datadir: string): string | undefined {
  try {
    const st = statSync(join(datadir, CHAIN_FILE), { throwIfNoEntry: false })
    return st === undefined ? undefined : `${st.dev}:${st.ino}`
  } catch {
    // Not reachable now (the datadir made a file, permissions taken away): no data file there, as far as we can see.
    return undefined
  }
}

function statOrThrow(path: string, datadir: string): ReturnType<typeof statSync> {
  try {
    return statSync(path, { throwIfNoEntry: false })
  } catch (e) {
    // ENOTDIR (a path below a file), EACCES, ELOOP: no waiting makes them a datadir.
    throw new DatadirPathError(`datadir ${datadir}: ${e instanceof Error ? e.message : String(e)}`)
  }
}
