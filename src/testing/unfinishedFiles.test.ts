import { describe, expect, it } from 'vitest'
import { type FileLike, unfinishedReport } from './unfinishedFiles.js'

const file = (relativeModuleId: string, state: string, tests: [string, string][]): FileLike => ({
  relativeModuleId,
  state: () => state,
  children: { allTests: () => tests.map(([fullName, s]) => ({ fullName, result: () => ({ state: s }) })) },
})

describe('the unfinished-files report', () => {
  it('names a file left pending and its tests that never ended, and nothing for files that ended', () => {
    const files = [
      file('src/a.test.ts', 'passed', [['a ok', 'passed']]),
      file('src/b.test.ts', 'pending', [
        ['b first', 'passed'],
        ['b second', 'pending'],
        ['b third', 'pending'],
      ]),
      file('src/c.test.ts', 'failed', [['c bad', 'failed']]),
      file('src/d.test.ts', 'queued', []),
    ]
    expect(unfinishedReport(files)).toEqual([
      'unfinished test file (its worker died?): src/b.test.ts',
      '  never ended: b second',
      '  never ended: b third',
      'unfinished test file (its worker died?): src/d.test.ts',
    ])
    expect(unfinishedReport(files.filter((f) => f.state() !== 'pending' && f.state() !== 'queued'))).toEqual([])
  })
})
