import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDatadir } from '../testing/paths.js'
import { runCli } from '../testing/runCli.js'

// Issue 31, item 4: a reader (`sponge rpc`) pointed at a file waited forever for a node to store a chain "in" it. A
// path that can never be a datadir is a start-up error: one line, exit 1, as the CLI's others.

const reader = (datadir: string) => runCli(['rpc', '--chain', 'dev', '--datadir', datadir, '--http.port', '0', '--workers', '1'])

async function failsInOneLine(datadir: string, line: RegExp): Promise<void> {
  const { code, stderr } = await reader(datadir)
  expect(code).toBe(1)
  const lines = stderr.trim().split('\n')
  expect(lines, stderr).toHaveLength(1)
  expect(lines[0]).toMatch(line)
}

describe('sponge rpc: a datadir that is not one', () => {
  it('a file: says so, and names the folder when the file is the data file', async () => {
    const dir = tempDatadir('reader-file')
    try {
      const file = join(dir, 'notes.txt')
      writeFileSync(file, 'not a datadir')
      await failsInOneLine(file, new RegExp(`^fatal: datadir ${file} is not a directory$`))
      mkdirSync(join(dir, 'dev'))
      const dataFile = join(dir, 'dev', 'chain.mdb')
      writeFileSync(dataFile, '')
      await failsInOneLine(
        dataFile,
        new RegExp(`^fatal: datadir ${dataFile} is not a directory \\(the datadir is the folder that holds it: ${join(dir, 'dev')}\\)$`),
      )
      // Below a file: no datadir can ever be made there.
      await failsInOneLine(join(file, 'dev'), /^fatal: datadir .*notes\.txt\/dev: .*ENOTDIR/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('a datadir whose chain.mdb is a folder', async () => {
    const dir = tempDatadir('reader-mdb-dir')
    try {
      mkdirSync(join(dir, 'chain.mdb'))
      await failsInOneLine(dir, /^fatal: datadir .*: chain\.mdb is not a file$/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
