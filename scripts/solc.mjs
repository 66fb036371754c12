import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)

/**
 * Compiles one contract of `file` (its source given) with the settings the committed code of Sponge's contracts was
 * made with (solc 0.8.28, optimizer 200 runs, Cancun, no metadata hash); answers solc's output for `contract`, with
 * the deployed code and `outputs` more.
 */
export function compileContract(file, contract, source, outputs = []) {
  const solc = require('solc')
  const input = {
    language: 'Solidity',
    sources: { [file]: { content: source } },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: 'cancun',
      metadata: { bytecodeHash: 'none' },
      outputSelection: { '*': { '*': ['evm.deployedBytecode.object', ...outputs] } },
    },
  }
  const out = JSON.parse(solc.compile(JSON.stringify(input)))
  const errors = (out.errors ?? []).filter((e) => e.severity === 'error')
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'))
  return out.contracts[file][contract]
}
