import { createRequire } from 'node:module'
import { createEVM } from '@ethereumjs/evm'
import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager'
import * as utilEsm from '@ethereumjs/util'
import { Account, Address } from '@ethereumjs/util'
import { describe, expect, it, vi } from 'vitest'
import { assemble } from '../testing/asm.js'
import { hexToBytes } from '../util/hex.js'

// scripts/patch-ethereumjs.mjs runs at `npm ci`: without it every call frame builds two objects through V8's slow
// double-spread path (~30 µs and ~7.5 KB of garbage each, on Node 20), every padded word goes through array
// spreads, and every SSTORE rewrites the storage trie at once. Nothing else would notice it missing: the values and
// the state roots are the same either way. So these tests check the values, and that the patched code is the code
// that runs: each rewrite leaves a mark (the builtin it calls, or the builtin it no longer calls) watched here.

/** Runs `f` with Object.assign watched: each call's arguments' own keys as they were before the call, and its result. */
async function watchingObjectAssign<T>(f: () => Promise<T>): Promise<{ value: T; calls: { keys: string[][]; result: object }[] }> {
  const assign = Object.assign
  const calls: { keys: string[][]; result: object }[] = []
  Object.assign = function (this: unknown, ...args: object[]) {
    const keys = args.map((a) => Object.keys(a))
    const result = (assign as (...a: object[]) => object).apply(this, args)
    calls.push({ keys, result })
    return result
  } as typeof Object.assign
  try {
    return { value: await f(), calls }
  } finally {
    Object.assign = assign
  }
}

describe('the EthereumJS rewrites applied at install', () => {
  it("builds each frame's interpreter message and runState with Object.assign (not double spreads), to the same values", async () => {
    const evm = await createEVM()
    const inner = new Address(hexToBytes(`0x${'11'.repeat(20)}`))
    const outer = new Address(hexToBytes(`0x${'22'.repeat(20)}`))
    // inner returns 42; outer STATICCALLs inner and returns its answer: two call frames.
    await evm.stateManager.putCode(inner, hexToBytes(assemble(['0x2a', '0x00', 'MSTORE', '0x20', '0x00', 'RETURN'])))
    await evm.stateManager.putCode(
      outer,
      hexToBytes(assemble(['0x20', '0x00', '0x00', '0x00', inner.toString() as `0x${string}`, 'GAS', 'STATICCALL', 'POP', '0x20', '0x00', 'RETURN'])),
    )
    const { value: r, calls } = await watchingObjectAssign(() => evm.runCall({ to: outer, gasLimit: 100_000n }))
    expect(r.execResult.exceptionError).toBeUndefined()
    expect(Buffer.from(r.execResult.returnValue).toString('hex')).toBe('2a'.padStart(64, '0'))
    // _executeCall: Object.assign({ codeAddress }, message, { gasLimit }), once per frame, with the frame's gas.
    const messages = calls.filter((c) => c.keys.length === 3 && c.keys[0]!.join() === 'codeAddress' && c.keys[2]!.join() === 'gasLimit')
    expect(messages.map((c) => (c.result as { to: Address }).to.toString())).toEqual([outer.toString(), inner.toString()])
    expect((messages[0]!.result as { gasLimit: bigint }).gasLimit).toBe(100_000n)
    // runInterpreter: Object.assign({}, interpreter's runState, result, env), once per frame; the outer frame's is
    // the runState the call answers with, the env's fields over the interpreter's.
    const runStates = calls.filter((c) => c.keys.length === 4 && c.keys[0]!.length === 0)
    expect(runStates).toHaveLength(2)
    expect(runStates.map((c) => c.result)).toContain(r.execResult.runState)
    expect(r.execResult.runState).toMatchObject({ address: outer, depth: 0 })
  })

  it('pads without array spreads, to the same bytes, always in a new array (both builds of @ethereumjs/util)', () => {
    const utilCjs = createRequire(import.meta.url)('@ethereumjs/util') as typeof utilEsm
    expect(utilCjs.setLengthLeft).not.toBe(utilEsm.setLengthLeft)
    const typedArray = Object.getPrototypeOf(Uint8Array.prototype) as { set: Uint8Array['set']; [Symbol.iterator]: () => Iterator<number> }
    for (const { setLengthLeft, setLengthRight } of [utilEsm, utilCjs]) {
      const input = Uint8Array.of(1, 2, 3)
      // The rewrite pads by TypedArray.prototype.set into a zeroed array; the original spread the input (its iterator).
      const set = vi.spyOn(typedArray, 'set')
      const iterate = vi.spyOn(typedArray, Symbol.iterator)
      let left: Uint8Array
      let right: Uint8Array
      let sets: [boolean, unknown][]
      let iterations: number
      let watched: number
      try {
        // The watch works: a spread is seen.
        void [...Uint8Array.of(9)]
        watched = iterate.mock.calls.length
        left = setLengthLeft(input, 6)
        right = setLengthRight(input, 6)
        sets = set.mock.calls.map(([from, offset]) => [from === input, offset])
        iterations = iterate.mock.calls.length - watched
      } finally {
        set.mockRestore()
        iterate.mockRestore()
      }
      // Read after the spies are gone: the assertions themselves iterate arrays.
      expect(sets).toEqual([
        [true, 3],
        [true, 0],
      ])
      expect(watched).toBe(1)
      expect(iterations).toBe(0)
      expect([...left]).toEqual([0, 0, 0, 1, 2, 3])
      expect([...right]).toEqual([1, 2, 3, 0, 0, 0])
      expect(left.buffer).not.toBe(input.buffer)
      expect(setLengthLeft(input, 3)).toBe(input)
      expect(() => setLengthLeft(input, 2)).toThrow()
      expect([...setLengthLeft(input, 2, { allowTruncate: true })]).toEqual([2, 3])
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
