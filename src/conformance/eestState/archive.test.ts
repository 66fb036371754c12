import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { type IndexedFile, allCases, openFixtures, sampleCases, selectCases } from './archive.js'
import type { CaseKey } from './fixture.js'
import { reportLines } from './report.js'

const files: IndexedFile[] = [
  {
    file: 'cancun/eip1153_tstore/a.json',
    cases: [
      ['tests/cancun/a.py::test_a[fork_Cancun]', 'Cancun', 0],
      ['tests/cancun/a.py::test_a[fork_Prague]', 'Prague', 0],
    ],
  },
  { file: 'static/stRandom/r.json', cases: Array.from({ length: 30 }, (_, i) => [`r${i}`, 'Osaka', 0] as [string, string, number]) },
]

describe('case selection', () => {
  it('selects by relative path or by test name', () => {
    expect(selectCases(files, undefined)).toHaveLength(32)
    expect(selectCases(files, /eip1153/)).toHaveLength(2)
    expect(selectCases(files, /fork_Prague/).map((c) => c.fork)).toEqual(['Prague'])
    expect(selectCases(files, /^r1\d$/)).toHaveLength(10)
  })

  it('samples the same cases for the same seed, in the list’s order', () => {
    const cases = allCases(files)
    const a = sampleCases(cases, 10, 42)
    expect(a).toEqual(sampleCases(cases, 10, 42))
    expect(new Set(a.map((c) => c.test)).size).toBe(10)
    const positions = a.map((c) => cases.indexOf(c))
    expect(positions).toEqual([...positions].sort((x, y) => x - y))
    expect(sampleCases(cases, 10, 43)).not.toEqual(a)
    expect(sampleCases(cases, 100, 1)).toEqual(cases)
    expect(sampleCases(cases, 0, 1)).toEqual([])
  })
})

describe('the unpacked archive', () => {
  const work = mkdtempSync(join(tmpdir(), 'sponge-eest-archive-'))
  afterAll(() => rmSync(work, { recursive: true, force: true }))

  it('is unpacked and indexed once, into a folder named by the archive’s hash', () => {
    const src = join(work, 'src')
    mkdirSync(join(src, 'prague/eip7702'), { recursive: true })
    const test = { post: { Prague: [{}, {}] } }
    writeFileSync(join(src, 'prague/eip7702/t.json'), JSON.stringify({ t1: test, t2: { post: { Osaka: [{}] } } }))
    const archive = join(work, 'fixtures.tar.gz')
    expect(spawnSync('tar', ['czf', archive, '-C', src, 'prague']).status).toBe(0)
    const notes: string[] = []
    const cache = join(work, 'cache')
    const first = openFixtures(archive, cache, (line) => notes.push(line))
    expect(first.files).toEqual([
      {
        file: 'prague/eip7702/t.json',
        cases: [
          ['t1', 'Prague', 0],
          ['t1', 'Prague', 1],
          ['t2', 'Osaka', 0],
        ],
      },
    ])
    expect(existsSync(join(first.dir, 'prague/eip7702/t.json'))).toBe(true)
    expect(readdirSync(cache)).toEqual([first.dir.slice(cache.length + 1)])
    expect(first.dir).toMatch(/[0-9a-f]{16}$/)
    const again = openFixtures(archive, cache, (line) => notes.push(line))
    expect(again).toEqual(first)
    expect(notes).toHaveLength(1)
  })
})

describe('the report', () => {
  const key = (file: string, test: string): CaseKey => ({ file, test, fork: 'Cancun', index: 0 })
  it('groups failures by folder, bounded, and ends with the totals', () => {
    const results = [
      { key: key('cancun/x/a.json', 'p::a1'), reason: undefined, ms: 1 },
      { key: key('cancun/x/a.json', 'p::a2'), reason: 'state root 0x1, want 0x2', ms: 1 },
      { key: key('cancun/x/b.json', 'p::b1'), reason: 'logs hash', ms: 1 },
      { key: key('cancun/x/b.json', 'p::b2'), reason: 'executed, want rejected (X)', ms: 1 },
      { key: key('static/y/c.json', 'c1'), reason: undefined, ms: 1 },
    ]
    expect(reportLines(results, { show: 2, folders: false })).toEqual([
      'FAIL cancun/x: 3 of 4 failed',
      '  a.json::a2 Cancun/0: state root 0x1, want 0x2',
      '  b.json::b1 Cancun/0: logs hash',
      '  … and 1 more',
      'cancun: 1 passed, 3 failed',
      'static: 1 passed, 0 failed',
      '2 passed, 3 failed',
    ])
  })
})
