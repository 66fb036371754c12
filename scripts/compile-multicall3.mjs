import { compileContract } from './solc.mjs'

/** contracts/Multicall3.sol's deployed code (hex, no prefix). */
export function compileMulticall3(source) {
  return compileContract('Multicall3.sol', 'Multicall3', source).evm.deployedBytecode.object
}
