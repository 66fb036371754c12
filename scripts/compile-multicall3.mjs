import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)

/** contracts/Multicall3.sol's deployed code (hex, no prefix), with the settings the committed code was made with. */
export function compileMulticall3(source) {
  const solc = require('solc')
  const input = {
    language: 'Solidity',
    sources: { 'Multicall3.sol': { content: source } },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: 'cancun',
      metadata: { bytecodeHash: 'none' },
      outputSelection: { '*': { '*': ['evm.deployedBytecode.object'] } },
    },
  }
  const out = JSON.parse(solc.compile(JSON.stringify(input)))
  const errors = (out.errors ?? []).filter((e) => e.severity === 'error')
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'))
  return out.contracts['Multicall3.sol'].Multicall3.evm.deployedBytecode.object
}
