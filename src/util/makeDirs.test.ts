import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { makeDirs } from './makeDirs.js'

describe('makeDirs', () => {
  it('makes every missing level and accepts what exists', () => {
    const root = mkdtempSync(join(tmpdir(), 'sponge-dirs-'))
    makeDirs(join(root, 'a/b/c'))
    expect(existsSync(join(root, 'a/b/c'))).toBe(true)
    makeDirs(join(root, 'a/b/c'))
  })

  it('fails at once where a level cannot be made (recursive mkdirSync never returns under /proc)', () => {
    expect(() => makeDirs('/proc/sponge-test/x')).toThrow(/ENOENT.*\/proc\/sponge-test/)
    const root = mkdtempSync(join(tmpdir(), 'sponge-dirs-'))
    writeFileSync(join(root, 'file'), '')
    expect(() => makeDirs(join(root, 'file/x'))).toThrow(/EEXIST|ENOTDIR/)
  })
})
