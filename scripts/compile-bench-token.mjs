import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)

/**
 * contracts/BenchToken.sol's deployed code (hex, no prefix) and the slot of its `balanceOf` mapping, with the settings
 * the committed code was made with (Multicall3's: solc 0.8.28, optimizer 200 runs, Cancun, no metadata hash).
 */
export function compileBenchToken(source) {
  const solc = require('solc')
  const input = {
    language: 'Solidity',
    sources: { 'BenchToken.sol': { content: source } },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: 'cancun',
      metadata: { bytecodeHash: 'none' },
      outputSelection: { '*': { '*': ['evm.deployedBytecode.object', 'storageLayout'] } },
    },
  }
  const out = JSON.parse(solc.compile(JSON.stringify(input)))
  const errors = (out.errors ?? []).filter((e) => e.severity === 'error')
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'))
  const contract = out.contracts['BenchToken.sol'].BenchToken
  const balances = contract.storageLayout.storage.find((s) => s.label === 'balanceOf')
  if (balances === undefined) throw new Error('BenchToken has no balanceOf mapping')
  return { runtime: contract.evm.deployedBytecode.object, balanceOfSlot: Number(balances.slot) }
}
