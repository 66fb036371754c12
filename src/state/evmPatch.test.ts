import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { EVM } from '@ethereumjs/evm'
import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager'
import { Account, Address, setLengthLeft, setLengthRight } from '@ethereumjs/util'
import { describe, expect, it, vi } from 'vitest'

// scripts/patch-ethereumjs.mjs runs at `npm ci`: without it every call frame builds two objects through V8's slow
// double-spread path (~30 µs and ~7.5 KB of garbage each, on Node 20), every padded word goes through array
// spreads, and every SSTORE rewrites the storage trie at once. Nothing else would notice it missing: the values and
// the state roots are the same either way.
describe('the EthereumJS rewrites applied at install', () => {
  it('builds the interpreter message and runState with Object.assign, not double spreads', () => {
    const methods = EVM.prototype as unknown as Record<string, unknown>
    const executeCall = String(methods['_executeCall'])
    const runInterpreter = String(methods['runInterpreter'])
    expect(executeCall).toContain('Object.assign({ codeAddress: message.codeAddress }, message, { gasLimit })')
    expect(executeCall).not.toContain('...message,')
    expect(runInterpreter).toContain('runState: Object.assign({}, interpreterRes.runState, result, interpreter._env)')
  })

  it('pads without array spreads, to the same bytes, always in a new array', () => {
    const input = Uint8Array.of(1, 2, 3)
    const left = setLengthLeft(input, 6)
    const right = setLengthRight(input, 6)
    expect([...left]).toEqual([0, 0, 0, 1, 2, 3])
    expect([...right]).toEqual([1, 2, 3, 0, 0, 0])
    expect(left.buffer).not.toBe(input.buffer)
    expect(setLengthLeft(input, 3)).toBe(input)
    expect(() => setLengthLeft(input, 2)).toThrow()
    expect([...setLengthLeft(input, 2, { allowTruncate: true })]).toEqual([2, 3])
    // setLength itself is not exported: its text is checked in both builds.
    const pkgDir = dirname(dirname(dirname(createRequire(import.meta.url).resolve('@ethereumjs/util'))))
    for (const build of ['esm', 'cjs']) {
      const text = readFileSync(join(pkgDir, 'dist', build, 'bytes.js'), 'utf8')
      expect(text).toContain('padded.set(msg, right ? 0 : length - msg.length)')
      expect(text).not.toContain('new Uint8Array([...msg')
    }
  })
})

describe('the EthereumJS putStorage fix applied at install', () => {
  it('keeps an SSTORE in the cache until the flush, and the flushed root is the same as written at once', async () => {
    const address = new Address(new Uint8Array(20).fill(7))
    const slot = new Uint8Array(32).fill(1)
    const roots: string[] = []
    for (const caches of [new Caches(), undefined]) {
      const trie = new MerklePatriciaTrie({ useKeyHashing: true })
      const sm = new MerkleStateManager({ trie, ...(caches === undefined ? {} : { caches }) })
      await sm.putAccount(address, new Account(0n, 1n))
      await sm.flush()
      await sm.checkpoint()
      const puts = vi.spyOn(MerklePatriciaTrie.prototype, 'put')
      await sm.putStorage(address, slot, Uint8Array.of(42))
      // With caches, no trie (the account's storage trie included) is written before the commit's flush.
      if (caches === undefined) expect(puts).toHaveBeenCalled()
      else expect(puts).not.toHaveBeenCalled()
      puts.mockRestore()
      expect([...(await sm.getStorage(address, slot))]).toEqual([42])
      await sm.commit()
      roots.push(Buffer.from(await sm.getStateRoot()).toString('hex'))
    }
    expect(roots[0]).toBe(roots[1])
  })
})
