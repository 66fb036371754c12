import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { staleBuilds } from './distFresh.js'

describe('the build freshness check', () => {
  it('names a source whose build is missing or older, and passes a fresh one', () => {
    const root = mkdtempSync(join(tmpdir(), 'sponge-fresh-'))
    mkdirSync(join(root, 'src/a'), { recursive: true })
    mkdirSync(join(root, 'dist/a'), { recursive: true })
    writeFileSync(join(root, 'src/a/x.ts'), '')
    writeFileSync(join(root, 'src/a/x.test.ts'), '')
    writeFileSync(join(root, 'src/a/y.ts'), '')
    writeFileSync(join(root, 'dist/a/x.js'), '')
    utimesSync(join(root, 'dist/a/x.js'), 1, 1)
    expect(staleBuilds(root).map((f) => f.slice(root.length))).toEqual(['/src/a/x.ts', '/src/a/y.ts'])
    writeFileSync(join(root, 'dist/a/x.js'), '')
    writeFileSync(join(root, 'dist/a/y.js'), '')
    expect(staleBuilds(root)).toEqual([])
  })
})
