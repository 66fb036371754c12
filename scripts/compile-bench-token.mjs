import { compileContract } from './solc.mjs'

/** contracts/BenchToken.sol's deployed code (hex, no prefix) and the slot of its `balanceOf` mapping. */
export function compileBenchToken(source) {
  const contract = compileContract('BenchToken.sol', 'BenchToken', source, ['storageLayout'])
  const balances = contract.storageLayout.storage.find((s) => s.label === 'balanceOf')
  if (balances === undefined) throw new Error('BenchToken has no balanceOf mapping')
  return { runtime: contract.evm.deployedBytecode.object, balanceOfSlot: Number(balances.slot) }
}
