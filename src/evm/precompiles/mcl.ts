import { createRequire } from 'node:module'
import { dirname } from 'node:path'

// mcl-wasm (herumi's mcl compiled to WASM) runs the curve arithmetic of BN254, BLS12-381 and P-256: measured 3-20×
// faster than @noble/curves here, and faster than rustbn-wasm for BN254 (docs/performance.md, EVM precompiles).

export type Mcl = typeof import('mcl-wasm')
export type Fp = InstanceType<Mcl['Fp']>
export type Fp2 = InstanceType<Mcl['Fp2']>
export type Fr = InstanceType<Mcl['Fr']>
export type G1 = InstanceType<Mcl['G1']>
export type G2 = InstanceType<Mcl['G2']>

const require = createRequire(import.meta.url)

/**
 * A fresh mcl set up for one curve. mcl keeps its curve in module state, one WASM instance per load of the package, and
 * the precompiles need three curves at once; so each load takes new copies of the package's modules, dropping them from
 * require's cache once loaded (the next load, ours or anyone's, is new too). About 0.2 s and 2 MiB each, per thread.
 * Subgroup checks are left to the callers (isValidOrder), which need them for some operations and not others.
 */
export async function loadMcl(curve: (mcl: Mcl) => number): Promise<Mcl> {
  const dir = dirname(require.resolve('mcl-wasm'))
  const mcl = require('mcl-wasm') as Mcl
  for (const key of Object.keys(require.cache)) if (key.startsWith(dir)) delete require.cache[key]
  await mcl.init(curve(mcl))
  mcl.verifyOrderG1(false)
  mcl.verifyOrderG2(false)
  return mcl
}
