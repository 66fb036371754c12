import { EVM } from '@ethereumjs/evm'
import { describe, expect, it } from 'vitest'

// scripts/patch-ethereumjs.mjs runs at `npm ci`: without it every call frame builds two objects through V8's slow
// double-spread path (~30 µs and ~7.5 KB of garbage each, on Node 20). Nothing else would notice it missing.
describe('the EthereumJS patch applied at install', () => {
  it('builds the interpreter message and runState with Object.assign, not double spreads', () => {
    const methods = EVM.prototype as unknown as Record<string, unknown>
    const executeCall = String(methods['_executeCall'])
    const runInterpreter = String(methods['runInterpreter'])
    expect(executeCall).toContain('Object.assign({ codeAddress: message.codeAddress }, message, { gasLimit })')
    expect(executeCall).not.toContain('...message,')
    expect(runInterpreter).toContain('runState: Object.assign({}, interpreterRes.runState, result, interpreter._env)')
  })
})
