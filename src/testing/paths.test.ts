import { describe, expect, it } from 'vitest'
import { CONFORMANCE_DIR, conformancePath, rpcCompatPath } from './paths.js'

describe('conformance fixtures', () => {
  it('are found inside the repository', () => {
    expect(rpcCompatPath('genesis.json')).toBe(`${CONFORMANCE_DIR}/rpc-compat/genesis.json`)
    expect(conformancePath('eest', 'cases.txt')).toContain('eest/cases.txt')
  })

  it('name the missing path and the fix instead of a bare ENOENT', () => {
    expect(() => rpcCompatPath('no-such-file.rlp')).toThrow(/conformance fixture missing: .*rpc-compat\/no-such-file\.rlp .*SPONGE_CONFORMANCE_DIR/)
  })
})
